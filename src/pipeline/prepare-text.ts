import type { EntityMatch, PolicySettings } from '../core/policy.ts';
import { analyzeUnicode } from '../core/unicode/index.ts';
import type { UnicodeAnalysis } from '../core/unicode/types.ts';

const UNICODE_POLICY_ID = 'unicode_spoofing';
const UNICODE_ANALYSIS_KEY = 'unicode';

/** One text field on its way through the policies. */
export interface PreparedField {
  key: string | null;
  /** As submitted; the Unicode policy and storage see this. */
  original: string;
  /** What the other policies see: normalized when the channel normalizes, else the original. */
  text: string;
  /** Null when neither normalization nor the Unicode policy asked for an analysis. */
  unicode: UnicodeAnalysis | null;
  analyses: Map<string, unknown>;
  /** Masks requested by entity matchers, over `text`. */
  replacements: EntityMatch[];
}

/**
 * The normalize step. Detection runs once per field when either the channel's
 * normalization or the Unicode policy needs it (the four-way table of the
 * interface); its result is shared with the policy through `analyses`.
 */
export function prepareText(key: string | null, original: string, normalize: boolean, policies: readonly PolicySettings[]): PreparedField {
  const analyses = new Map<string, unknown>();
  const detect = normalize || policies.some((p) => p.id === UNICODE_POLICY_ID);
  const unicode = detect ? analyzeUnicode(original) : null;
  if (unicode) analyses.set(UNICODE_ANALYSIS_KEY, unicode);
  const text = normalize && unicode?.changed ? unicode.normalized : original;
  return { key, original, text, unicode, analyses, replacements: [] };
}
