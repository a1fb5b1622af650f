import type { Policy, PolicySettings } from '../core/policy.ts';
import type { ErrorIssue } from '../errors.ts';
import { classifierPolicies } from '../core/classifiers/index.ts';
import { withObscenity } from '../core/policies/profanity.ts';
import { parseEntitySettings, piiPolicy, urlPolicy } from '../core/entities/index.ts';
import { parseUnicodeSettings, unicodeSpoofingPolicy } from '../core/unicode/policy.ts';
import type { CompiledWordlist } from '../core/wordlist/matcher.ts';
import { createGuidelinePolicy, type ModelBackendConfig } from './guideline.ts';
import { imagePolicy } from '../media/image-policy.ts';
import { createWordlistPolicy, isWordlistPolicyId, validateWordlistSettings, wordlistRefOf } from './wordlist-policy.ts';

/**
 * Every built-in policy, by id. Adding a policy means adding it here; the
 * pipeline, channel validation and the OpenAPI document read this table.
 */
export interface RegisteredPolicy {
  policy: Policy;
  /** Checks the policy's own settings beyond {id, flag, threshold}. */
  validate?(settings: PolicySettings, path: string): ErrorIssue[];
  /**
   * The setting names an entry may hold; any other is refused. Absent only where `validate`
   * refuses unknown names itself.
   */
  settingNames?: ReadonlySet<string>;
}

/** `mode: 'shadow'` observes: the policy scores and reports, the item is shadow-flagged, never flagged. */
const COMMON_SETTINGS: ReadonlySet<string> = new Set(['id', 'flag', 'threshold', 'mode']);

function modeIssues(settings: PolicySettings, path: string): ErrorIssue[] {
  return settings.mode === undefined || settings.mode === 'flag' || settings.mode === 'shadow' ? [] : [{ message: 'mode must be "flag" or "shadow"', path: `${path}/mode` }];
}
const ENTITY_SETTINGS: ReadonlySet<string> = new Set([...COMMON_SETTINGS, 'entities']);

/** What a new project's default channel runs: the core harms, spam and Unicode spoofing. */
const DEFAULT_CHANNEL_POLICY_IDS = ['toxicity', 'toxicity_severe', 'hate', 'sexual', 'violence', 'self_harm', 'profanity', 'spam', 'unicode_spoofing'];

type ParseOutcome = { ok: true } | { ok: false; issues: Array<{ message: string; path?: string }> };

/** Adapts a policy's own settings parser to the API's issue paths (JSON pointers). */
const parsedWith =
  (parse: (raw: unknown) => ParseOutcome) =>
  (settings: PolicySettings, path: string): ErrorIssue[] => {
    const outcome = parse(settings);
    if (outcome.ok) return [];
    return outcome.issues.map((issue) => {
      const sub = (issue.path ?? '').replace(/^\/+/, '').replace(/\./g, '/');
      return { message: issue.message, path: sub ? `${path}/${sub}` : path };
    });
  };

const registered: RegisteredPolicy[] = [
  ...classifierPolicies.map((policy) => ({ policy: policy.id === 'profanity' ? withObscenity(policy) : policy, validate: modeIssues, settingNames: COMMON_SETTINGS })),
  { policy: piiPolicy, validate: (s, at) => [...modeIssues(s, at), ...parsedWith((raw) => parseEntitySettings('pii', raw))(s, at)], settingNames: ENTITY_SETTINGS },
  { policy: urlPolicy, validate: (s, at) => [...modeIssues(s, at), ...parsedWith((raw) => parseEntitySettings('url', raw))(s, at)], settingNames: ENTITY_SETTINGS },
  { policy: unicodeSpoofingPolicy, validate: parsedWith(parseUnicodeSettings) },
  // Scores media, not text: the pipeline takes its entry out of the text policies (src/media/image-policy.ts).
  { policy: imagePolicy, settingNames: COMMON_SETTINGS },
];

const byId = new Map(registered.map((entry) => [entry.policy.id, entry]));

/** Entries whose policy is bound per request (see bindPolicy); listed in settings but not in the default table. */
const GUIDELINE_ID = 'guideline';
const GUIDELINE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const GUIDELINE_SETTINGS = new Set(['id', 'flag', 'threshold', 'guidelineKey', 'instructions']);
const MAX_GUIDELINE_INSTRUCTIONS = 10_000;

function validateGuideline(settings: PolicySettings, path: string): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const key = settings.guidelineKey;
  if (typeof key !== 'string' || !GUIDELINE_KEY_PATTERN.test(key)) {
    issues.push({ message: 'guidelineKey is required: 1-100 letters, digits, "_", "." or "-"', path: `${path}/guidelineKey` });
  } else if (byId.has(key) || key === GUIDELINE_ID || isWordlistPolicyId(key)) {
    issues.push({ message: `guidelineKey "${key}" is the id of another policy`, path: `${path}/guidelineKey` });
  }
  const instructions = settings.instructions;
  if (typeof instructions !== 'string' || instructions.trim() === '') issues.push({ message: 'instructions are required', path: `${path}/instructions` });
  else if (instructions.length > MAX_GUIDELINE_INSTRUCTIONS) issues.push({ message: `instructions are longer than ${MAX_GUIDELINE_INSTRUCTIONS} characters`, path: `${path}/instructions` });
  for (const name of Object.keys(settings)) if (!GUIDELINE_SETTINGS.has(name)) issues.push({ message: `Unknown guideline setting "${name}"`, path: `${path}/${name}` });
  return issues;
}

// Stand-ins for validation and lookups; the pipeline runs the instances bindPolicy makes.
const guidelineEntry: RegisteredPolicy = { policy: createGuidelinePolicy(null, false), validate: validateGuideline };
const wordlistEntry: RegisteredPolicy = {
  policy: createWordlistPolicy('wordlist_', async () => null),
  validate: validateWordlistSettings,
};

export function findPolicy(id: string): RegisteredPolicy | undefined {
  if (id === GUIDELINE_ID) return guidelineEntry;
  if (isWordlistPolicyId(id)) return wordlistEntry;
  return byId.get(id);
}

/** The id a policy's result (and error) carries: a guideline's key, otherwise the policy id. */
export const resultIdOf = (settings: PolicySettings): string =>
  settings.id === GUIDELINE_ID && typeof settings.guidelineKey === 'string' ? settings.guidelineKey : settings.id;

/** What per-project policies need from the request: its project's wordlists and the model backend. */
export interface PolicyEnvironment {
  wordlist(ref: string): Promise<CompiledWordlist | null>;
  modelBackend: ModelBackendConfig | null;
  allowPrivateOutbound: boolean;
}

/**
 * The policy instance that runs the given settings in one request. Built-in
 * policies are shared; wordlist and guideline policies are bound to the
 * request's project and backend, and carry the result id.
 */
/**
 * The policy object for one settings entry. Built-in policies are shared; guideline and wordlist
 * policies are bound to the request's environment, which is built only when one of them asks.
 */
export function bindPolicy(settings: PolicySettings, environment: () => PolicyEnvironment): Policy {
  if (settings.id === GUIDELINE_ID) {
    const env = environment();
    return { ...createGuidelinePolicy(env.modelBackend, env.allowPrivateOutbound), id: resultIdOf(settings) };
  }
  if (isWordlistPolicyId(settings.id)) return createWordlistPolicy(settings.id, () => environment().wordlist(wordlistRefOf(settings.id)));
  return byId.get(settings.id)!.policy;
}

/** Built-in policies: pure and synchronous, bound to nothing of the request, so they can run in a worker thread. */
export const isPortablePolicy = (settings: PolicySettings): boolean => byId.has(settings.id);

export const policyIds = (): string[] => [...byId.keys()];

export function defaultChannelPolicies(): PolicySettings[] {
  return DEFAULT_CHANNEL_POLICY_IDS.filter((id) => byId.has(id)).map((id) => ({ id, flag: true }));
}

/**
 * Validates a list of policy settings (a channel's or a request's override):
 * known ids, no duplicates, `flag` defaulting to true, each policy's own rules.
 */
export function normalizePolicyList(raw: readonly Record<string, unknown>[], path: string): { value: PolicySettings[]; issues: ErrorIssue[] } {
  const issues: ErrorIssue[] = [];
  const seen = new Set<string>();
  const value: PolicySettings[] = [];
  raw.forEach((entry, index) => {
    const at = `${path}/${index}`;
    const id = entry.id as string;
    const registeredPolicy = findPolicy(id);
    if (!registeredPolicy) {
      issues.push({
        message: `Unknown policy "${id}". Known policies: ${policyIds().join(', ')}, ${GUIDELINE_ID}, wordlist_<wordlist key or id>`,
        path: `${at}/id`,
      });
      return;
    }
    const settings = { ...entry, id, flag: entry.flag === undefined ? true : (entry.flag as boolean) } as PolicySettings;
    const found = registeredPolicy.validate?.(settings, at) ?? [];
    const allowed = registeredPolicy.settingNames;
    if (allowed) for (const name of Object.keys(entry)) if (!allowed.has(name)) found.push({ message: `Unknown setting "${name}" for policy "${id}"`, path: `${at}/${name}` });
    issues.push(...found);
    if (found.length > 0) return;
    // Several guidelines share the id "guideline"; each is told apart by its guidelineKey.
    const resultId = resultIdOf(settings);
    if (seen.has(resultId)) {
      issues.push({ message: `Policy "${resultId}" is listed twice`, path: id === GUIDELINE_ID ? `${at}/guidelineKey` : `${at}/id` });
      return;
    }
    seen.add(resultId);
    value.push(settings);
  });
  return { value, issues };
}
