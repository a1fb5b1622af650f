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
  /**
   * Also re-judge, whatever their score, texts outside the built-in classifiers' languages (en, es, pt, fr, de;
   * src/core/classifiers/language-support.ts), which those classifiers cannot judge (issue #27).
   */
  outsideLanguages?: boolean;
  /** Also re-judge, whatever their score, texts in the supported languages other than English, where the classifiers have less data. */
  nonEnglish?: boolean;
}

/**
 * Plain-language category definitions the backend judges against. The ten main policies use the labelling guide's
 * definitions (training/corpus/POLICIES.md), look-alikes included, so the backend and the built-in models judge
 * by the same rules.
 */
const CATEGORY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  toxicity:
    'insults, harassment, bullying, demeaning or hostile language aimed at a person or group, including threats, sextortion and telling someone to harm themselves. Not toxic: banter clearly between friends, criticism of work or ideas without insult, quoting abuse to report it, counter-speech, complaints about a product',
  toxicity_severe:
    'severe abuse: threats of serious harm, telling someone to kill themselves, slur-laden or dehumanizing attacks, sexual harassment of a person, sustained degrading abuse. Ordinary rudeness or one mild insult is not severe',
  hate:
    'attacking, dehumanizing, stereotyping as fact, using slurs against, or inciting against people for a protected attribute (race, ethnicity, nationality, religion, sex or gender, sexual orientation, gender identity, disability, age), including coded and implicit hate and praise of extremist violence. Not hate: neutral or positive mention of an identity, reclaimed self-reference, counter-speech, reporting or quoting hate to condemn it, discussing discrimination, news',
  sexual:
    'sexually explicit or suggestive content, soliciting sex or nudes, offering sexual services, sextortion, any sexualised approach to or grooming of a minor (asking age then secrecy, moving to private apps, gifts for photos). Not sexual: sex education, medical and health questions, relationship advice, non-explicit dating profiles, plain lingerie or swimwear listings, art history',
  flirtation:
    'flirting: compliments on looks, pickup lines, innuendo, romantic or sexual advances. Not flirting: platonic compliments on work or skills, polite customer-service warmth, talking about dating in general',
  profanity:
    'swearing, vulgar or obscene words, also obfuscated ("f*ck", "sh1t", "a$$"), whether or not aimed at anyone. Not profanity: innocent words that contain profane letters ("Scunthorpe", "assess", "cocktail"), clean language',
  violence:
    'threats of violence (direct, conditional, veiled, indirect or obfuscated, like "unalive" or "k1ll"), inciting or glorifying violence against people or animals, gore described to shock, asking for or giving ways to hurt someone. Not violence: idioms ("killing it", "dying of laughter"), games and fiction clearly framed as such, sports, news and history, self-defence classes, hunting, cooking and butchering, quoting a threat to report it, denying a threat',
  self_harm:
    'suicidal intent or ideation (also indirect: farewells, wanting to sleep and never wake up, giving belongings away), self-injury, encouraging or instructing self-harm or suicide, pro-eating-disorder encouragement. Not self-harm: hyperbole ("this exam is killing me"), support messages and crisis resources, recovery stories that do not encourage, news, fitness and diet talk without harm, asking how to help a friend',
  spam:
    'unsolicited bulk, commercial or fraudulent messages: scams (romance, overpayment, advance fee, job fees, fake delivery fees, crypto investment, giveaways), phishing, prize notices, repeated promotion, pushing a marketplace deal off-platform or to odd payment methods. Not spam: ordinary buying and selling talk, a friend sharing a link, legitimate order or delivery questions, discussing scams to warn others',
  self_promotion:
    'advertising the writer\'s own channel, account, shop, service or product where nobody asked ("check out my channel", "follow my IG", "I do commissions, DM me"). Not self-promotion: answering when someone asks for a link, recommending someone else\'s thing, a listing in a marketplace, an artist\'s profile bio',
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
  /** Sent whatever the score (the text is outside the models' languages, or not English, and the channel asks for that). */
  always?: boolean;
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
      const inBand = candidate.always === true || (probability >= band.low && probability <= band.high);
      if (!description || (selected && !selected.has(policyId)) || !inBand) return { policyId, status: 'kept' };
      if (!backend) {
        return { policyId, status: 'failed', message: `Borderline score of "${policyId}" was not re-scored: no model backend configured (set MODEL_BACKEND_URL); the built-in score was kept` };
      }
      // A text sent whatever its score is judged over the whole range.
      const outcome = await rescoreBorderline(backend, { policyId, description, probability, band: candidate.always ? { low: 0, high: 1 } : band }, candidate.text, undefined, options);
      if (outcome.error !== undefined) {
        return { policyId, status: 'failed', message: `Borderline score of "${policyId}" could not be re-scored by the model backend (${outcome.error}); the built-in score was kept` };
      }
      return outcome.rescored ? { policyId, status: 'rescored', probability: outcome.probability, ...(outcome.reason ? { reason: outcome.reason } : {}) } : { policyId, status: 'kept' };
    }),
  );
}
