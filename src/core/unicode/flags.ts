/** Per-code-point property bits: the generator writes them, the analyzer reads them. */
export const F = {
  LETTER: 1 << 0,
  MARK: 1 << 1,
  SPACING_MARK: 1 << 2,
  NUMBER: 1 << 3,
  SEPARATOR: 1 << 4,
  INVISIBLE: 1 << 5,
  ILLEGAL: 1 << 6,
  EXT_PICT: 1 << 7,
  EMOJI: 1 << 8,
  STYLED: 1 << 9,
  STYLED_WEAK: 1 << 10,
  LATIN_LOOKALIKE: 1 << 11,
  RTL: 1 << 12,
  GENERIC_MARK: 1 << 13,
  ORTHO_MARK: 1 << 14,
  COMPLEX_SCRIPT: 1 << 15,
  REGIONAL_INDICATOR: 1 << 16,
  EMOJI_MODIFIER: 1 << 17,
  CJK: 1 << 18,
  WHITESPACE: 1 << 19,
  UPPER: 1 << 20,
  STYLED_DIGIT: 1 << 21,
  /** A Latin letter that UTS #39 restricts and whose skeleton is plain ASCII letters (IPA ɑ, ligature ﬁ). */
  RESTRICTED_LATIN: 1 << 22,
  /** A Latin letter of an extended orthography (ɛ ɔ ɓ ɨ ʔ ŋ, saltillo): beyond Latin Extended-A, not a letter with diacritics. */
  EXTENDED_LATIN: 1 << 23,
} as const;
