export type UnicodeSignal = 'mixed_script' | 'confusable_word' | 'invisible' | 'zalgo' | 'illegal';

export const UNICODE_SIGNALS: readonly UnicodeSignal[] = Object.freeze([
  'mixed_script',
  'confusable_word',
  'invisible',
  'zalgo',
  'illegal',
] as const);

export interface Highlight {
  start: number;
  end: number;
  signal: UnicodeSignal;
}

export interface WordFinding {
  word: string;
  /** UTF-16 offset of the word in the original text. */
  offset: number;
  signals: UnicodeSignal[];
  scripts: string[];
  /** The word as the normalizer rewrites it. */
  looksLike: string;
  /** Every code point of the word as 'U+XXXX'. */
  codePoints: string[];
  highlights: Highlight[];
}

export interface UnicodeAnalysis {
  spoofed: boolean;
  signals: Record<UnicodeSignal, boolean>;
  wordsTotal: number;
  wordsAffected: number;
  findings: WordFinding[];
  normalized: string;
  changed: boolean;
}
