import type { Policy, PolicySettings } from '../core/policy.ts';
import type { ErrorIssue } from '../errors.ts';
import { classifierPolicies } from '../core/classifiers/index.ts';
import { parseEntitySettings, piiPolicy, urlPolicy } from '../core/entities/index.ts';
import { parseUnicodeSettings, unicodeSpoofingPolicy } from '../core/unicode/policy.ts';

/**
 * Every built-in policy, by id. Adding a policy means adding it here; the
 * pipeline, channel validation and the OpenAPI document read this table.
 */
export interface RegisteredPolicy {
  policy: Policy;
  /** Checks the policy's own settings beyond {id, flag, threshold}. */
  validate?(settings: PolicySettings, path: string): ErrorIssue[];
}

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
  ...classifierPolicies.map((policy) => ({ policy })),
  { policy: piiPolicy, validate: parsedWith((raw) => parseEntitySettings('pii', raw)) },
  { policy: urlPolicy, validate: parsedWith((raw) => parseEntitySettings('url', raw)) },
  { policy: unicodeSpoofingPolicy, validate: parsedWith(parseUnicodeSettings) },
];

const byId = new Map(registered.map((entry) => [entry.policy.id, entry]));

export function findPolicy(id: string): RegisteredPolicy | undefined {
  return byId.get(id);
}

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
    const registeredPolicy = byId.get(id);
    if (!registeredPolicy) {
      issues.push({ message: `Unknown policy "${id}". Known policies: ${policyIds().join(', ')}`, path: `${at}/id` });
      return;
    }
    if (seen.has(id)) {
      issues.push({ message: `Policy "${id}" is listed twice`, path: `${at}/id` });
      return;
    }
    seen.add(id);
    const settings = { ...entry, id, flag: entry.flag === undefined ? true : (entry.flag as boolean) } as PolicySettings;
    issues.push(...(registeredPolicy.validate?.(settings, at) ?? []));
    value.push(settings);
  });
  return { value, issues };
}
