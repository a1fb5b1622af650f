import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { innocentAt, TextWords, wordAround } from '../classifiers/profanity-senses.ts';
import type { FieldResult, Policy } from '../policy.ts';

const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

/**
 * Obscenity's English matcher sees through spellings a trained model has
 * rarely met ("fuuuuckin", "bullsh!t", styled letters) while keeping word
 * boundaries ("Scunthorpe", "assessment"). One distinct term scores 0.8, each
 * further one 0.1 more; a word meant innocently here ("Dick Hollis", profanity-senses.ts) does not count.
 */
export function obscenityScore(text: string): number {
  if (text.length === 0) return 0;
  const found = matcher.getAllMatches(text);
  if (found.length === 0) return 0;
  const words = new TextWords(text);
  const around = found.length === 1 ? (start: number, end: number) => wordAround(text, start, end) : wordsAround(text);
  // One answer per word: the matches inside one word ask the same question (a word of 100,000 letters holds 25,000).
  const innocent = new Map<number, boolean>();
  const matches = found.filter((m) => {
    const word = around(m.startIndex, m.endIndex);
    const key = word.start * (text.length + 1) + word.end;
    let answer = innocent.get(key);
    if (answer === undefined) innocent.set(key, (answer = innocentAt(text, word.start, word.end, words)));
    return !answer;
  });
  if (matches.length === 0) return 0;
  const distinct = new Set(matches.map((m) => m.termId)).size;
  return Math.min(1, 0.8 + 0.1 * (distinct - 1));
}

/** What profanity-senses.ts's wordAround counts as part of a word, one UTF-16 unit at a time. */
const WORD_UNIT = /[\p{L}\p{M}\p{N}'’]/u;

/**
 * wordAround for every match of one text: the word runs are found in one pass, where wordAround read the whole word
 * again for each match in it ("fuuuck" repeated over 100,000 characters has 16,666 matches in one word: 26 s).
 */
function wordsAround(text: string): (start: number, end: number) => { start: number; end: number } {
  // runStart[i]: where the run of word units ending just before i starts (i itself when text[i - 1] is none);
  // runEnd[i]: where the run of word units starting at i ends (i itself when text[i] is none).
  const runStart = new Int32Array(text.length + 1);
  const runEnd = new Int32Array(text.length + 1);
  const inWord = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    inWord[i] = c < 128 ? ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 39 ? 1 : 0) : WORD_UNIT.test(text[i]!) ? 1 : 0;
  }
  for (let i = 0; i <= text.length; i++) runStart[i] = i > 0 && inWord[i - 1] ? runStart[i - 1]! : i;
  for (let i = text.length; i >= 0; i--) runEnd[i] = i < text.length && inWord[i] ? runEnd[i + 1]! : i;
  return (start, end) => ({ start: runStart[start]!, end: runEnd[Math.min(end + 1, text.length)]! });
}

/** Letters of other scripts (look-alikes), combining and invisible characters and astral symbols can disguise a word; punctuation such as ’ « » — cannot. */
const DISGUISING = /[\p{L}\p{M}\p{Cf}\p{Cs}\p{N}]/u;
const mayDisguise = (char: string): boolean => DISGUISING.test(char);
const ASTRAL_LETTER = /[\p{L}\p{N}]/u;

const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7);

/**
 * The matcher is slow next to the model (tens of microseconds for a short
 * message), and on plain ASCII words the model already knows what the matcher
 * knows. So it runs only where a disguise could hide: a character outside
 * ASCII, a run of three identical letters, or a digit or symbol between two
 * letters ("sh1t", "bullsh!t", "a$$").
 */
export function mayHideProfanity(text: string): boolean {
  let previous = -1;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Accented Latin letters are how Spanish, Portuguese, French and German are written, not a disguise: the English
    // matcher run on them found "ass", "cum" and "fu" inside ordinary words of the UDHR (issue #27, training/dev-languages.ts).
    // An emoji is not a disguise (it made the matcher read "cum" in "¡feliz cumple! 🎉"); styled letters such as 𝐟𝐮𝐜𝐤 are.
    if (c >= 0xd800 && c <= 0xdbff) {
      const point = text.codePointAt(i)!;
      if (point > 0xffff && ASTRAL_LETTER.test(String.fromCodePoint(point))) return true;
      i++;
      previous = -1;
      run = 0;
      continue;
    }
    // The ordinal indicators after a number ("4ºB", "1ª planta") are how Spanish and Portuguese write addresses and dates.
    const ordinal = (c === 0xba || c === 0xaa) && i > 0 && text.charCodeAt(i - 1) >= 48 && text.charCodeAt(i - 1) <= 57;
    if (c > 0x7f && !(c >= 0xc0 && c <= 0x24f) && !ordinal && mayDisguise(text[i]!)) return true;
    run = c === previous ? run + 1 : 1;
    if (run >= 3 && isLetter(c)) return true;
    if (!isLetter(c) && c !== 32 && i > 0 && isLetter(previous)) {
      // A non-letter right after a letter: disguising only if letters (or more symbols then a letter) follow.
      let j = i + 1;
      while (j < text.length && j - i < 3 && !isLetter(text.charCodeAt(j)) && text.charCodeAt(j) > 32) j++;
      if (j < text.length && isLetter(text.charCodeAt(j)) && !(c === 39 || c === 45 || c === 46 || c === 44 || c === 47 || c === 58) && !(c > 0x7f && !mayDisguise(text[i]!))) return true;
    }
    previous = c;
  }
  return false;
}

/** The served profanity policy: the trained model, raised to the obscenity matcher's score when that is higher. */
export function withObscenity(model: Policy): Policy {
  return {
    ...model,
    evaluate(text, settings, ctx) {
      const outcome = model.evaluate(text, settings, ctx);
      const lexical = mayHideProfanity(text) ? obscenityScore(text) : 0;
      return outcome instanceof Promise ? outcome.then((result) => raisedTo(lexical, result)) : raisedTo(lexical, outcome);
    },
  };
}

const raisedTo = (lexical: number, result: FieldResult): FieldResult =>
  lexical > result.probability ? { ...result, probability: lexical, data: { ...result.data, lexicon: 'obscenity' } } : result;
