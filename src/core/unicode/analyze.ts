/**
 * Word-by-word Unicode spoofing analysis and the matching normalizer.
 *
 * Pure and synchronous. A first pass tokenizes and summarizes every word with table
 * lookups only; words that carry nothing suspicious cost no allocation. A second pass
 * judges the few suspect words against the message's context (which script dominates,
 * whether CJK text is present) and rewrites only the words that are disguised.
 */
import {
  EMPTY_SET,
  F,
  FLAGS,
  LATIN_SCRIPT,
  LOOKALIKE,
  RESTRICTED_FOLD,
  RGI_FLAGS,
  SCRIPT_SET_OF,
  SCRIPTS,
  STYLED_FOLD,
  intersectSets,
  primaryScriptName,
  scriptSetHasCjkCombo,
  scriptSetHasLatin,
  scriptSetMembers,
  scriptSetSize,
} from './tables.ts';
import { isLookalikeSpoofWord } from './words.ts';
import type { Highlight, UnicodeAnalysis, UnicodeSignal, WordFinding } from './types.ts';

// ASCII fast path: 0 = separator, 1 = word character, 2 = needs the full analysis.
const ASCII_KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  ASCII_KIND[c] = alnum ? 1 : c < 32 && c !== 9 && c !== 10 && c !== 13 ? 2 : c === 127 ? 2 : 0;
}

const ZALGO_GENERIC_PER_BASE = 3;
const ZALGO_ANY_PER_BASE = 5;

const S_MIXED = 1;
const S_CONFUSABLE = 2;
const S_INVISIBLE = 4;
const S_ZALGO = 8;
const S_ILLEGAL = 16;

/** Summary of a word that may need judging; words without suspicion never get one. */
interface Suspect {
  start: number;
  end: number;
  /** Signals already certain from the word alone. */
  bits: number;
  wordSet: number;
  styledStrong: number;
  styledWeak: number;
  fullwidthLetters: number;
  letterLike: number;
  hasRegionalIndicator: boolean;
  wholeScriptLookalike: boolean;
  denselyMarked: boolean;
  /** Letters in total, plain ASCII ones, and UTS #39 Restricted Latin ones with an ASCII skeleton (ɑ, ﬁ). */
  letters: number;
  asciiLetters: number;
  restrictedLatin: number;
}

function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

function isLoneSurrogate(cp: number): boolean {
  return cp >= 0xd800 && cp <= 0xdfff;
}

/** Where the stretch of invisible code points that ends at UTF-16 index i starts: after the visible one before it, or 0. */
function invisibleStretchStart(text: string, i: number): number {
  let j = i;
  while (j > 0) {
    let k = j - 1;
    const c = text.charCodeAt(k);
    if (c >= 0xdc00 && c <= 0xdfff && k > 0) {
      const h = text.charCodeAt(k - 1);
      if (h >= 0xd800 && h <= 0xdbff) k--;
    }
    const cp = codePointAt(text, k);
    if (!(FLAGS[cp]! & F.INVISIBLE)) return j;
    j = k;
  }
  return 0;
}

function previousCodePoint(text: string, i: number): number {
  if (i <= 0) return -1;
  let k = i - 1;
  const c = text.charCodeAt(k);
  if (c >= 0xdc00 && c <= 0xdfff && k > 0) {
    const h = text.charCodeAt(k - 1);
    if (h >= 0xd800 && h <= 0xdbff) k--;
  }
  return codePointAt(text, k);
}

/** The first UTF-16 index at or after i whose code point is visible; the text's length when there is none. */
function invisibleStretchEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length) {
    const cp = codePointAt(text, j);
    if (!(FLAGS[cp]! & F.INVISIBLE)) return j;
    j += cp > 0xffff ? 2 : 1;
  }
  return j;
}

/**
 * What invisibleIsLegitimate needs of the text around an invisible character, kept for one analysis. It is asked
 * about every invisible character of a word in turn, and the visible characters on either side, or the emoji tag
 * sequence, are the same for every character of one stretch of invisible ones: the answers for the stretch asked
 * about last are kept, so that each stretch is walked once (walking it again for each of its characters was
 * quadratic: 100,000 ZWJs between two emoji took 110 s, tag characters after a black flag 11 s).
 */
class InvisibleContext {
  /** The stretch [from, to) of invisible code points asked about last, and the visible code points around it (-1: none). */
  private from = 0;
  private to = 0;
  previous = -1;
  next = -1;
  /** inEmojiTagSequence's last answer, for positions from tagFrom to tagTo at an even distance from tagFrom. */
  private tagFrom = -1;
  private tagTo = -1;
  private tagAnswer = false;

  constructor(
    readonly text: string,
    /** Paired bidi controls (balancedBidiControls), or null when the text has none. */
    readonly bidi: Set<number> | null,
  ) {}

  /** Sets `previous` and `next` for the code point at i: the visible code points before it and after it (-1: none). */
  visibleAround(i: number): void {
    if (i >= this.from && i < this.to) return;
    const text = this.text;
    const cp = codePointAt(text, i);
    const start = invisibleStretchStart(text, i);
    const end = invisibleStretchEnd(text, i + (cp > 0xffff ? 2 : 1));
    this.previous = start > 0 ? previousCodePoint(text, start) : -1;
    this.next = end < text.length ? codePointAt(text, end) : -1;
    // Kept for the other characters of the stretch, when i is one of them.
    const invisible = (FLAGS[cp]! & F.INVISIBLE) !== 0;
    this.from = invisible ? start : 0;
    this.to = invisible ? end : 0;
  }

  /** An emoji tag sequence around the tag character at i: black flag, tag characters, CANCEL TAG. */
  inEmojiTagSequence(i: number): boolean {
    if (i >= this.tagFrom && i <= this.tagTo && (i - this.tagFrom) % 2 === 0) return this.tagAnswer;
    const text = this.text;
    let j = i;
    while (j >= 2) {
      const cp = codePointAt(text, j - 2);
      if (cp >= 0xe0020 && cp <= 0xe007f) j -= 2;
      else break;
    }
    const base = previousCodePoint(text, j);
    const emojiBase = base >= 0 && (FLAGS[base]! & F.EXT_PICT) !== 0;
    // Up to the CANCEL TAG or the first character that is no tag: the same for every position on the way.
    let k = i;
    let cancelled = false;
    while (k < text.length) {
      const cp = codePointAt(text, k);
      if (cp === 0xe007f) cancelled = true;
      if (cp < 0xe0020 || cp > 0xe007e) break;
      k += 2;
    }
    this.tagFrom = i;
    this.tagTo = k;
    this.tagAnswer = emojiBase && cancelled;
    return this.tagAnswer;
  }
}

function isSimpleLetter(cp: number): boolean {
  if (cp < 0) return false;
  const flags = FLAGS[cp]!;
  return (flags & F.LETTER) !== 0 && (flags & F.COMPLEX_SCRIPT) === 0;
}

function nearComplexScript(prev: number, next: number): boolean {
  return (prev >= 0 && (FLAGS[prev]! & F.COMPLEX_SCRIPT) !== 0) || (next >= 0 && (FLAGS[next]! & F.COMPLEX_SCRIPT) !== 0);
}

function isBidiControl(cp: number): boolean {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

function isAlwaysHidden(cp: number): boolean {
  return (
    (cp >= 0x2061 && cp <= 0x2064) || // invisible math operators
    cp === 0x3164 || cp === 0xffa0 || cp === 0x2800 || // blank fillers
    (cp >= 0x206a && cp <= 0x206f) || // deprecated format characters
    (cp >= 0xfff9 && cp <= 0xfffb) || // interlinear annotation
    (cp >= 0x1d173 && cp <= 0x1d17a) || // musical formatting
    (cp >= 0xe0000 && cp <= 0xe0fff && !(cp >= 0xe0100 && cp <= 0xe01ef)) // tags outside emoji sequences, unassigned ignorables
  );
}

function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180d) || cp === 0x180f;
}

/**
 * Positions of bidi embedding/isolate controls that are properly paired within their
 * paragraph; those are legitimate formatting. Overrides are never legitimate in chat text.
 */
function balancedBidiControls(text: string): Set<number> {
  const balanced = new Set<number>();
  const stack: Array<{ index: number; isolate: boolean }> = [];
  let rightToLeft: Int32Array | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2029) {
      stack.length = 0;
      continue;
    }
    if (c === 0x2066 || c === 0x2067 || c === 0x2068) stack.push({ index: i, isolate: true });
    else if (c === 0x202a || c === 0x202b) stack.push({ index: i, isolate: false });
    else if (c === 0x2069 || c === 0x202c) {
      const isolate = c === 0x2069;
      const top = stack[stack.length - 1];
      if (top && top.isolate === isolate) {
        stack.pop();
        if (wrapsLegitimately(text, top.index, i, (rightToLeft ??= rightToLeftBefore(text)))) {
          balanced.add(top.index);
          balanced.add(i);
        }
      }
    }
  }
  return balanced;
}

/**
 * Per UTF-16 index k, how many units before k start right-to-left or complex-script content: what a pair wraps is
 * then told in constant time, where reading it again for each pair was quadratic in nested pairs (50,000 isolates
 * opened and closed: 6.5 s).
 */
function rightToLeftBefore(text: string): Int32Array {
  const counts = new Int32Array(text.length + 1);
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    counts[k + 1] = counts[k]! + (c >= 0x590 && FLAGS[codePointAt(text, k)]! & (F.RTL | F.COMPLEX_SCRIPT) ? 1 : 0);
  }
  return counts;
}

/**
 * A paired isolate/embedding is formatting when it wraps right-to-left or complex-script
 * content, or wraps whole words; a pair hidden between two letters of one word is not.
 */
function wrapsLegitimately(text: string, open: number, close: number, rightToLeft: Int32Array): boolean {
  if (rightToLeft[close]! - rightToLeft[open + 1]! > 0) return true;
  return !isSimpleLetter(previousCodePoint(text, open)) && !isSimpleLetter(close + 1 < text.length ? codePointAt(text, close + 1) : -1);
}

/**
 * Whether an invisible character at UTF-16 index i is doing a legitimate job there. `asLatin`:
 * the word is a disguised Latin word (its lookalikes fold to Latin), so joiners next to a
 * lookalike from a complex script (Coptic ⲓ, Arabic ﻫ) join nothing.
 */
function invisibleIsLegitimate(text: string, i: number, cp: number, invisibles: InvisibleContext, asLatin = false): boolean {
  if (isBidiControl(cp)) return invisibles.bidi !== null && invisibles.bidi.has(i);
  if (isAlwaysHidden(cp)) return cp >= 0xe0020 && cp <= 0xe007f && invisibles.inEmojiTagSequence(i);
  if (isVariationSelector(cp)) {
    // Emoji presentation, ideographic variants, Mongolian free variation: legitimate after
    // their bases; after an ordinary alphabet letter a selector does nothing visible.
    const base = previousCodePoint(text, i);
    if (base < 0) return false;
    const flags = FLAGS[base]!;
    if (flags & (F.WHITESPACE | F.INVISIBLE)) return false;
    return !isSimpleLetter(base) || (flags & F.EMOJI) !== 0;
  }
  invisibles.visibleAround(i);
  const prev = invisibles.previous;
  const next = invisibles.next;
  switch (cp) {
    case 0x200d: {
      const prevFlags = prev >= 0 ? FLAGS[prev]! : 0;
      if (prevFlags & (F.EXT_PICT | F.EMOJI_MODIFIER) && next >= 0 && FLAGS[next]! & F.EXT_PICT) return true;
      return !asLatin && nearComplexScript(prev, next);
    }
    case 0x200e:
    case 0x200f:
    case 0x061c:
      // Direction marks matter next to right-to-left text, digits and punctuation,
      // never between two letters of a left-to-right alphabet.
      return !(isSimpleLetter(prev) && isSimpleLetter(next));
    case 0xfeff:
      if (i === 0) return true;
      return !asLatin && nearComplexScript(prev, next);
    default:
      return !asLatin && nearComplexScript(prev, next);
  }
}

function fold(cp: number): number {
  return STYLED_FOLD.get(cp) ?? cp;
}

function isFullwidthLatinLetter(cp: number): boolean {
  return (cp >= 0xff21 && cp <= 0xff3a) || (cp >= 0xff41 && cp <= 0xff5a);
}

/** Regional indicators inside a word: true when some are used as letters rather than as flag pairs. */
function regionalIndicatorsSpellLetters(text: string, start: number, end: number): { letters: number; flags: number } {
  let letters = 0;
  let flags = 0;
  let i = start;
  while (i < end) {
    let cp = codePointAt(text, i);
    if (!(FLAGS[cp]! & F.REGIONAL_INDICATOR)) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    let run = '';
    while (i < end && FLAGS[(cp = codePointAt(text, i))]! & F.REGIONAL_INDICATOR) {
      run += String.fromCharCode(cp - 0x1f1e6 + 65);
      i += 2;
    }
    let allFlags = run.length % 2 === 0;
    for (let k = 0; allFlags && k < run.length; k += 2) if (!RGI_FLAGS.has(run.slice(k, k + 2))) allFlags = false;
    // One flag is a flag; a run of flags spelling an English word ("🇫🇷🇪🇪") is styled text.
    let repeated = true;
    for (let k = 2; repeated && k < run.length; k += 2) if (run.slice(k, k + 2) !== run.slice(0, 2)) repeated = false;
    if (allFlags && (repeated || !isLookalikeSpoofWord(run))) flags += run.length;
    else letters += run.length;
  }
  return { letters, flags };
}

interface Context {
  latinWords: number;
  foreignWords: number;
  hasCjk: boolean;
  hasZalgo: boolean;
  /** Some letter belongs to an extended Latin orthography (Restricted, with a non-ASCII skeleton). */
  extendedLatin: boolean;
}

const SIGNAL_ORDER: Array<[number, UnicodeSignal]> = [
  [S_MIXED, 'mixed_script'],
  [S_CONFUSABLE, 'confusable_word'],
  [S_INVISIBLE, 'invisible'],
  [S_ZALGO, 'zalgo'],
  [S_ILLEGAL, 'illegal'],
];

function emptySignals(): Record<UnicodeSignal, boolean> {
  return { mixed_script: false, confusable_word: false, invisible: false, zalgo: false, illegal: false };
}

function cleanResult(text: string, wordsTotal: number): UnicodeAnalysis {
  return {
    spoofed: false,
    signals: emptySignals(),
    wordsTotal,
    wordsAffected: 0,
    findings: [],
    normalized: text,
    changed: false,
  };
}

export function analyzeUnicode(text: string): UnicodeAnalysis {
  // Fast path: printable ASCII cannot carry any signal; count words and return.
  const length = text.length;
  let words = 0;
  let inWord = false;
  let i = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) break;
    const kind = ASCII_KIND[c]!;
    if (kind === 1) {
      if (!inWord) {
        words++;
        inWord = true;
      }
    } else if (kind === 0) {
      inWord = false;
    } else break;
  }
  if (i === length) return cleanResult(text, words);
  return analyzeFull(text);
}

function analyzeFull(text: string): UnicodeAnalysis {
  const length = text.length;
  const invisibles = new InvisibleContext(text, /[\u202a-\u202e\u2066-\u2069]/.test(text) ? balancedBidiControls(text) : null);
  const suspects: Suspect[] = [];
  const context: Context = { latinWords: 0, foreignWords: 0, hasCjk: false, hasZalgo: false, extendedLatin: false };
  let wordsTotal = 0;

  let i = 0;
  while (i < length) {
    // Skip separators.
    let cp = codePointAt(text, i);
    let flags = FLAGS[cp]!;
    if (flags & F.SEPARATOR && !isLoneSurrogate(cp)) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    // One word: [start, i).
    const start = i;
    wordsTotal++;
    let bits = 0;
    let union = 0;
    let wordSet = -1;
    let nonLatinSet = -1;
    let hasPureLatin = false;
    let letters = 0;
    let latinLetters = 0;
    let lookalikeLetters = 0;
    let styledStrong = 0;
    let styledWeak = 0;
    let fullwidthLetters = 0;
    let styledEmoji = 0;
    let styledEmojiAsText = 0;
    let letterLike = 0;
    let markedLetters = 0;
    let asciiLetters = 0;
    let restrictedLatin = 0;
    let currentMarked = false;
    // Zalgo bookkeeping for the current base character.
    let baseSet = 0;
    let marksOnBase = 0;
    let genericOnBase = 0;
    let baseIsKeycap = false;
    let baseIsLetter = false;
    {
      const before = previousCodePoint(text, i);
      baseSet = before >= 0 ? SCRIPT_SET_OF[before]! : 0;
      baseIsKeycap = before === 0x23 || before === 0x2a || (before >= 0x30 && before <= 0x39);
    }
    while (i < length) {
      cp = codePointAt(text, i);
      flags = FLAGS[cp]!;
      const lone = isLoneSurrogate(cp);
      if (flags & F.SEPARATOR && !lone) break;
      union |= flags;
      if (lone || flags & F.ILLEGAL) {
        bits |= S_ILLEGAL;
      } else if (flags & F.INVISIBLE) {
        if (!(bits & S_INVISIBLE) && !invisibleIsLegitimate(text, i, cp, invisibles)) bits |= S_INVISIBLE;
        // An invisible combining mark (CGJ, a variation selector) inside a stack of marks is one more
        // mark on the base: zalgo generators draw U+034F along with the visible ones.
        if (flags & F.MARK && (flags & F.GENERIC_MARK || marksOnBase > 0)) {
          marksOnBase++;
          genericOnBase++;
          if (genericOnBase >= ZALGO_GENERIC_PER_BASE || marksOnBase >= ZALGO_ANY_PER_BASE) bits |= S_ZALGO;
          if (flags & F.GENERIC_MARK && currentMarked === false && baseIsLetter) {
            currentMarked = true;
            markedLetters++;
          }
        }
      } else if (flags & F.MARK) {
        marksOnBase++;
        if (flags & F.GENERIC_MARK) {
          genericOnBase++;
          if (!(flags & F.ORTHO_MARK) && !(cp === 0x20e3 && baseIsKeycap)) bits |= S_ZALGO;
        } else {
          const markSet = SCRIPT_SET_OF[cp]!;
          // A script's own mark on a letter of another script ("marks of unrelated blocks").
          if (markSet !== 0 && baseSet !== 0 && intersectSets(markSet, baseSet) === EMPTY_SET) bits |= S_ZALGO;
        }
        if (genericOnBase >= ZALGO_GENERIC_PER_BASE || marksOnBase >= ZALGO_ANY_PER_BASE) bits |= S_ZALGO;
        if (flags & F.GENERIC_MARK && currentMarked === false && baseIsLetter) {
          currentMarked = true;
          markedLetters++;
        }
      } else {
        // A new base character.
        currentMarked = false;
        baseIsLetter = (flags & F.LETTER) !== 0;
        marksOnBase = 0;
        genericOnBase = 0;
        baseSet = SCRIPT_SET_OF[cp]!;
        baseIsKeycap = cp === 0x23 || cp === 0x2a || (cp >= 0x30 && cp <= 0x39);
        if (flags & F.STYLED && !(flags & F.STYLED_DIGIT)) {
          letterLike++;
          if (flags & F.EMOJI && !(flags & F.REGIONAL_INDICATOR)) {
            // 🅰️ Ⓜ️ ℹ️ are emoji; they only read as letters among other styled letters.
            styledEmoji++;
            if (text.charCodeAt(i + (cp > 0xffff ? 2 : 1)) !== 0xfe0f) styledEmojiAsText++;
          } else if (flags & F.STYLED_WEAK) styledWeak++;
          else if (isFullwidthLatinLetter(cp)) fullwidthLetters++;
          else styledStrong++;
        }
        if (flags & F.LETTER) {
          if (!(flags & F.STYLED)) letterLike++;
          letters++;
          if (cp < 0x80) asciiLetters++;
          else if (flags & F.RESTRICTED_LATIN) restrictedLatin++;
          else if (flags & F.EXTENDED_LATIN) context.extendedLatin = true;
          if (flags & F.LATIN_LOOKALIKE) lookalikeLetters++;
          if (flags & F.CJK) context.hasCjk = true;
          const set = SCRIPT_SET_OF[cp]!;
          if (set !== 0) {
            wordSet = intersectSets(wordSet, set);
            if (scriptSetHasLatin(set)) {
              latinLetters++;
              if (scriptSetSize(set) === 1) hasPureLatin = true;
              else nonLatinSet = intersectSets(nonLatinSet, set);
            } else {
              nonLatinSet = intersectSets(nonLatinSet, set);
            }
          }
        }
      }
      i += cp > 0xffff ? 2 : 1;
    }
    const end = i;

    let mixed = false;
    if (wordSet === EMPTY_SET) {
      const cjkWithLatin = hasPureLatin && nonLatinSet >= 0 && nonLatinSet !== EMPTY_SET && scriptSetHasCjkCombo(nonLatinSet);
      mixed = !cjkWithLatin;
    }
    if (mixed) bits |= S_MIXED;
    if (styledEmojiAsText > 0 && styledEmoji + styledStrong + styledWeak + fullwidthLetters >= 2) styledStrong += styledEmojiAsText;
    const styledAny = styledStrong + styledWeak + fullwidthLetters > 0 || (union & F.REGIONAL_INDICATOR) !== 0;
    // Every letter carrying a generic combining mark: zalgo when the message has zalgo elsewhere.
    const denselyMarked = letters > 0 && markedLetters === letters && (union & F.GENERIC_MARK) !== 0;
    // A lone letter is a symbol or an abbreviation (α-helix, γ-rays, vitamin С, π): never a disguised word.
    const wholeScriptLookalike =
      !mixed && letters > 1 && lookalikeLetters === letters && wordSet >= 0 && !scriptSetHasLatin(wordSet);

    // Context: which alphabet the message is written in.
    if (letters > 0) {
      // A mixed word counts as Latin when all of it reads as Latin (that is what normalization makes of it).
      if (mixed ? latinLetters + lookalikeLetters === letters : scriptSetHasLatin(wordSet) || wordSet < 0) context.latinWords++;
      else if (!wholeScriptLookalike && !(letters === 1 && lookalikeLetters === 1)) context.foreignWords++;
    } else if (styledAny) {
      context.latinWords++;
    }

    if (bits & S_ZALGO) context.hasZalgo = true;
    if (bits !== 0 || styledAny || wholeScriptLookalike || denselyMarked || restrictedLatin > 0) {
      suspects.push({
        start,
        end,
        bits,
        wordSet,
        styledStrong,
        styledWeak,
        fullwidthLetters,
        letterLike,
        hasRegionalIndicator: (union & F.REGIONAL_INDICATOR) !== 0,
        wholeScriptLookalike,
        denselyMarked,
        letters,
        asciiLetters,
        restrictedLatin,
      });
    }
  }

  if (suspects.length === 0) return cleanResult(text, wordsTotal);
  return judge(text, suspects, context, wordsTotal, invisibles);
}

function judge(
  text: string,
  suspects: Suspect[],
  context: Context,
  wordsTotal: number,
  invisibles: InvisibleContext,
): UnicodeAnalysis {
  const latinContext = context.latinWords > context.foreignWords;
  const standalone = context.latinWords === 0 && context.foreignWords === 0;
  const signals = emptySignals();
  const findings: WordFinding[] = [];
  const pieces: string[] = [];
  let copiedUpTo = 0;

  for (const suspect of suspects) {
    let bits = suspect.bits;
    const { start, end } = suspect;
    // Styled Latin: decide whether the fancy letters are styling or ordinary text.
    let styled = false;
    let regionalLetters = false;
    if (suspect.styledStrong + suspect.styledWeak + suspect.fullwidthLetters > 0 || suspect.hasRegionalIndicator) {
      let strong = suspect.styledStrong;
      if (suspect.hasRegionalIndicator) {
        const ri = regionalIndicatorsSpellLetters(text, start, end);
        strong -= ri.letters + ri.flags;
        if (ri.letters > 0) {
          strong += ri.letters;
          regionalLetters = true;
        }
      }
      if (!context.hasCjk) strong += suspect.fullwidthLetters;
      styled = strong > 0 || (suspect.styledWeak > 0 && suspect.styledWeak * 2 > suspect.letterLike);
      if (styled) bits |= S_CONFUSABLE;
    }
    if (suspect.denselyMarked && context.hasZalgo) bits |= S_ZALGO;
    if (suspect.wholeScriptLookalike) {
      const looks = lookalikeString(text, start, end, 'Latin');
      // In English text a lowercase or shouted lookalike word is a spoof; a capitalized one may be a
      // foreign name (Вера), so it must spell a real word. Alone, only a real word is convincing.
      const nameLike = looks !== null && looks.length > 1 && /^[A-Z][a-z]+$/.test(looks);
      if (looks !== null && ((latinContext && !nameLike) || ((latinContext || standalone) && isLookalikeSpoofWord(looks)))) {
        bits |= S_CONFUSABLE;
      }
    }
    if (suspect.restrictedLatin > 0 && !(bits & S_MIXED) && restrictedLatinSpoof(text, suspect, context)) bits |= S_CONFUSABLE;
    if (bits === 0) continue;

    let target = 'Latin';
    if (bits & S_MIXED) {
      // A word that reads entirely as Latin is aimed at Latin readers unless the message is clearly foreign.
      const readsAsLatin = lookalikeOrLatin(text, start, end);
      target = readsAsLatin && (latinContext || standalone) ? 'Latin' : mixedTargetScript(text, start, end, latinContext);
      // In foreign text a word still reads as Latin when the context's alphabet cannot spell it (Uѕе in Russian: no Cyrillic U).
      if (readsAsLatin && target !== 'Latin' && !spellableIn(text, start, end, target)) target = 'Latin';
      // Mixing only deceives when a letter poses as one of the word's own alphabet
      // (a Latin ŋ inside an Adlam word reads as what it is).
      if (!hasLookalikeInto(text, start, end, target)) bits &= ~S_MIXED;
    }
    if (bits === 0) continue;
    const asLatin = (bits & (S_MIXED | S_CONFUSABLE)) !== 0 && target === 'Latin';
    if (asLatin && !(bits & S_INVISIBLE) && hasHiddenInvisible(text, start, end, invisibles)) bits |= S_INVISIBLE;
    const rewritten = rewriteWord(text, start, end, bits, target, styled, regionalLetters, context.hasCjk, invisibles, asLatin);
    const word = text.slice(start, end);
    const finding: WordFinding = {
      word,
      offset: start,
      signals: SIGNAL_ORDER.filter(([bit]) => bits & bit).map(([, name]) => name),
      scripts: wordScripts(text, start, end),
      looksLike: rewritten,
      codePoints: Array.from(word, (ch) => 'U+' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')),
      highlights: highlightsFor(text, start, end, bits, target, invisibles, asLatin),
    };
    findings.push(finding);
    for (const name of finding.signals) signals[name] = true;
    if (rewritten !== word) {
      pieces.push(text.slice(copiedUpTo, start), rewritten);
      copiedUpTo = end;
    }
  }

  if (findings.length === 0) return cleanResult(text, wordsTotal);
  let normalized = text;
  if (pieces.length > 0) {
    pieces.push(text.slice(copiedUpTo));
    normalized = pieces.join('');
  }
  return {
    spoofed: true,
    signals,
    wordsTotal,
    wordsAffected: findings.length,
    findings,
    normalized,
    changed: normalized !== text,
  };
}

/**
 * A Latin word written with UTS #39 Restricted letters whose skeleton is ASCII (pɑypal, ﬁrst): a
 * lookalike when every other letter is plain ASCII and there is at least one, or when the ASCII
 * spelling is a word abusers disguise. Text written in an extended Latin orthography (other
 * Restricted letters such as ʔ or saltillo elsewhere in the message) uses such letters as letters.
 */
function restrictedLatinSpoof(text: string, suspect: Suspect, context: Context): boolean {
  if (context.extendedLatin || suspect.letters < 2 || suspect.asciiLetters + suspect.restrictedLatin !== suspect.letters) return false;
  if (suspect.asciiLetters > 0) return true;
  let ascii = '';
  for (let i = suspect.start; i < suspect.end; ) {
    const cp = codePointAt(text, i);
    i += cp > 0xffff ? 2 : 1;
    ascii += RESTRICTED_FOLD.get(cp) ?? '';
  }
  return isLookalikeSpoofWord(ascii.toLowerCase());
}

/** Every letter of the word belongs to `target` or has a lookalike in it. */
function spellableIn(text: string, start: number, end: number, target: string): boolean {
  const table = LOOKALIKE[target];
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    i += cp > 0xffff ? 2 : 1;
    if (FLAGS[cp]! & F.LETTER && !inScript(cp, target) && !table?.has(cp)) return false;
  }
  return true;
}

/** An invisible character of a disguised Latin word that only passed as legitimate next to a complex-script lookalike. */
function hasHiddenInvisible(text: string, start: number, end: number, invisibles: InvisibleContext): boolean {
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    if (FLAGS[cp]! & F.INVISIBLE && !invisibleIsLegitimate(text, i, cp, invisibles, true)) return true;
    i += cp > 0xffff ? 2 : 1;
  }
  return false;
}

/** The word spelled with lookalikes from `target`, or null when some letter has none. */
function lookalikeString(text: string, start: number, end: number, target: string): string | null {
  const table = LOOKALIKE[target];
  if (!table) return null;
  let out = '';
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    i += cp > 0xffff ? 2 : 1;
    if (FLAGS[cp]! & F.LETTER) {
      const mapped = table.get(cp);
      if (mapped === undefined) return null;
      out += String.fromCodePoint(mapped);
    }
  }
  return out;
}

function hasLookalikeInto(text: string, start: number, end: number, target: string): boolean {
  const table = LOOKALIKE[target];
  if (!table) return false;
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    i += cp > 0xffff ? 2 : 1;
    if (FLAGS[cp]! & F.LETTER && !inScript(cp, target) && table.has(cp)) return true;
  }
  return false;
}

function lookalikeOrLatin(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    i += cp > 0xffff ? 2 : 1;
    const flags = FLAGS[cp]!;
    if (!(flags & F.LETTER) || flags & F.LATIN_LOOKALIKE) continue;
    if (!scriptSetHasLatin(SCRIPT_SET_OF[cp]!)) return false;
  }
  return true;
}

function mixedTargetScript(text: string, start: number, end: number, latinContext: boolean): string {
  const counts = new Map<number, number>();
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    i += cp > 0xffff ? 2 : 1;
    if (!(FLAGS[cp]! & F.LETTER)) continue;
    for (const script of scriptSetMembers(SCRIPT_SET_OF[cp]!)) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let best = LATIN_SCRIPT;
  let bestCount = -1;
  for (const [script, count] of counts) {
    const better = count > bestCount || (count === bestCount && script === LATIN_SCRIPT && latinContext);
    if (better) {
      best = script;
      bestCount = count;
    }
  }
  return SCRIPTS[best]!;
}

function inScript(cp: number, script: string): boolean {
  for (const member of scriptSetMembers(SCRIPT_SET_OF[cp]!)) if (SCRIPTS[member] === script) return true;
  return false;
}

function rewriteWord(
  text: string,
  start: number,
  end: number,
  bits: number,
  target: string,
  styled: boolean,
  regionalLetters: boolean,
  hasCjk: boolean,
  invisibles: InvisibleContext,
  asLatin: boolean,
): string {
  const table = LOOKALIKE[target];
  let out = '';
  let baseSet = 0;
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    const width = cp > 0xffff ? 2 : 1;
    const flags = FLAGS[cp]!;
    const at = i;
    i += width;
    if (isLoneSurrogate(cp) || flags & F.ILLEGAL) continue;
    // A zalgo stack goes whole, invisible marks in it (CGJ, variation selectors on marks) included.
    if (bits & S_ZALGO && flags & F.MARK && flags & F.INVISIBLE && (flags & F.GENERIC_MARK || FLAGS[previousCodePoint(text, at)]! & F.MARK)) continue;
    if (flags & F.INVISIBLE) {
      if (bits & S_INVISIBLE && !invisibleIsLegitimate(text, at, cp, invisibles, asLatin)) continue;
      out += String.fromCodePoint(cp);
      continue;
    }
    if (flags & F.MARK) {
      if (bits & S_ZALGO) {
        if (flags & F.GENERIC_MARK) continue;
        const markSet = SCRIPT_SET_OF[cp]!;
        if (markSet !== 0 && baseSet !== 0 && intersectSets(markSet, baseSet) === EMPTY_SET) continue;
      }
      out += String.fromCodePoint(cp);
      continue;
    }
    baseSet = SCRIPT_SET_OF[cp]!;
    if (styled && flags & F.STYLED) {
      const isRegional = (flags & F.REGIONAL_INDICATOR) !== 0;
      const emojiPresentation = (flags & F.EMOJI) !== 0 && !isRegional && text.charCodeAt(i) === 0xfe0f;
      const keep = (isRegional && !regionalLetters) || (isFullwidthLatinLetter(cp) && hasCjk) || emojiPresentation;
      if (!keep) {
        out += String.fromCodePoint(fold(cp));
        continue;
      }
    }
    if (bits & (S_MIXED | S_CONFUSABLE) && target === 'Latin' && flags & F.RESTRICTED_LATIN) {
      out += RESTRICTED_FOLD.get(cp)!;
      continue;
    }
    if (bits & (S_MIXED | S_CONFUSABLE) && table && flags & F.LETTER && !inScript(cp, target)) {
      const mapped = table.get(cp);
      if (mapped !== undefined) {
        out += String.fromCodePoint(mapped);
        continue;
      }
    }
    out += String.fromCodePoint(cp);
  }
  return out;
}

function wordScripts(text: string, start: number, end: number): string[] {
  const names: string[] = [];
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    i += cp > 0xffff ? 2 : 1;
    const flags = FLAGS[cp]!;
    if (!(flags & (F.LETTER | F.STYLED))) continue;
    const name = primaryScriptName(cp);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function highlightsFor(
  text: string,
  start: number,
  end: number,
  bits: number,
  target: string,
  invisibles: InvisibleContext,
  asLatin: boolean,
): Highlight[] {
  const highlights: Highlight[] = [];
  for (let i = start; i < end; ) {
    const cp = codePointAt(text, i);
    const width = cp > 0xffff ? 2 : 1;
    const flags = FLAGS[cp]!;
    if (bits & S_INVISIBLE && flags & F.INVISIBLE && !invisibleIsLegitimate(text, i, cp, invisibles, asLatin)) {
      // The hidden character plus one character on each side, so a reviewer can see where it sits.
      const before = previousCodePoint(text, i);
      const hlStart = before < 0 ? i : i - (before > 0xffff ? 2 : 1);
      let hlEnd = i + width;
      if (hlEnd < text.length) hlEnd += codePointAt(text, hlEnd) > 0xffff ? 2 : 1;
      highlights.push({ start: hlStart, end: hlEnd, signal: 'invisible' });
    } else if (bits & S_ILLEGAL && (flags & F.ILLEGAL || isLoneSurrogate(cp))) {
      highlights.push({ start: i, end: i + width, signal: 'illegal' });
    } else if (bits & S_MIXED && flags & F.LETTER && SCRIPT_SET_OF[cp]! !== 0 && !inScript(cp, target)) {
      highlights.push({ start: i, end: i + width, signal: 'mixed_script' });
    }
    i += width;
  }
  if (bits & S_CONFUSABLE) highlights.push({ start, end, signal: 'confusable_word' });
  if (bits & S_ZALGO) highlights.push({ start, end, signal: 'zalgo' });
  return highlights;
}
