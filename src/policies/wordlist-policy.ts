/**
 * One policy per wordlist: `wordlist_<key>` (or `wordlist_<id>` for a list
 * without a key). The list itself is loaded by the pipeline from the
 * project's compiled wordlists, so the policy stays free of I/O.
 *
 * Settings beyond {id, flag, threshold}:
 * - `mode`: 'blocklist' (default) flags content containing a listed word;
 *   'allowlist' never flags, it reports the allowed spans in `data.allowed`.
 * - `match`: 'exact' (default), 'stem' or 'similar' (see the matcher).
 * `threshold` (default 0.8) is the match probability needed to flag, and for
 * 'similar' also the similarity bound: edit distance ≤ 1 − threshold.
 */
import type { EntityMatch, Policy, PolicySettings } from '../core/policy.ts';
import type { CompiledWordlist, WordlistMode } from '../core/wordlist/matcher.ts';
import type { ErrorIssue } from '../errors.ts';

export const WORDLIST_POLICY_PREFIX = 'wordlist_';
const DEFAULT_THRESHOLD = 0.8;
const MODES = ['blocklist', 'allowlist'] as const;
const MATCHES: readonly WordlistMode[] = ['exact', 'stem', 'similar'];
const KNOWN_SETTINGS = new Set(['id', 'flag', 'threshold', 'mode', 'match']);

export const isWordlistPolicyId = (id: string) => id.startsWith(WORDLIST_POLICY_PREFIX) && id.length > WORDLIST_POLICY_PREFIX.length;
export const wordlistRefOf = (policyId: string) => policyId.slice(WORDLIST_POLICY_PREFIX.length);

export function validateWordlistSettings(settings: PolicySettings, path: string): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  if (settings.mode !== undefined && !MODES.includes(settings.mode as (typeof MODES)[number])) {
    issues.push({ message: `mode must be one of ${MODES.join(', ')}`, path: `${path}/mode` });
  }
  if (settings.match !== undefined && !MATCHES.includes(settings.match as WordlistMode)) {
    issues.push({ message: `match must be one of ${MATCHES.join(', ')}`, path: `${path}/match` });
  }
  for (const key of Object.keys(settings)) if (!KNOWN_SETTINGS.has(key)) issues.push({ message: `Unknown wordlist setting "${key}"`, path: `${path}/${key}` });
  return issues;
}

interface AllowedSpan {
  field: string | null;
  word: string;
  match: string;
  span: [number, number];
}

/**
 * `load` yields the project's compiled list (null when it has none by that
 * reference); it is called at most once per request.
 */
export function createWordlistPolicy(id: string, load: () => Promise<CompiledWordlist | null>): Policy {
  let loaded: Promise<CompiledWordlist | null> | undefined;
  const wordlist = async () => {
    loaded ??= load();
    const list = await loaded;
    if (!list) throw new Error(`Wordlist "${wordlistRefOf(id)}" does not exist in this project (policy "${id}")`);
    return list;
  };
  return {
    id,
    type: 'entity_matcher',
    severity: 0.5,
    defaultThreshold: DEFAULT_THRESHOLD,
    async evaluate(text, settings, ctx) {
      const list = await wordlist();
      const threshold = settings.threshold ?? DEFAULT_THRESHOLD;
      const found = list.match(text, (settings.match as WordlistMode | undefined) ?? 'exact', Math.max(0, 1 - threshold));
      if (settings.mode === 'allowlist') {
        const allowed: AllowedSpan[] = found.map((m) => ({ field: ctx.fieldKey, word: m.word, match: m.match, span: m.span }));
        return { probability: 0, flagged: false, data: { mode: 'allowlist', allowed } };
      }
      const matches: EntityMatch[] = found.map((m) => ({ match: m.match, probability: m.probability, span: m.span }));
      const probability = found.reduce((max, m) => Math.max(max, m.probability), 0);
      return { probability, matches, data: { mode: 'blocklist', words: [...new Set(found.map((m) => m.word))] } };
    },
    mergeData(perField) {
      const present = perField.filter((d): d is Record<string, unknown> => d !== undefined);
      if (present.length === 0) return undefined;
      if (present[0]!.mode === 'allowlist') return { mode: 'allowlist', allowed: present.flatMap((d) => d.allowed as AllowedSpan[]) };
      return { mode: 'blocklist', words: [...new Set(present.flatMap((d) => d.words as string[]))] };
    },
  };
}
