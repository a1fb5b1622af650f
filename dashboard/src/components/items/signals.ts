import type { UnicodeSignal } from './types.ts';

/** Each signal has a colour (CSS class sig-<id>) and always a text label: colour is never alone. */
export const SIGNALS: Record<UnicodeSignal, { name: string; tag: string; explain: string }> = {
  mixed_script: { name: 'Mixed scripts', tag: 'mixed', explain: 'letters of different alphabets in one word' },
  confusable_word: { name: 'Lookalike word', tag: 'lookalike', explain: 'a word spelled with lookalike characters' },
  invisible: { name: 'Invisible character', tag: 'invisible', explain: 'zero-width or hidden characters inside a word' },
  zalgo: { name: 'Zalgo marks', tag: 'zalgo', explain: 'stacked combining marks' },
  illegal: { name: 'Control character', tag: 'control', explain: 'control characters that never occur in real text' },
};

export const signalName = (id: string) => SIGNALS[id as UnicodeSignal]?.name ?? id.replace(/_/g, ' ');

const REASONS: Record<string, string> = {
  severity_reject: 'Severity above the reject threshold',
  severity_review: 'Severity above the review threshold',
  author_block: 'The author is blocked',
  trusted_allow: 'The author is trusted',
  untrusted_severity: 'Untrusted author with raised severity',
  dry_run: 'Dry run: the rule would have acted',
  rule_match: 'A content rule matched',
};
export const reasonText = (code: string) => REASONS[code] ?? code.replace(/_/g, ' ');
