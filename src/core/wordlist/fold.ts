/**
 * Character folding for wordlist matching: case, accents and compatibility
 * forms (NFKD: fullwidth, mathematical alphanumerics, ligatures), Cyrillic and
 * Greek letters that look like Latin ones, and invisible characters.
 */

/** Cyrillic and Greek letters drawn like a Latin letter, folded to that letter. */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', ӏ: 'l', ь: 'b', п: 'n', г: 'r', и: 'u', ц: 'u',
  А: 'a', В: 'b', Е: 'e', Ё: 'e', К: 'k', М: 'm', Н: 'h', О: 'o', Р: 'p', С: 'c', Т: 't', У: 'y', Х: 'x',
  Ѕ: 's', І: 'i', Ј: 'j', Ӏ: 'l',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
  ω: 'w', ς: 's', σ: 'o', μ: 'u',
  Α: 'a', Β: 'b', Ε: 'e', Ζ: 'z', Η: 'h', Ι: 'i', Κ: 'k', Μ: 'm', Ν: 'n', Ο: 'o', Ρ: 'p', Τ: 't', Υ: 'y',
  Χ: 'x',
};

/** Zero-width and formatting characters that hide inside words. */
const INVISIBLE = new Set([0x00ad, 0x034f, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff]);

const COMBINING_MARK = /\p{M}/u;
const LETTER = /\p{L}/u;
const cache = new Map<number, string>();

/**
 * Folds one code point to lowercase base letters. Returns '' for characters
 * that vanish inside a word (combining marks, zero-width), the folded text for
 * letters and digits, or null for anything else (spaces, punctuation, symbols).
 */
export function foldCodePoint(codePoint: number): string | null {
  if (codePoint < 0x80) {
    if (codePoint >= 0x61 && codePoint <= 0x7a) return String.fromCharCode(codePoint);
    if (codePoint >= 0x41 && codePoint <= 0x5a) return String.fromCharCode(codePoint + 32);
    if (codePoint >= 0x30 && codePoint <= 0x39) return String.fromCharCode(codePoint);
    return null;
  }
  const cached = cache.get(codePoint);
  if (cached !== undefined) return cached === '\u0000' ? null : cached;
  const folded = foldUncached(codePoint);
  cache.set(codePoint, folded ?? '\u0000');
  return folded;
}

function foldUncached(codePoint: number): string | null {
  if (INVISIBLE.has(codePoint)) return '';
  const char = String.fromCodePoint(codePoint);
  if (COMBINING_MARK.test(char)) return '';
  const homoglyph = HOMOGLYPHS[char];
  if (homoglyph) return homoglyph;
  let result = '';
  for (const part of char.normalize('NFKD')) {
    if (COMBINING_MARK.test(part)) continue;
    const mapped = HOMOGLYPHS[part];
    if (mapped) result += mapped;
    else if (/[A-Za-z0-9]/.test(part)) result += part.toLowerCase();
    else if (LETTER.test(part)) result += part.toLowerCase();
    else return null;
  }
  return result.length > 0 ? result : null;
}

/** Leetspeak digits inside a word with letters; '1' is ambiguous, so callers try both 'i' and 'l'. */
export const LEET_DIGITS: Record<string, string> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };
export const LEET_SYMBOLS: Record<string, string> = { '@': 'a', $: 's', '!': 'i', '|': 'l', '€': 'e', '£': 'l' };
