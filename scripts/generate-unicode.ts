/**
 * Builds the compact Unicode tables the spoofing analyzer uses at run time.
 *
 *   npm run generate:unicode [-- --out DIR] [-- --version X.Y.Z]
 *
 * Inputs (build time only): the pinned UTS #39 files in ../shared/unicode-security/<version>/
 * (relative to the repository root) and the pinned @unicode/unicode-<version> package.
 * Output: src/core/unicode/generated/tables.ts, stamped with the Unicode version and
 * the SHA-256 of every source, so the runtime never depends on Node's ICU or the network.
 */
import { createHash } from 'node:crypto';
import { F } from '../src/core/unicode/flags.ts';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DEFAULT_VERSION = '17.0.0';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const version = argument('version') ?? DEFAULT_VERSION;
const outDir = resolve(argument('out') ?? join(repoRoot, 'src/core/unicode/generated'));
const securityDir = resolve(argument('security') ?? join(repoRoot, '..', 'shared', 'unicode-security', version));
const packageName = `@unicode/unicode-${version}`;
const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve(`${packageName}/package.json`));

const MAX_CP = 0x110000;

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

const sourceHashes: Record<string, string> = {};
const packageFileHashes: string[] = [];

async function load<T>(relative: string): Promise<T> {
  const file = join(packageDir, relative);
  packageFileHashes.push(`${relative} ${sha256(readFileSync(file))}`);
  const module = (await import(pathToFileURL(file).href)) as { default: T };
  return module.default;
}

async function codePoints(relative: string): Promise<number[]> {
  return load<number[]>(`${relative}/code-points.mjs`);
}

function readSecurityFile(name: string): string {
  const file = join(securityDir, name);
  if (!existsSync(file)) throw new Error(`missing ${file}: put the UTS #39 files for ${version} there`);
  const text = readFileSync(file, 'utf8');
  sourceHashes[`unicode-security/${version}/${name}`] = sha256(text);
  return text;
}

// ---------------------------------------------------------------------------
// Per-code-point property flags, shared with the runtime.

const flags = new Uint32Array(MAX_CP);
function setFlag(list: Iterable<number>, flag: number): void {
  for (const cp of list) flags[cp]! |= flag;
}
function setRange(start: number, end: number, flag: number): void {
  for (let cp = start; cp <= end; cp++) flags[cp]! |= flag;
}

// Alphabets that write words with spaces and never need joiners or zero-width spaces.
const SIMPLE_SCRIPTS = new Set(['Latin', 'Greek', 'Cyrillic', 'Armenian', 'Georgian', 'Cherokee', 'Common', 'Inherited', 'Unknown']);
const CJK_SCRIPTS = new Set(['Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo']);
// Combining blocks whose marks attach to any script; zalgo generators draw from these.
const GENERIC_MARK_BLOCKS: Array<[number, number]> = [
  [0x0300, 0x036f],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x20d0, 0x20ff],
  [0xfe20, 0xfe2f],
];
// Generic marks that real orthographies use although no precomposed letter contains them
// (Pe̍h-ōe-jī dot above right and vertical line above, syllabic and tone marks below, tie bars,
// the stroke and solidus overlays of barred vowels in Otomanguean orthographies).
const EXTRA_ORTHOGRAPHIC_MARKS = [0x0335, 0x0338, 0x030d, 0x0329, 0x0358, 0x0361, 0x035c, 0x0332, 0x0310, 0x0304, 0x0331];

// Brand and service names that phishing impersonates most; absent from general word lists.
const BRAND_NAMES = [
  'paypal', 'google', 'gmail', 'youtube', 'amazon', 'apple', 'icloud', 'microsoft', 'outlook', 'office',
  'netflix', 'facebook', 'instagram', 'whatsapp', 'telegram', 'discord', 'steam', 'twitter', 'tiktok',
  'snapchat', 'linkedin', 'spotify', 'ebay', 'visa', 'mastercard', 'coinbase', 'binance', 'bitcoin',
  'ethereum', 'metamask', 'dropbox', 'docusign', 'dhl', 'fedex', 'ups', 'usps', 'chase', 'wellsfargo',
  'citibank', 'hsbc', 'revolut', 'venmo', 'cashapp', 'zelle', 'roblox', 'epicgames', 'xbox', 'playstation',
];

async function main(): Promise<void> {
  const pkgJson = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };

  // --- General categories -------------------------------------------------
  const gc = async (name: string) => codePoints(`General_Category/${name}`);
  setFlag(await gc('Letter'), F.LETTER);
  setFlag(await gc('Uppercase_Letter'), F.UPPER);
  setFlag(await gc('Titlecase_Letter'), F.UPPER);
  setFlag(await gc('Nonspacing_Mark'), F.MARK);
  setFlag(await gc('Enclosing_Mark'), F.MARK);
  setFlag(await gc('Spacing_Mark'), F.SPACING_MARK);
  setFlag(await gc('Number'), F.NUMBER);
  setFlag(await gc('Punctuation'), F.SEPARATOR);
  const whiteSpace = await codePoints('Binary_Property/White_Space');
  setFlag(whiteSpace, F.SEPARATOR | F.WHITESPACE);
  // ASCII symbols separate words; other symbols (emoji, enclosed letters) stay inside them.
  for (let cp = 0x20; cp < 0x7f; cp++) {
    const isAlnum = (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
    if (!isAlnum) flags[cp]! |= F.SEPARATOR;
  }
  const pcm = new Set(await codePoints('Binary_Property/Prepended_Concatenation_Mark'));
  const invisible = [
    ...(await codePoints('Binary_Property/Default_Ignorable_Code_Point')),
    ...(await gc('Format')),
    0x2800, // braille pattern blank renders as empty space
  ].filter((cp) => !pcm.has(cp));
  setFlag(invisible, F.INVISIBLE);
  // Illegal: C0 except TAB/LF/CR, DEL, C1, noncharacters. Lone surrogates are found while scanning.
  for (let cp = 0; cp < 0x20; cp++) if (cp !== 9 && cp !== 10 && cp !== 13) flags[cp]! |= F.ILLEGAL;
  setRange(0x7f, 0x9f, F.ILLEGAL);
  setFlag(await codePoints('Binary_Property/Noncharacter_Code_Point'), F.ILLEGAL);
  for (let cp = 0; cp < MAX_CP; cp++) {
    // Controls and invisibles never split a word: a hidden character between letters must stay visible to analysis.
    if (flags[cp]! & (F.ILLEGAL | F.INVISIBLE)) flags[cp]! &= ~(F.SEPARATOR | F.WHITESPACE);
  }
  // Keep ordinary line structure as separators although they are controls in some lists.
  for (const cp of [0x09, 0x0a, 0x0d, 0x20]) flags[cp]! |= F.SEPARATOR | F.WHITESPACE;

  setFlag(await codePoints('Binary_Property/Extended_Pictographic'), F.EXT_PICT);
  setFlag(await codePoints('Binary_Property/Emoji'), F.EMOJI);
  setFlag(await codePoints('Binary_Property/Regional_Indicator'), F.REGIONAL_INDICATOR);
  setFlag(await codePoints('Binary_Property/Emoji_Modifier'), F.EMOJI_MODIFIER);
  setFlag(await codePoints('Bidi_Class/Right_To_Left'), F.RTL);
  setFlag(await codePoints('Bidi_Class/Arabic_Letter'), F.RTL);

  // --- Scripts (Script_Extensions), with the UTS #39 CJK augmentation --------
  const scriptNames: string[] = JSON.parse(
    JSON.stringify((await import('node:fs')).readdirSync(join(packageDir, 'Script_Extensions')).filter((n) => !n.includes('.'))),
  );
  const realScripts = scriptNames.filter((n) => n !== 'Common' && n !== 'Inherited' && n !== 'Unknown').sort();
  const SCRIPTS = ['', ...realScripts, 'Jpan', 'Kore', 'Hanb'];
  const scriptIndex = new Map(SCRIPTS.map((name, index) => [name, index]));
  const perCp: Array<number[] | undefined> = new Array(MAX_CP);
  for (const name of realScripts) {
    const index = scriptIndex.get(name)!;
    for (const cp of await codePoints(`Script_Extensions/${name}`)) {
      (perCp[cp] ??= []).push(index);
      if (!SIMPLE_SCRIPTS.has(name)) flags[cp]! |= F.COMPLEX_SCRIPT;
      if (CJK_SCRIPTS.has(name) && flags[cp]! & F.LETTER) flags[cp]! |= F.CJK;
    }
  }
  const augment: Record<string, string[]> = {
    Han: ['Jpan', 'Kore', 'Hanb'],
    Hiragana: ['Jpan'],
    Katakana: ['Jpan'],
    Hangul: ['Kore'],
    Bopomofo: ['Hanb'],
  };
  const setIds = new Map<string, number>([['', 0]]);
  const SCRIPT_SETS: number[][] = [[]];
  const scriptSetOf = new Uint16Array(MAX_CP);
  for (let cp = 0; cp < MAX_CP; cp++) {
    const list = perCp[cp];
    if (!list) continue;
    const full = new Set(list);
    for (const index of list) for (const extra of augment[SCRIPTS[index]!] ?? []) full.add(scriptIndex.get(extra)!);
    const sorted = [...full].sort((a, b) => a - b);
    const key = sorted.join(' ');
    let id = setIds.get(key);
    if (id === undefined) {
      id = SCRIPT_SETS.length;
      setIds.set(key, id);
      SCRIPT_SETS.push(sorted);
    }
    scriptSetOf[cp] = id;
  }

  // --- Marks: generic blocks and the ones real orthographies use -----------------
  for (const [start, end] of GENERIC_MARK_BLOCKS) {
    for (let cp = start; cp <= end; cp++) if (flags[cp]! & F.MARK) flags[cp]! |= F.GENERIC_MARK;
  }
  const canonical = await load<Map<number, number[]>>('Decomposition_Mapping/Canonical/code-points.mjs');
  const fullCanonical = (cp: number): number[] => {
    const mapped = canonical.get(cp);
    return mapped ? mapped.flatMap(fullCanonical) : [cp];
  };
  for (const [cp] of canonical) {
    if (!(flags[cp]! & F.LETTER)) continue;
    for (const part of fullCanonical(cp)) if (flags[part]! & F.MARK) flags[part]! |= F.ORTHO_MARK;
  }
  for (const cp of EXTRA_ORTHOGRAPHIC_MARKS) flags[cp]! |= F.ORTHO_MARK;

  // --- Styled Latin: compatibility decompositions and character names ------------
  const names = await load<Map<number, string>>('Names/index.mjs');
  const styledFold = new Map<number, number>();
  const isAsciiAlnum = (cp: number) => (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  const strongTags = ['Font', 'Wide', 'Circle', 'Square', 'Compat'];
  const weakTags = ['Super', 'Sub'];
  const weak = new Set<number>();
  for (const tag of [...strongTags, ...weakTags]) {
    const map = await load<Map<number, number[]>>(`Decomposition_Mapping/${tag}/code-points.mjs`);
    for (const [cp, target] of map) {
      // Parenthesized and full-stop forms carry punctuation around one letter or digit.
      const core = target.filter((t) => t !== 0x28 && t !== 0x29 && t !== 0x2e);
      if (core.length !== 1 || !isAsciiAlnum(core[0]!)) continue;
      if (tag === 'Compat' && core.length === target.length) continue; // ligatures and the like
      styledFold.set(cp, core[0]!);
      if (weakTags.includes(tag)) weak.add(cp);
    }
  }
  const namePatterns: Array<[RegExp, 'upper' | 'lower', boolean]> = [
    [/^NEGATIVE (?:SQUARED|CIRCLED) LATIN CAPITAL LETTER ([A-Z])$/, 'upper', false],
    [/^SQUARED LATIN CAPITAL LETTER ([A-Z])$/, 'upper', false],
    [/^REGIONAL INDICATOR SYMBOL LETTER ([A-Z])$/, 'upper', false],
    [/^LATIN LETTER SMALL CAPITAL ([A-Z])$/, 'lower', true],
    [/^LATIN CAPITAL LETTER SMALL CAPITAL ([A-Z])$/, 'lower', true],
    [/^MODIFIER LETTER (?:SMALL|CAPITAL) ([A-Z])$/, 'lower', true],
    [/^LATIN SUBSCRIPT SMALL LETTER ([A-Z])$/, 'lower', true],
  ];
  for (const [cp, name] of names) {
    if (styledFold.has(cp)) continue;
    for (const [pattern, letterCase, isWeak] of namePatterns) {
      const match = pattern.exec(name);
      if (!match) continue;
      const letter = match[1]!;
      const capital = name.startsWith('MODIFIER LETTER CAPITAL');
      const target = letterCase === 'upper' || capital ? letter : letter.toLowerCase();
      styledFold.set(cp, target.charCodeAt(0));
      if (isWeak) weak.add(cp);
      break;
    }
  }
  // Ordinal indicators are ordinary Spanish/Portuguese/Italian spelling, not styling.
  styledFold.delete(0xaa);
  styledFold.delete(0xba);
  for (const [cp, target] of styledFold) {
    flags[cp]! |= weak.has(cp) ? F.STYLED | F.STYLED_WEAK : F.STYLED;
    // Styled digits (fullwidth, circled, superscript) are ordinary in CJK text, units and lists.
    if (target >= 0x30 && target <= 0x39) flags[cp]! |= F.STYLED_DIGIT;
  }

  // --- Lookalikes (UTS #39 confusables + intentional), across Latin, Cyrillic, Greek -----
  const confusableText = readSecurityFile('confusables.txt');
  const intentionalText = readSecurityFile('intentional.txt');
  const identifierStatusText = readSecurityFile('IdentifierStatus.txt');
  readSecurityFile('IdentifierType.txt');
  // The file lists the Allowed ranges; every other code point is Restricted.
  const identifierAllowed = new Set<number>();
  for (const line of identifierStatusText.split('\n')) {
    const [range, status] = line.split('#')[0]!.split(';').map((part) => part.trim());
    if (!range || status !== 'Allowed') continue;
    const [from, to] = range.split('..').map((hex) => parseInt(hex, 16));
    for (let cp = from!; cp <= (to ?? from)!; cp++) identifierAllowed.add(cp);
  }
  const prototype = new Map<number, number[]>();
  for (const line of confusableText.split('\n')) {
    const body = line.split('#')[0]!.trim();
    if (!body) continue;
    const [source, target] = body.split(';').map((part) => part.trim());
    prototype.set(parseInt(source!, 16), target!.split(/\s+/).map((hex) => parseInt(hex, 16)));
  }
  const skeleton = (cp: number): string => String.fromCodePoint(...(prototype.get(cp) ?? [cp]));
  // Intentional pairs are identical by design: give both the same skeleton.
  const intentionalPairs: Array<[number, number]> = [];
  for (const line of intentionalText.split('\n')) {
    const body = line.split('#')[0]!.trim();
    if (!body) continue;
    const [a, b] = body.split(';').map((part) => parseInt(part.trim(), 16));
    intentionalPairs.push([a!, b!]);
  }
  const scriptsOf = (cp: number): string[] => (SCRIPT_SETS[scriptSetOf[cp]!] ?? []).map((i) => SCRIPTS[i]!);
  const letterCandidates: number[] = [];
  for (let cp = 0; cp < MAX_CP; cp++) if (flags[cp]! & F.LETTER) letterCandidates.push(cp);
  const bySkeleton = new Map<string, number[]>();
  for (const cp of letterCandidates) {
    const key = skeleton(cp);
    let bucket = bySkeleton.get(key);
    if (!bucket) bySkeleton.set(key, (bucket = []));
    bucket.push(cp);
  }
  const sameLook = (cp: number): number[] => {
    const result = new Set(bySkeleton.get(skeleton(cp)) ?? []);
    for (const [a, b] of intentionalPairs) {
      if (a === cp) result.add(b);
      if (b === cp) result.add(a);
    }
    result.delete(cp);
    return [...result];
  };
  const isUpper = (cp: number) => (flags[cp]! & F.UPPER) !== 0;
  const LOOKALIKE_TARGETS = ['Latin', 'Cyrillic', 'Greek'];
  const lookalikes: Record<string, Array<[number, number]>> = {};
  for (const target of LOOKALIKE_TARGETS) {
    const pairs: Array<[number, number]> = [];
    for (const cp of letterCandidates) {
      const own = scriptsOf(cp);
      if (own.length !== 1 || own[0] === target) continue;
      // Any alphabet can disguise Latin (Cherokee, Lisu, Armenian...); the reverse maps only between the big three.
      if (target !== 'Latin' && !LOOKALIKE_TARGETS.includes(own[0]!)) continue;
      if (styledFold.has(cp)) continue;
      const options = sameLook(cp).filter((other) => {
        const scripts = scriptsOf(other);
        return scripts.length === 1 && scripts[0] === target && !styledFold.has(other);
      });
      if (options.length === 0) continue;
      // Prefer the same letter case, then plain (ASCII / basic block) letters.
      options.sort((a, b) => {
        const caseA = isUpper(a) === isUpper(cp) ? 0 : 1;
        const caseB = isUpper(b) === isUpper(cp) ? 0 : 1;
        if (caseA !== caseB) return caseA - caseB;
        const asciiA = a < 0x80 ? 0 : 1;
        const asciiB = b < 0x80 ? 0 : 1;
        if (asciiA !== asciiB) return asciiA - asciiB;
        return a - b;
      });
      const best = options[0]!;
      if (isUpper(best) !== isUpper(cp)) continue; // a lookalike of the other case is not what a reader sees
      if (target === 'Latin' && best >= 0x80) continue; // only letters that read as plain English letters
      pairs.push([cp, best]);
      if (target === 'Latin') flags[cp]! |= F.LATIN_LOOKALIKE;
    }
    lookalikes[target] = pairs;
  }

  // --- Restricted and extended Latin letters (UTS #39 Identifier_Status) --------------
  // Inside Latin, Restricted letters whose skeleton is plain ASCII letters (IPA ɑ → a,
  // ligature ﬁ → fi) pose as ordinary letters. Letters beyond Latin Extended-A that are not
  // a base letter with diacritics (ɛ ɔ ɓ ɨ ʔ, saltillo, and ŋ) belong to extended orthographies
  // (African, Mayan, Americas): the analyzer takes one as a sign that the text is written in
  // such an orthography, where IPA-like letters such as ɑ are ordinary letters.
  const isAsciiLetter = (cp: number) => (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  const restrictedLatinFold: Array<[number, string]> = [];
  for (const cp of letterCandidates) {
    if (cp < 0x80 || styledFold.has(cp)) continue;
    const own = scriptsOf(cp);
    if (own.length !== 1 || own[0] !== 'Latin') continue;
    const proto = prototype.get(cp);
    if (!identifierAllowed.has(cp) && proto && proto.every(isAsciiLetter) && proto.length <= 3) {
      flags[cp]! |= F.RESTRICTED_LATIN;
      restrictedLatinFold.push([cp, String.fromCodePoint(...proto)]);
    } else if ((cp >= 0x180 || cp === 0x14a || cp === 0x14b) && !canonical.has(cp)) {
      flags[cp]! |= F.EXTENDED_LATIN;
    }
  }

  // --- Emoji flags (regional indicator pairs) --------------------------------
  const flagSequences = await load<string[]>('Sequence_Property/RGI_Emoji_Flag_Sequence/index.mjs');
  const flagCodes = flagSequences
    .map((sequence) => [...sequence].map((ch) => String.fromCharCode(ch.codePointAt(0)! - 0x1f1e6 + 65)).join(''))
    .sort();

  // --- English words that lookalike letters can spell --------------------------------
  // Only words a Cyrillic or Greek lookalike (or a run of flag-forming regional indicators)
  // can spell are kept, so the list stays small.
  const reachableLower = new Set<string>();
  const reachableUpper = new Set<string>();
  for (const [source, target] of lookalikes.Latin!) {
    const script = scriptsOf(source)[0];
    if (script !== 'Cyrillic' && script !== 'Greek') continue;
    const letter = String.fromCharCode(target);
    (letter === letter.toLowerCase() ? reachableLower : reachableUpper).add(letter.toLowerCase());
  }
  const flagCodeSet = new Set(flagCodes.map((code) => code.toLowerCase()));
  // The package exports only the path of its word file.
  const wordListFile = ((await import('word-list')) as { default: string }).default;
  const wordListText = readFileSync(wordListFile, 'utf8');
  sourceHashes['word-list/words.txt'] = sha256(wordListText);
  const spellable = (word: string, letters: Set<string>) => [...word].every((ch) => letters.has(ch));
  const spellsFlags = (word: string) => {
    if (word.length % 2 !== 0) return false;
    for (let k = 0; k < word.length; k += 2) if (!flagCodeSet.has(word.slice(k, k + 2))) return false;
    return true;
  };
  // General word lists leave out profanity, which is exactly what abusers disguise.
  const profanityFile = resolve(argument('profanity') ?? join(repoRoot, '..', 'shared', 'datasets', 'surge-profanity', 'profanity_en.csv'));
  const profanityText = readFileSync(profanityFile, 'utf8');
  sourceHashes['datasets/surge-profanity/profanity_en.csv'] = sha256(profanityText);
  const profanity = profanityText
    .split('\n')
    .slice(1)
    .flatMap((line) => line.split(',').slice(0, 4))
    .map((term) => term.trim().toLowerCase());
  const dictionary = new Set<string>(BRAND_NAMES);
  for (const word of [...wordListText.split('\n'), ...profanity]) {
    if (!/^[a-z]{2,12}$/.test(word)) continue;
    if (spellable(word, reachableLower) || spellable(word, reachableUpper) || spellsFlags(word)) dictionary.add(word);
  }
  // Front coding: shared-prefix length (one base-36 digit) + suffix.
  const sortedWords = [...dictionary].sort();
  let previousWord = '';
  const frontCoded = sortedWords.map((word) => {
    let shared = 0;
    while (shared < 35 && shared < word.length && shared < previousWord.length && word[shared] === previousWord[shared]) shared++;
    previousWord = word;
    return shared.toString(36) + word.slice(shared);
  });

  // --- Encode ----------------------------------------------------------------------
  const runs = (values: ArrayLike<number>): string => {
    const out: number[] = [];
    let start = 0;
    for (let cp = 1; cp <= MAX_CP; cp++) {
      if (cp === MAX_CP || values[cp] !== values[start]) {
        out.push(cp - start, values[start]!);
        start = cp;
      }
    }
    return out.map((n) => n.toString(36)).join(',');
  };
  const pairRuns = (pairs: Array<[number, number]>): string => {
    // [source, target] sorted; consecutive sources mapping to consecutive targets collapse into one run.
    const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
    const out: number[] = [];
    let previousSource = 0;
    for (let i = 0; i < sorted.length; ) {
      const [source, target] = sorted[i]!;
      let length = 1;
      while (
        i + length < sorted.length &&
        sorted[i + length]![0] === source + length &&
        sorted[i + length]![1] === target + length
      ) {
        length++;
      }
      out.push(source - previousSource, length, target);
      previousSource = source;
      i += length;
    }
    return out.map((n) => n.toString(36)).join(',');
  };

  const header = `// GENERATED by scripts/generate-unicode.ts (npm run generate:unicode). Do not edit by hand.\n`;
  // One digest over every package file read, so the stamp stays short.
  sourceHashes[`${packageName}@${pkgJson.version} (${packageFileHashes.length} files)`] = sha256(packageFileHashes.sort().join('\n'));
  const sortedHashes = Object.fromEntries(Object.entries(sourceHashes).sort(([a], [b]) => a.localeCompare(b)));
  const body = [
    header,
    `export const UNICODE_VERSION = ${JSON.stringify(version)};`,
    `export const SOURCE_PACKAGE = ${JSON.stringify(`${packageName}@${pkgJson.version}`)};`,
    `export const SOURCE_HASHES: Readonly<Record<string, string>> = ${JSON.stringify(sortedHashes, null, 1)};`,
    `/** Script names; index 0 means "no specific script" (Common, Inherited, Unknown). */`,
    `export const SCRIPTS: readonly string[] = ${JSON.stringify(SCRIPTS)};`,
    `/** Script_Extensions sets (with Jpan/Kore/Hanb augmentation) as lists of SCRIPTS indices. */`,
    `export const SCRIPT_SETS: readonly (readonly number[])[] = ${JSON.stringify(SCRIPT_SETS)};`,
    `/** Run-length code point -> SCRIPT_SETS index: base-36 "length,value" pairs from U+0000. */`,
    `export const SCRIPT_SET_RUNS = ${JSON.stringify(runs(scriptSetOf))};`,
    `/** Run-length code point -> property flags (see tables.ts), same encoding. */`,
    `export const FLAG_RUNS = ${JSON.stringify(runs(flags))};`,
    `/** Styled Latin folds: base-36 "sourceDelta,length,target" runs. */`,
    `export const STYLED_FOLD_RUNS = ${JSON.stringify(pairRuns([...styledFold]))};`,
    `/** Single-letter lookalikes into each target script, same encoding. */`,
    `export const LOOKALIKE_RUNS: Readonly<Record<string, string>> = ${JSON.stringify(
      Object.fromEntries(LOOKALIKE_TARGETS.map((t) => [t, pairRuns(lookalikes[t]!)])),
      null,
      1,
    )};`,
    `/** Restricted Latin letters with an ASCII skeleton: "code point (base 36):skeleton" entries. */`,
    `export const RESTRICTED_LATIN_FOLD = ${JSON.stringify(restrictedLatinFold.map(([cp, ascii]) => `${cp.toString(36)}:${ascii}`).join(' '))};`,
    `/** Front-coded English words (and commonly impersonated brand names) that lookalikes can spell. */`,
    `export const LOOKALIKE_WORDS = ${JSON.stringify(frontCoded.join(' '))};`,
    `/** Regional indicator pairs that form RGI flag emoji. */`,
    `export const FLAG_CODES = ${JSON.stringify(flagCodes.join(' '))};`,
    '',
  ].join('\n');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'tables.ts'), body);
  console.log(`wrote ${join(outDir, 'tables.ts')} (${(body.length / 1024).toFixed(1)} KiB) for Unicode ${version}`);
}

await main();
