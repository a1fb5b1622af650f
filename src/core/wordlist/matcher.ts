/**
 * Wordlist matching that sees through the usual disguises without the
 * Scunthorpe problem.
 *
 * The text becomes a stream of word tokens (folded case, accents, fullwidth
 * and Cyrillic/Greek lookalikes; invisible characters and combining marks
 * dropped). A token matches a list entry only as a whole token, so "ass" never
 * matches inside "class" or "assistant". Each token is tried in a few forms:
 * as written, with leetspeak undone (0→o, 1→i or l, 3→e, 4→a, 5→s, 7→t,
 * @→a, $→s, ...) and with elongations shortened ("freeeee" → "free"/"fre").
 * Letters split by separators ("f.r.e.e", "f r e e", "f-r-e-e") are joined
 * into one extra token, and so are pieces glued by intra-word punctuation
 * ("fr-ee"). Multi-word entries match consecutive tokens.
 *
 * Modes are cumulative:
 * - `exact`: the token (in one of its forms) equals an entry.
 * - `stem`: also the same Porter stem (`stemmer` package): plurals, tenses.
 * - `similar`: also a normalized Damerau-Levenshtein distance (optimal string
 *   alignment: insertions, deletions, substitutions, adjacent transpositions,
 *   divided by the longer length) of at most `threshold` (default 0.2), for
 *   single-word entries and tokens of at least 5 letters. Candidates come from
 *   a symmetric deletion index (every word and every word with one letter
 *   deleted, hashed), so a lookup costs a few hash probes per token instead of
 *   a scan of the list; candidates are then verified with the exact distance.
 *   This finds every entry within one edit, and two-edit neighbours when each
 *   side loses one letter to meet (e.g. a transposition plus nothing else,
 *   or an insertion and a deletion); two independent substitutions are not
 *   searched.
 */
import { stemmer } from 'stemmer';
import { DisjointSpans } from '../../lib/disjoint-spans.ts';
import { foldCodePoint, LEET_DIGITS, LEET_SYMBOLS } from './fold.ts';

export type WordlistMode = 'exact' | 'stem' | 'similar';

export interface WordlistMatch {
  /** The list entry, as it was given. */
  word: string;
  /** The text as written. */
  match: string;
  /** [start, end) in UTF-16 code units of the text. */
  span: [number, number];
  probability: number;
}

export interface CompileOptions {
  /** Build the similarity index now instead of on the first `similar` match. */
  eagerSimilarIndex?: boolean;
}

export interface CompiledWordlist {
  readonly size: number;
  match(text: string, mode: WordlistMode, threshold?: number): WordlistMatch[];
}

const DEFAULT_SIMILAR_THRESHOLD = 0.2;
const MIN_SIMILAR_LENGTH = 5;

interface Token {
  /** Folded text: lowercase letters and digits, symbols kept for leet. */
  raw: string;
  start: number;
  end: number;
  hasLetter: boolean;
  /** Characters between this token and the next one. */
  gapAfter: string;
}

type CharKind = 0 | 1 | 2 | 3; // other, letter, digit, leet symbol

/** Splits text into word tokens with UTF-16 spans. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let raw = '';
  let start = -1;
  let end = -1;
  let hasLetter = false;
  const length = text.length;

  const flush = () => {
    if (start >= 0 && raw.length > 0) {
      const previous = tokens[tokens.length - 1];
      if (previous) previous.gapAfter = text.slice(previous.end, start);
      tokens.push({ raw, start, end, hasLetter, gapAfter: '' });
    }
    raw = '';
    start = -1;
    hasLetter = false;
  };

  let index = 0;
  while (index < length) {
    const codePoint = text.codePointAt(index)!;
    const width = codePoint > 0xffff ? 2 : 1;
    const folded = foldCodePoint(codePoint);
    let kind: CharKind = 0;
    let value = '';
    if (folded !== null) {
      if (folded === '') {
        // Invisible inside a word; between words it is just a gap.
        index += width;
        if (start >= 0) end = index;
        continue;
      }
      value = folded;
      kind = codePoint >= 0x30 && codePoint <= 0x39 ? 2 : 1;
    } else {
      const char = text[index]!;
      if (char in LEET_SYMBOLS) {
        const before = start >= 0;
        const afterCode = index + 1 < length ? text.codePointAt(index + 1)! : 0;
        const after = afterCode !== 0 && foldCodePoint(afterCode) !== null && foldCodePoint(afterCode) !== '';
        // '@' and '$' may open a word ("$hit", "@ss"); '!' and '|' only inside one ("sh!t").
        const opens = char === '@' || char === '$';
        if ((before && after) || (opens && after) || (before && (char === '$') && !after)) {
          kind = 3;
          value = char;
        }
      }
    }
    if (kind === 0) {
      flush();
    } else {
      if (start < 0) start = index;
      raw += value;
      if (kind === 1) hasLetter = true;
      end = index + width;
    }
    index += width;
  }
  flush();
  return tokens;
}

/** The forms a token is looked up in, most literal first. */
function tokenForms(token: Token): string[] {
  const { raw } = token;
  if (!token.hasLetter) return /^[0-9]+$/.test(raw) ? [raw] : [];
  const forms: string[] = [];
  const add = (form: string) => {
    if (!forms.includes(form)) forms.push(form);
  };
  const hasLeet = /[0-9@$!|€£]/.test(raw);
  const bases = hasLeet ? [undoLeet(raw, 'i'), undoLeet(raw, 'l')] : [raw];
  if (hasLeet && /^[a-z0-9]+$/.test(raw)) add(raw);
  for (const base of bases) {
    add(base);
    if (/(.)\1\1/.test(base)) {
      add(base.replace(/(.)\1{2,}/g, '$1$1'));
      add(base.replace(/(.)\1{2,}/g, '$1'));
    }
  }
  return forms;
}

function undoLeet(raw: string, one: 'i' | 'l'): string {
  let result = '';
  for (const char of raw) {
    if (char === '1') result += one;
    else result += LEET_DIGITS[char] ?? LEET_SYMBOLS[char] ?? char;
  }
  return result;
}

/** Entry normalization: the same folding as text, no leet (entries are written plainly). */
function entryTokens(word: string): string[] {
  return tokenize(word).map((token) => token.raw.replace(/[@$!|€£]/g, (symbol) => LEET_SYMBOLS[symbol] ?? symbol));
}

/** 32-bit FNV-1a of `value` with the code unit at `skip` left out (-1: none). */
function hashSkipping(value: string, skip: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < value.length; index++) {
    if (index === skip) continue;
    hash ^= value.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Optimal-string-alignment Damerau-Levenshtein distance, stopping early above `limit`. */
export function damerauLevenshtein(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = a.length + 1;
  const columns = b.length + 1;
  let previousPrevious = new Array<number>(columns).fill(0);
  let previous = Array.from({ length: columns }, (_, column) => column);
  let current = new Array<number>(columns).fill(0);
  for (let row = 1; row < rows; row++) {
    current[0] = row;
    let rowMinimum = row;
    for (let column = 1; column < columns; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let value = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        value = Math.min(value, previousPrevious[column - 2]! + 1);
      }
      current[column] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    [previousPrevious, previous, current] = [previous, current, previousPrevious];
  }
  return previous[columns - 1]!;
}

/** Symmetric-deletion index over hashed keys, in typed arrays to stay compact for 100k-word lists. */
class DeletionIndex {
  private readonly heads: Int32Array;
  private readonly next: Int32Array;
  private readonly hashes: Uint32Array;
  private readonly entries: Int32Array;
  private readonly mask: number;

  constructor(words: Array<{ form: string; entry: number }>) {
    let keyCount = 0;
    for (const { form } of words) keyCount += form.length + 1;
    let size = 1;
    while (size < keyCount * 1.5) size <<= 1;
    this.mask = size - 1;
    this.heads = new Int32Array(size).fill(-1);
    this.next = new Int32Array(keyCount);
    this.hashes = new Uint32Array(keyCount);
    this.entries = new Int32Array(keyCount);
    let slot = 0;
    for (const { form, entry } of words) {
      for (let skip = -1; skip < form.length; skip++) {
        const hash = hashSkipping(form, skip);
        const bucket = hash & this.mask;
        this.hashes[slot] = hash;
        this.entries[slot] = entry;
        this.next[slot] = this.heads[bucket]!;
        this.heads[bucket] = slot;
        slot++;
      }
    }
  }

  collect(form: string, into: Set<number>): void {
    for (let skip = -1; skip < form.length; skip++) {
      const hash = hashSkipping(form, skip);
      for (let slot = this.heads[hash & this.mask]!; slot !== -1; slot = this.next[slot]!) {
        if (this.hashes[slot] === hash) into.add(this.entries[slot]!);
      }
    }
  }
}

interface MultiWordEntry {
  entry: number;
  tokens: string[];
  stems: string[];
}

const stemCache = new Map<string, string>();
function stemOf(form: string): string {
  let stem = stemCache.get(form);
  if (stem === undefined) {
    stem = stemmer(form);
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(form, stem);
  }
  return stem;
}

interface Candidate {
  entry: number;
  start: number;
  end: number;
  probability: number;
  tokenCount: number;
}

export function compileWordlist(words: string[], options: CompileOptions = {}): CompiledWordlist {
  const entries: string[] = [];
  const single = new Map<string, number>();
  const singleStems = new Map<string, number>();
  const multiByFirst = new Map<string, MultiWordEntry[]>();
  const similarForms: Array<{ form: string; entry: number }> = [];

  for (const word of words) {
    const tokens = entryTokens(word);
    if (tokens.length === 0) continue;
    const entry = entries.length;
    if (tokens.length === 1) {
      const [form] = tokens as [string];
      if (single.has(form)) continue;
      entries.push(word);
      single.set(form, entry);
      if (/[a-z]/.test(form)) {
        const stem = stemOf(form);
        if (!singleStems.has(stem)) singleStems.set(stem, entry);
        if (form.length >= MIN_SIMILAR_LENGTH) similarForms.push({ form, entry });
      }
    } else {
      entries.push(word);
      const multi: MultiWordEntry = { entry, tokens, stems: tokens.map(stemOf) };
      const bucket = multiByFirst.get(tokens[0]!);
      if (bucket) bucket.push(multi);
      else multiByFirst.set(tokens[0]!, [multi]);
      const stemBucket = multiByFirst.get(`\u0000${multi.stems[0]}`);
      if (stemBucket) stemBucket.push(multi);
      else multiByFirst.set(`\u0000${multi.stems[0]}`, [multi]);
    }
  }

  const longestSimilarForm = similarForms.reduce((longest, { form }) => Math.max(longest, form.length), 0);
  let similarIndex: DeletionIndex | null = null;
  const similarIndexOf = () => (similarIndex ??= new DeletionIndex(similarForms));
  if (options.eagerSimilarIndex) similarIndexOf();
  const entryForms = new Map<number, string>();
  for (const { form, entry } of similarForms) entryForms.set(entry, form);

  function matchForm(form: string, mode: WordlistMode, threshold: number): { entry: number; probability: number } | null {
    const exact = single.get(form);
    if (exact !== undefined) return { entry: exact, probability: 1 };
    if (mode === 'exact' || !/[a-z]/.test(form)) return null;
    const stemmed = singleStems.get(stemOf(form));
    if (stemmed !== undefined) return { entry: stemmed, probability: 0.9 };
    if (mode !== 'similar' || form.length < MIN_SIMILAR_LENGTH || form.length > longestSimilarForm * 2 || similarForms.length === 0) return null;
    const candidates = new Set<number>();
    similarIndexOf().collect(form, candidates);
    let best: { entry: number; probability: number } | null = null;
    for (const entry of candidates) {
      const entryForm = entryForms.get(entry)!;
      const longer = Math.max(entryForm.length, form.length);
      const limit = Math.floor(threshold * longer + 1e-9);
      if (limit < 1) continue;
      const distance = damerauLevenshtein(form, entryForm, limit);
      if (distance > limit) continue;
      const probability = Math.round((1 - distance / longer) * 1000) / 1000;
      if (!best || probability > best.probability) best = { entry, probability };
    }
    return best;
  }

  function matchToken(forms: string[], mode: WordlistMode, threshold: number): { entry: number; probability: number } | null {
    let best: { entry: number; probability: number } | null = null;
    for (let index = 0; index < forms.length; index++) {
      const found = matchForm(forms[index]!, mode, threshold);
      if (!found) continue;
      // Forms after the first are de-obfuscated readings: slightly less certain.
      const probability = index === 0 ? found.probability : Math.min(found.probability, 0.95);
      if (!best || probability > best.probability) best = { entry: found.entry, probability };
      if (probability === 1) break;
    }
    return best;
  }

  function multiWordAt(tokens: Token[], formsOf: (index: number) => string[], position: number, mode: WordlistMode): Candidate | null {
    if (multiByFirst.size === 0) return null;
    let best: Candidate | null = null;
    for (const form of formsOf(position)) {
      const buckets = [multiByFirst.get(form), mode === 'exact' ? undefined : multiByFirst.get(`\u0000${stemOf(form)}`)];
      for (const bucket of buckets) {
        if (!bucket) continue;
        for (const multi of bucket) {
          if (position + multi.tokens.length > tokens.length) continue;
          let stemmedOnly = false;
          let matches = true;
          for (let offset = 0; offset < multi.tokens.length && matches; offset++) {
            const forms = formsOf(position + offset);
            if (forms.includes(multi.tokens[offset]!)) continue;
            if (mode !== 'exact' && forms.some((candidate) => stemOf(candidate) === multi.stems[offset])) {
              stemmedOnly = true;
              continue;
            }
            matches = false;
          }
          if (!matches) continue;
          if (!best || multi.tokens.length > best.tokenCount) {
            const last = tokens[position + multi.tokens.length - 1]!;
            best = { entry: multi.entry, start: tokens[position]!.start, end: last.end, probability: stemmedOnly ? 0.9 : 1, tokenCount: multi.tokens.length };
          }
        }
      }
    }
    return best;
  }

  return {
    size: entries.length,
    match(text, mode, threshold = DEFAULT_SIMILAR_THRESHOLD) {
      const tokens = tokenize(text);
      if (tokens.length === 0) return [];
      const formCache: Array<string[] | undefined> = new Array(tokens.length);
      const formsOf = (index: number) => (formCache[index] ??= tokenForms(tokens[index]!));
      const candidates: Candidate[] = [];

      for (let position = 0; position < tokens.length; position++) {
        const multi = multiWordAt(tokens, formsOf, position, mode);
        if (multi) candidates.push(multi);
        const found = matchToken(formsOf(position), mode, threshold);
        if (found) {
          const token = tokens[position]!;
          candidates.push({ entry: found.entry, start: token.start, end: token.end, probability: found.probability, tokenCount: 1 });
        }
      }

      for (const group of joinedGroups(tokens)) {
        const found = matchToken(group.forms, mode, threshold);
        if (found) candidates.push({ entry: found.entry, start: group.start, end: group.end, probability: Math.min(found.probability, 0.95), tokenCount: group.count });
      }

      return selectMatches(candidates).map((candidate) => ({
        word: entries[candidate.entry]!,
        match: text.slice(candidate.start, candidate.end),
        span: [candidate.start, candidate.end],
        probability: candidate.probability,
      }));
    },
  };
}

/** Longer runs are not one disguised word; the cap keeps adversarial input linear. */
const MAX_JOINED_TOKENS = 40;
const INTRA_WORD_GAP = /^[.\-_*'’·•~+=:]{1,2}$/;
const SPACED_LETTER_GAP = /^[ \t.\-_*'’·•~+=:/\\|]{1,3}$/;

/**
 * Tokens that are really one word: single letters spread out ("f r e e",
 * "f.r.e.e") and pieces glued by punctuation without spaces ("fr-ee").
 */
interface JoinedGroup {
  forms: string[];
  start: number;
  end: number;
  count: number;
}

function joinedGroups(tokens: Token[]): JoinedGroup[] {
  const groups: JoinedGroup[] = [];
  let index = 0;
  while (index < tokens.length) {
    const first = tokens[index]!;
    let last = index;
    if (first.raw.length === 1) {
      while (last + 1 < tokens.length && last - index < MAX_JOINED_TOKENS && tokens[last + 1]!.raw.length === 1 && SPACED_LETTER_GAP.test(tokens[last]!.gapAfter)) last++;
      if (last - index + 1 >= 3) {
        groups.push(joinGroup(tokens, index, last));
        index = last + 1;
        continue;
      }
      last = index;
    }
    while (last + 1 < tokens.length && last - index < MAX_JOINED_TOKENS && INTRA_WORD_GAP.test(tokens[last]!.gapAfter)) last++;
    if (last > index) groups.push(joinGroup(tokens, index, last));
    index = last + 1;
  }
  return groups;
}

function joinGroup(tokens: Token[], from: number, to: number): JoinedGroup {
  let raw = '';
  let hasLetter = false;
  for (let index = from; index <= to; index++) {
    raw += tokens[index]!.raw;
    hasLetter ||= tokens[index]!.hasLetter;
  }
  const forms = tokenForms({ raw, start: 0, end: 0, hasLetter, gapAfter: '' });
  return { forms, start: tokens[from]!.start, end: tokens[to]!.end, count: to - from + 1 };
}

/** Longest matches first, then the most certain; overlapping shorter ones are dropped. */
function selectMatches(candidates: Candidate[]): Candidate[] {
  if (candidates.length <= 1) return candidates;
  const ordered = [...candidates].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || b.probability - a.probability || a.start - b.start,
  );
  const kept: Candidate[] = [];
  const spans = new DisjointSpans(candidates.reduce((largest, candidate) => Math.max(largest, candidate.end), 0));
  for (const candidate of ordered) {
    if (spans.overlaps(candidate.start, candidate.end)) continue;
    spans.add(candidate.start, candidate.end);
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start);
}
