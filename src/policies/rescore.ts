/**
 * Second opinion for borderline scores: a channel may ask the model backend
 * to re-judge built-in classifier scores that fall inside a band around the
 * decision point. Clear cases never leave the process; only the uncertain
 * ones pay for a backend call.
 */
import { classifierPolicies } from '../core/classifiers/index.ts';
import type { ErrorIssue } from '../errors.ts';
import { rescoreBorderline, type GuidelineOptions, type ModelBackendConfig } from './guideline.ts';

export interface BorderlineRescoreSettings {
  /** Scores in [low, high] (inclusive) are sent to the backend. */
  low: number;
  high: number;
  /** Classifier policies to re-score; absent = every built-in classifier the channel runs. */
  policies?: string[];
}

/** Plain-language category definitions the backend judges against. */
const CATEGORY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  toxicity: 'rude, disrespectful or insulting language aimed at a person or group, likely to make someone leave a conversation',
  toxicity_severe: 'very hateful, aggressive or threatening language, far beyond ordinary rudeness',
  hate: 'content that attacks, demeans or threatens people because of race, ethnicity, religion, gender, sexual orientation, disability or nationality',
  sexual: 'sexually explicit content or sexual solicitation',
  flirtation: 'flirting, romantic or sexual advances towards the reader',
  profanity: 'swear words, obscenities or vulgar language',
  violence: 'threats of violence, incitement to violence, or graphic descriptions of violence or injury',
  self_harm: 'content that promotes, encourages or describes suicide or self-harm, or states an intent to self-harm',
  spam: 'unsolicited bulk or commercial messages, scams, phishing or repetitive link-dropping',
  self_promotion: 'promotion of the author\'s own channel, product, service or social media',
  illicit: 'offers, requests or instructions for illegal goods or activities',
  illicit_drugs: 'buying, selling or using illegal drugs',
  illicit_alcohol: 'selling or promoting alcohol',
  illicit_firearms: 'buying, selling or making firearms, ammunition or weapons',
  illicit_tobacco: 'selling or promoting tobacco or vaping products',
  illicit_gambling: 'gambling, betting or casino promotion',
  cannabis: 'cannabis or marijuana use, sale or promotion',
  adult: 'adult-only content: pornography, escort services or adult websites',
  crypto: 'cryptocurrency promotion, trading offers or investment schemes',
  political: 'political content: parties, elections, politicians or political campaigning',
  religion: 'religious content: faiths, worship, proselytising or religious debate',
  code_abuse: 'attempts to inject code or commands: SQL, script, shell or prompt injection',
  personal_information: 'personal information that identifies someone: contact details, addresses, ids or card numbers',
};

const RESCORABLE = new Set(classifierPolicies.map((policy) => policy.id).filter((id) => CATEGORY_DESCRIPTIONS[id] !== undefined));

export const isRescorable = (policyId: string): boolean => RESCORABLE.has(policyId);

/** Channel-setting checks the schema cannot express. */
export function borderlineRescoreIssues(settings: BorderlineRescoreSettings | null, path: string): ErrorIssue[] {
  if (!settings) return [];
  const issues: ErrorIssue[] = [];
  if (settings.low > settings.high) issues.push({ message: 'low must not be above high', path });
  settings.policies?.forEach((id, i) => {
    if (!isRescorable(id)) issues.push({ message: `"${id}" is not a built-in classifier policy that can be re-scored`, path: `${path}/policies/${i}` });
  });
  return issues;
}

/** One classifier result that may be re-scored, with the text that produced its score. */
export interface RescoreCandidate {
  policyId: string;
  probability: number;
  text: string;
}

export type RescoreOutcome =
  | { policyId: string; status: 'kept' }
  | { policyId: string; status: 'rescored'; probability: number; reason?: string }
  | { policyId: string; status: 'failed'; message: string };

/**
 * Asks the backend about every candidate inside the band, concurrently.
 * Never throws: a missing or failing backend keeps the built-in score and
 * says why, so the pipeline can report it in `errors`.
 */
export async function rescoreCandidates(
  settings: BorderlineRescoreSettings,
  candidates: readonly RescoreCandidate[],
  backend: ModelBackendConfig | null,
  options: GuidelineOptions,
): Promise<RescoreOutcome[]> {
  const selected = settings.policies ? new Set(settings.policies) : null;
  const band = { low: settings.low, high: settings.high };
  return Promise.all(
    candidates.map(async (candidate): Promise<RescoreOutcome> => {
      const { policyId, probability } = candidate;
      const description = CATEGORY_DESCRIPTIONS[policyId];
      if (!description || (selected && !selected.has(policyId)) || probability < band.low || probability > band.high) return { policyId, status: 'kept' };
      if (!backend) {
        return { policyId, status: 'failed', message: `Borderline score of "${policyId}" was not re-scored: no model backend configured (set MODEL_BACKEND_URL); the built-in score was kept` };
      }
      const outcome = await rescoreBorderline(backend, { policyId, description, probability, band }, candidate.text, undefined, options);
      if (outcome.error !== undefined) {
        return { policyId, status: 'failed', message: `Borderline score of "${policyId}" could not be re-scored by the model backend (${outcome.error}); the built-in score was kept` };
      }
      return outcome.rescored ? { policyId, status: 'rescored', probability: outcome.probability, ...(outcome.reason ? { reason: outcome.reason } : {}) } : { policyId, status: 'kept' };
    }),
  );
}
