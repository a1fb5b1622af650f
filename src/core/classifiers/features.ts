/**
 * Shared text featurizer. Every classifier policy scores the same hashed
 * feature vector, so a text is tokenized and hashed once: the pipeline keeps
 * each field's features in its per-field analyses (policies.ts fieldFeatures),
 * and the last few texts' features are memoized for callers without that
 * context (the sentiment insight, evaluation and benchmarks).
 */
import { LEXICON_FEATURES, curatedWords, lexiconGeneration, lexiconHitsWithin, lexiconMatches, tokenLexicon, type LexiconHits, type LexiconMatch, type TokenLexicon } from './lexicons.ts';
import { vectorRow, wordVectors, type WordVectors } from './word-vectors.ts';

/** Hashed n-gram space; structural and lexicon features live above it. */
export const HASH_BITS = 18;
export const HASH_SIZE = 1 << HASH_BITS;
const HASH_MASK = HASH_SIZE - 1;

/** Dense, named features appended after the hashed space (stable order: the weights depend on it). */
export const STRUCTURAL_FEATURES = [
  'bias',
  'url',
  'url_many',
  'email',
  'phone',
  'money',
  'long_number',
  'caps_ratio',
  'exclaim',
  'repeat_chars',
  'length_short',
  'length_long',
  'mention',
  'hashtag',
  'second_person',
  'first_person',
  'emoji',
] as const;
/**
 * Conjunctions of lexicon hits: a linear model cannot express "a group is named AND
 * is derogated" from the two counts alone, and that conjunction (not either part)
 * separates hate from identity talk and from abuse of non-protected targets.
 */
export const INTERACTION_FEATURES = ['identity_x_derogation', 'identity_x_hostility', 'identity_x_violence', 'identity_x_positive', 'identity_x_negation'] as const;
const INTERACTION_BASE = HASH_SIZE + STRUCTURAL_FEATURES.length + LEXICON_FEATURES.length;
/**
 * Dense embedding features, last: the weighted mean and the per-dimension maximum of the
 * word vectors of the text's tokens (word-vectors.ts). They let a linear model score words
 * it never saw in training by their neighbours. Models that do not use them keep zero
 * weights there (see training/train-all.ts).
 */
export const EMBEDDING_DIMENSIONS = 100;
export const EMBEDDING_BASE = INTERACTION_BASE + INTERACTION_FEATURES.length;
/**
 * Concept features, after the embedding block (round 12): per concept, the highest cosine between a word
 * of the text and the concept's direction (the normalised mean of the centred unit vectors of its lexicon's
 * single words), sharpened so that only close neighbours count. A lexicon hit needs the exact word; this lets
 * an unlisted word of the vector vocabulary ("massacred", "soldiers") count toward the violence concept. Words
 * outside that vocabulary have no vector and add nothing here.
 */
export const CONCEPTS = ['violence', 'gore', 'dehumanizing', 'insult', 'self_harm', 'sexual', 'hostility'] as const;
export const CONCEPT_BASE = EMBEDDING_BASE + 2 * EMBEDDING_DIMENSIONS;
export const FEATURE_COUNT = CONCEPT_BASE + CONCEPTS.length;
const lexiconAt = (name: string): number => (LEXICON_FEATURES as readonly string[]).indexOf(name);
/** The lexicons that name a protected group (training also uses them to tell texts that name no group). */
export const IDENTITY_LEXICON_NAMES = ['identity_race', 'identity_religion', 'identity_gender', 'identity_orientation', 'identity_disability', 'identity_nationality', 'slur_race', 'slur_gender_orientation', 'slur_disability'] as const;
const IDENTITY_LEXICONS = IDENTITY_LEXICON_NAMES.map(lexiconAt);
const DEROGATION_LEXICONS = ['dehumanizing', 'insult'].map(lexiconAt);
const HOSTILITY_LEXICONS = ['hostility'].map(lexiconAt);
const VIOLENCE_LEXICONS = ['violence', 'threat'].map(lexiconAt);
const POSITIVE_LEXICONS = ['positive'].map(lexiconAt);
const NEGATION_LEXICONS = ['negation'].map(lexiconAt);
const STRUCTURAL_BASE = HASH_SIZE;
const LEXICON_BASE = HASH_SIZE + STRUCTURAL_FEATURES.length;
const structuralIndex = (name: (typeof STRUCTURAL_FEATURES)[number]): number =>
  STRUCTURAL_BASE + STRUCTURAL_FEATURES.indexOf(name);
/** Looked up once, not per text. */
const S = Object.fromEntries(STRUCTURAL_FEATURES.map((name) => [name, structuralIndex(name)])) as Record<(typeof STRUCTURAL_FEATURES)[number], number>;

export interface TextFeatures {
  /** Feature indices (may repeat; a dot product sums them). */
  indices: Int32Array;
  values: Float32Array;
  length: number;
  /** Normalized word tokens (lowercase, de-leeted, runs squeezed). */
  tokens: string[];
  lexicon: LexiconHits;
  urlCount: number;
  emailCount: number;
  phoneCount: number;
  capsRatio: number;
  /**
   * Windows of at most CHUNK_TOKENS tokens for long texts (empty when the text is short).
   * Detectors take the max over windows: otherwise one explicit paragraph in a long story
   * is averaged away by the benign rest.
   */
  chunks: TextFeatures[];
  /**
   * Sentence groups of a text of SENTENCE_SCORING_TOKENS tokens or more (empty when it is shorter or
   * has a single sentence group). The detectors chosen for it on dev take the max over these groups
   * instead of the windows (round 5: without the whole text beside them).
   */
  sentenceGroups: TextFeatures[];
  /**
   * What scoring has computed for this text, window or group so far (policies.ts), kept on the features
   * themselves: a lookup in a side table keyed by them cost more than most of the sums it saved.
   */
  scoring: ScoringMemo | null;
}

/** Margins of the model table's slots (computed a block of four at a time) and the probabilities policies read. */
export interface ScoringMemo {
  margins: number[];
  /** Bit b: the margins of block b are computed. */
  marginBlocks: number;
  probabilities: Array<number | null>;
  /** Bit s: probabilities[s] is known. */
  known: number;
}

/**
 * Issue #27's context features. Models declare whether they were trained with them (models/manifest.json,
 * `featurizer.contextFeatures`; models.ts calls setContextFeatures when it loads them, training when it starts), so
 * weights and featurizer always agree. OPEN_MODERATION_FEATURES_OFF (a comma list of these names, read once) turns
 * single ones off for comparisons on training/dev-corpus.ts.
 * - accents: Latin accents folded before hashing (ñ kept);
 * - skipgrams: word pairs one and two words apart ("kill ... you", "send ... pics"): threats and solicitation are
 *   carried by pairs that an inserted word hides from plain bigrams;
 * - negation: the three words after a negator ("not", "never", "nunca", "nicht", "jamais"...) also hash as negated,
 *   so "I would never hurt you" need not score like "I would hurt you";
 * - reported: in a text that quotes or reports someone ("he said", a quotation mark), every word also hashes as
 *   reported, so that quoting abuse to report it can learn weights of its own.
 */
const FEATURES_OFF = new Set((process.env.OPEN_MODERATION_FEATURES_OFF ?? '').split(',').filter(Boolean));
let FOLD_ACCENTS = false;
let SKIPGRAMS = false;
let NEGATION = false;
let REPORTED = false;
let contextFeaturesOn = false;

/** Switches the context features on or off (for the models loaded, or the models being trained). */
export function setContextFeatures(on: boolean): void {
  contextFeaturesOn = on;
  FOLD_ACCENTS = on && !FEATURES_OFF.has('accents');
  SKIPGRAMS = on && !FEATURES_OFF.has('skipgrams');
  NEGATION = on && !FEATURES_OFF.has('negation');
  REPORTED = on && !FEATURES_OFF.has('reported');
  memoKeys.length = 0;
  memoValues.length = 0;
}
export const contextFeaturesEnabled = (): boolean => contextFeaturesOn;

const NEGATORS = new Set([
  'not', 'no', 'never', 'nothing', 'nobody', 'nor', 'neither', "don't", 'dont', "doesn't", 'doesnt', "didn't", 'didnt', "isn't", 'isnt', "aren't", "wasn't", "won't", 'wont',
  "wouldn't", 'wouldnt', "shouldn't", "can't", 'cant', "couldn't", "ain't", 'aint', 'nunca', 'jamas', 'nadie', 'nada', 'ni', 'nao', 'jamais', 'nem', 'pas', 'plus', 'aucun', 'aucune',
  'personne', 'rien', 'nicht', 'nie', 'niemals', 'kein', 'keine', 'keinen', 'keiner', 'nichts',
]);
const NEGATION_SCOPE = 3;
/** Words that report what someone else wrote or said (en, es, pt, fr, de; accents folded). */
const REPORTING_WORDS = new Set([
  'said', 'says', 'saying', 'told', 'tells', 'telling', 'wrote', 'writes', 'texted', 'messaged', "dm'd", 'dmd', 'threatened', 'reported', 'reporting', 'screenshot',
  'screenshots', 'quote', 'quoted', 'quoting', 'dijo', 'dice', 'escribio', 'disse', 'escreveu', 'falou', 'dit', 'ecrit', 'gesagt', 'sagte', 'schrieb', 'geschrieben',
]);
const QUOTATION = /["“”«»„]/;
const SKIP_SEEDS = [0, 0, 0x68e31da4, 0x2545f491];
const NEGATED_SEED = 0x7feb352d;
const REPORTED_SEED = 0x846ca68b;

export const CHUNK_TOKENS = 48;
/**
 * Texts of at least this many tokens are also scored per sentence group (round 4, chosen on
 * training/dev.ts): sentences are merged until a group has SENTENCE_GROUP_TOKENS tokens, and a
 * group longer than CHUNK_TOKENS is cut into windows. One violent or explicit sentence inside a
 * few benign ones is otherwise diluted by them; shorter texts (most tweets and chat lines) are
 * scored whole, where sentence groups added false positives on dev.
 */
export const SENTENCE_SCORING_TOKENS = 32;
const SENTENCE_GROUP_TOKENS = 8;
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/;
/** SENTENCE_BREAK, searched for one separator after another. */
const SENTENCE_BREAKS = new RegExp(SENTENCE_BREAK.source, 'g');

/**
 * The tokens: links, e-mail addresses, words (with a leading @ or #) and emoji. The e-mail branch is tried only where a
 * run of its local-part characters [\p{L}\p{N}._%+-] starts: tried at every start inside such a run, it read the rest
 * of the run each time (quadratic: "a." repeated over 100,000 characters took 4.9 s). nextToken tries it where a scan
 * resumes inside a run, which the pattern itself no longer does, so the tokens are those of the pattern without the guard.
 */
const TOKEN_PATTERN =
  /https?:\/\/[^\s]+|www\.[^\s]+|(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+\.[\p{L}.]{2,}|[@#]?[\p{L}\p{N}'’*$@]+|\p{Extended_Pictographic}/gu;
/** A position inside a run of local-part characters, where TOKEN_PATTERN's guard keeps its e-mail branch from starting. */
const INSIDE_LOCAL_RUN = /(?<=[\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]/uy;
const LOCAL_RUN = /[\p{L}\p{N}._%+-]+/uy;
/** What TOKEN_PATTERN's e-mail branch needs after its local part. */
const EMAIL_AFTER_RUN = /@[\p{L}\p{N}-]+\.[\p{L}.]{2,}/uy;
const EMAIL_AT = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+\.[\p{L}.]{2,}/uy;
/** TOKEN_PATTERN's two branches before the e-mail one. */
const LINK_AT = /https?:\/\/[^\s]|www\.[^\s]/uy;
const PHONE_PATTERN = /(?:\+?\d[\d\s().-]{7,}\d)/g;
const MONEY_PATTERN = /[$£€¥₹]\s?\d|\d\s?(?:usd|eur|gbp|dollars?|pounds?|euros?|bucks)\b/i;
const LONG_NUMBER_PATTERN = /\d{5,}/;
/**
 * Whether `text` has one UTF-16 unit four times in a row, other than a line terminator: what /(.)\1{3,}/ tests,
 * without the regex's attempt at every position.
 */
function hasRepeatedChar(text: string): boolean {
  let previous = -1;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) {
      previous = -1;
      run = 0;
    } else if (c === previous) {
      if (++run >= 4) return true;
    } else {
      previous = c;
      run = 1;
    }
  }
  return false;
}
const LETTER = /\p{L}/u;
/**
 * What /\b[a-z0-9-]{2,}\.(?:com|…)\b/ finds, from the dot: the name before it is read backwards from each dot, once,
 * instead of from every word boundary in it ("a-" repeated over 100,000 characters took 3.9 s).
 */
const DOMAIN_PATTERN = /\.(?<=\b[a-z0-9-]{2,}\.)(?:com|net|org|info|biz|ly|io|co|tk|xyz|me|us|uk)\b/;
/** The first letters of DOMAIN_PATTERN's endings: without a dot before one of them it cannot match. */
const DOMAIN_ENDING_STARTS = new Set([...'cnoibltxmu'].map((c) => c.charCodeAt(0)));

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i', '*': '' };
/** A token's person, as the token table keeps it. */
const SECOND_PERSON_TOKEN = 1;
const FIRST_PERSON_TOKEN = 2;
const SECOND_PERSON = new Set(['you', 'your', "you're", 'youre', 'u', 'ur', 'yourself', 'ya', 'yall', "y'all", 'thou']);
const FIRST_PERSON = new Set(['i', 'me', 'my', 'myself', "i'm", 'im', "i'll", 'ill', "i've", 'mine']);

/** 32-bit FNV-1a over a string's UTF-16 units, continuing from `seed`. */
function fnv(text: string, seed: number, start = 0, end = text.length): number {
  let hash = seed;
  for (let i = start; i < end; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function mix(a: number, b: number): number {
  let hash = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

const WORD_SEED = 0x811c9dc5;
const CHAR_SEEDS = [0, 0, 0, 0x1b873593, 0x27d4eb2f, 0x165667b1];

/** True when normalizeToken would change nothing: no curly apostrophe, no leet character, no run of three, no dropped g. */
function isPlainToken(raw: string): boolean {
  if (endsInDroppedG(raw)) return false;
  let previous = -1;
  let run = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2019 || (c >= 48 && c <= 57) || c === 64 || c === 36 || c === 33 || c === 42 || (c >= 0xc0 && c <= 0x24f)) return false;
    run = c === previous ? run + 1 : 1;
    if (run >= 3) return false;
    previous = c;
  }
  return true;
}

/**
 * "killin'", "shootin'", "goin'": the apostrophe stands for a dropped g, so the word takes the features of its
 * spelled-out form (a threat written in dialect otherwise shares nothing with the same threat spelled in full).
 */
function endsInDroppedG(raw: string): boolean {
  const n = raw.length;
  if (n < 5) return false;
  const last = raw.charCodeAt(n - 1);
  return (last === 39 || last === 0x2019) && raw.charCodeAt(n - 2) === 110 /* n */ && raw.charCodeAt(n - 3) === 105 /* i */;
}

const COMBINING_MARKS = /\p{M}+/gu;
const N_TILDE = /n\u0303/g;
const LATIN_ACCENTED = /[\u00c0-\u024f]/;

function normalizeToken(raw: string): string {
  if (isPlainToken(raw)) return raw;
  let token = raw.replace(/’/g, "'");
  if (endsInDroppedG(token)) token = `${token.slice(0, -1)}g`;
  // Accents folded (issue #27): "mátalo" and "matalo", "tötet" and "totet" share their features, whichever
  // way a writer typed them; ß and æ-like letters that do not decompose stay as they are.
  // ñ stays: folded, "coño" would be "cono" (a cone) and "año" "ano".
  if (FOLD_ACCENTS && LATIN_ACCENTED.test(token)) token = token.normalize('NFD').replace(N_TILDE, 'ñ').replace(COMBINING_MARKS, '');
  if (/[0-9@$!*]/.test(token) && LETTER.test(token)) {
    let out = '';
    for (const ch of token) out += LEET[ch] ?? ch;
    token = out;
  }
  // Elongations ("soooo", "fuuuuck") collapse to two so that variants share features.
  return token.replace(/(.)\1{2,}/g, '$1$1');
}

export interface FeatureBuilder {
  indices: number[];
  values: number[];
}

function tokenize(normalized: string, counts: { url: number; email: number; mention: number; hashtag: number; emoji: number }): string[] {
  return joinSpelledOut(matchTokens(normalized, counts, null));
}

/** The run of local-part characters a scan resumed in last: where it ends, and whether an address follows it. */
interface LocalRun {
  end: number;
  email: boolean;
}

/**
 * TOKEN_PATTERN's next match from its lastIndex, as the pattern without its guard finds it: where the scan resumes
 * inside a run of local-part characters (after "#a" in "#a.b@c.de", after "f*ck" in "f*ck.x@y.com"), the e-mail branch
 * matches from there when an address follows the run and no link starts there. Each run is read once, however
 * many tokens it holds.
 */
function nextToken(text: string, run: LocalRun): RegExpExecArray | null {
  const from = TOKEN_PATTERN.lastIndex;
  if (from > 0) {
    INSIDE_LOCAL_RUN.lastIndex = from;
    if (INSIDE_LOCAL_RUN.test(text)) {
      if (from >= run.end) {
        LOCAL_RUN.lastIndex = from;
        LOCAL_RUN.test(text);
        run.end = LOCAL_RUN.lastIndex;
        EMAIL_AFTER_RUN.lastIndex = run.end;
        run.email = EMAIL_AFTER_RUN.test(text);
      }
      LINK_AT.lastIndex = from;
      if (run.email && !LINK_AT.test(text)) {
        EMAIL_AT.lastIndex = from;
        const match = EMAIL_AT.exec(text)!;
        TOKEN_PATTERN.lastIndex = EMAIL_AT.lastIndex;
        return match;
      }
    }
  }
  return TOKEN_PATTERN.exec(text);
}

/** The tokens of `normalized` before spelled-out words are joined; `offsets` (when given) gets where each one's match starts. */
function matchTokens(normalized: string, counts: { url: number; email: number; mention: number; hashtag: number; emoji: number }, offsets: number[] | null): string[] {
  const tokens: string[] = [];
  TOKEN_PATTERN.lastIndex = 0;
  const run: LocalRun = { end: 0, email: false };
  // exec in a loop finds what matchAll finds (the pattern cannot match an empty string), without matchAll's copy of
  // the pattern and its iterator.
  for (let match = nextToken(normalized, run); match !== null; match = nextToken(normalized, run)) {
    const raw = match[0];
    // Every branch below pushes at most one token; the offset is kept for the one it pushes.
    if (offsets) offsets[tokens.length] = match.index;
    const first = raw.charCodeAt(0);
    if (raw.startsWith('http') || raw.startsWith('www.')) {
      counts.url++;
      tokens.push('__url__');
    } else if (raw.includes('@') && raw.indexOf('@') > 0 && raw.includes('.')) {
      counts.email++;
      tokens.push('__email__');
    } else if (first === 64 /* @ */) {
      counts.mention++;
      tokens.push('__user__');
    } else if (first === 35 /* # */) {
      counts.hashtag++;
      const tag = normalizeToken(raw.slice(1));
      if (tag) tokens.push(tag);
    } else if (/^\d+$/.test(raw)) {
      tokens.push(raw.length >= 5 ? '__longnum__' : '__num__');
    } else if (first > 0x2000 && !LETTER.test(raw)) {
      counts.emoji++;
      tokens.push(raw);
    } else {
      const token = normalizeToken(raw);
      if (token) tokens.push(token);
    }
  }
  if (offsets) offsets.length = tokens.length;
  return tokens;
}

const SINGLE_LETTER = /^\p{L}$/u;

/**
 * A word spaced out letter by letter ("k i l l") becomes one token again: runs of three or more single letters are
 * joined. The tokens are moved up in place as runs are joined (splicing each run out moved all the tokens after it:
 * quadratic, "a a a 1 " repeated over 400,000 characters took 1.4 s).
 */
function joinSpelledOut(tokens: string[]): string[] {
  let kept = 0;
  let start = -1;
  for (let i = 0; i <= tokens.length; i++) {
    if (i < tokens.length && tokens[i]!.length === 1 && SINGLE_LETTER.test(tokens[i]!)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      if (i - start >= 3) tokens[kept++] = tokens.slice(start, i).join('');
      else for (let k = start; k < i; k++) tokens[kept++] = tokens[k]!;
      start = -1;
    }
    if (i < tokens.length) tokens[kept++] = tokens[i]!;
  }
  tokens.length = kept;
  return tokens;
}

/** Normalized word tokens of a text (what the n-grams and word vectors see). */
export function tokensOf(text: string): string[] {
  return tokenize(text.normalize('NFKC').toLowerCase(), { url: 0, email: 0, mention: 0, hashtag: 0, emoji: 0 });
}

const embeddingSum = new Float64Array(EMBEDDING_DIMENSIONS);
const embeddingMax = new Float64Array(EMBEDDING_DIMENSIONS);

/**
 * What a text's windows and sentence groups share with the whole text, per token position: the
 * hashed word and character n-grams, the word-vector row and the lexicon matches. A part that is a
 * run of the whole text's tokens takes these from here instead of hashing and looking them up
 * again. The hashed indices are sorted afterwards, so where they come from does not change them.
 */
interface TokenTable {
  matches: readonly LexiconMatch[];
  /** Word unigram index per position. */
  words: Int32Array;
  /** Word bigram index of the positions p - 1 and p, at p (unused at 0). */
  pairs: Int32Array;
  /** Character n-gram indices of position p: grams[gramStarts[p] .. gramStarts[p + 1]). */
  gramStarts: Int32Array;
  grams: Int32Array;
  /** Word-vector row per position; -1 for a placeholder (`__url__`) or a word without a vector. */
  rows: Int32Array;
  /**
   * Context features per position (issue #27), kept apart so that a window or sentence group takes only those its
   * own tokens give: the skip-grams ending at p (1 and 2 words skipped), the negated form of p and the position of
   * the negator that scopes it (-1: none), the reported form of p, and how many reporting words precede p.
   */
  skip2: Int32Array;
  skip3: Int32Array;
  negated: Int32Array;
  negator: Int32Array;
  reportedForm: Int32Array;
  reportingBefore: Int32Array;
  /** The whole text has quotation marks. */
  quoted: boolean;
  /** Per position: SECOND_PERSON_TOKEN, FIRST_PERSON_TOKEN or 0. */
  person: Int32Array;
}

/** What tokenTable takes from a token alone, whatever its neighbours. */
interface TokenFacts {
  /** FNV-1a of the token from WORD_SEED. */
  hash: number;
  /** Its negated and reported forms' indices. */
  negated: number;
  reported: number;
  /** A placeholder (`__url__`): no character n-grams, no vector, not in a negator's scope. */
  placeholder: boolean;
  negator: boolean;
  reporting: boolean;
  /** SECOND_PERSON_TOKEN, FIRST_PERSON_TOKEN or 0. */
  person: number;
  /** The character 3-, 4- and 5-gram indices of ` ${token} `, sizes in that order (empty for a placeholder). */
  grams: Int32Array;
  row: number;
  /** The lexicon's answer for the token alone (lexiconMatches looks it up again when the lexicon table changed). */
  lexicon: TokenLexicon;
}

/**
 * The facts of the tokens seen lately: a message's words are mostly common ones, whose n-grams and vector row
 * need not be hashed and looked up again for each message. Emptied when it is full or the vectors change.
 */
const TOKEN_CACHE_SIZE = 50_000;
const tokenCache = new Map<string, TokenFacts>();
let tokenCacheVectors: WordVectors | null = null;

function tokenFacts(token: string, vectors: WordVectors, withVectors: boolean): TokenFacts {
  const hash = fnv(token, WORD_SEED);
  const placeholder = token.startsWith('__');
  let grams = NO_GRAMS;
  if (!placeholder) {
    const paddedLength = token.length + 2;
    grams = new Int32Array(Math.max(0, paddedLength - 2) + Math.max(0, paddedLength - 3) + Math.max(0, paddedLength - 4));
    let g = 0;
    for (let size = 3; size <= 5; size++) {
      const seed = CHAR_SEEDS[size]!;
      for (let i = 0; i + size <= paddedLength; i++) grams[g++] = fnvPadded(token, seed, i, i + size) & HASH_MASK;
    }
  }
  return {
    hash,
    negated: mix(NEGATED_SEED, hash) & HASH_MASK,
    reported: mix(REPORTED_SEED, hash) & HASH_MASK,
    placeholder,
    negator: NEGATORS.has(token) || token.endsWith("n't"),
    reporting: REPORTING_WORDS.has(token),
    person: SECOND_PERSON.has(token) ? SECOND_PERSON_TOKEN : FIRST_PERSON.has(token) ? FIRST_PERSON_TOKEN : 0,
    grams,
    row: placeholder || !withVectors ? -1 : vectorRow(vectors, token),
    lexicon: tokenLexicon(token),
  };
}
const NO_GRAMS = new Int32Array(0);

function tokenTable(tokens: readonly string[], quoted = false): TokenTable {
  const count = tokens.length;
  // Views into the slab (zeroed, never reused) rather than arrays of their own, as the features' arrays are.
  const skip2 = slabInt32(count);
  const skip3 = slabInt32(count);
  const negated = slabInt32(count);
  const negator = slabInt32(count).fill(-1);
  const reportedForm = slabInt32(count);
  const reportingBefore = slabInt32(count + 1);
  let lastNegator = -1;
  const wordHashes = slabUint32(count);
  const words = slabInt32(count);
  const pairs = slabInt32(count);
  const gramStarts = slabInt32(count + 1);
  const rows = slabInt32(count);
  const person = slabInt32(count);
  const vectors = wordVectors();
  const withVectors = vectors.dimensions === EMBEDDING_DIMENSIONS;
  // A word of L characters, padded with a space on each side, has at most L + 3 - size n-grams of each
  // size from 3 to 5: fewer than 3 L in all.
  let gramCapacity = 0;
  for (const token of tokens) if (!token.startsWith('__')) gramCapacity += 3 * token.length;
  const grams = slabInt32(gramCapacity);
  let g = 0;
  let previous = 0;
  if (tokenCacheVectors !== vectors) {
    tokenCache.clear();
    tokenCacheVectors = vectors;
  }
  const singles: TokenLexicon[] = new Array(count);
  const generation = lexiconGeneration();
  for (let t = 0; t < count; t++) {
    const token = tokens[t]!;
    let known = tokenCache.get(token);
    if (known === undefined) {
      if (tokenCache.size >= TOKEN_CACHE_SIZE) tokenCache.clear();
      tokenCache.set(token, (known = tokenFacts(token, vectors, withVectors)));
    }
    // Looked up again once the lexicon table was rebuilt (training sets its profanity terms).
    if (known.lexicon.generation !== generation) known.lexicon = tokenLexicon(token);
    singles[t] = known.lexicon;
    const h = known.hash;
    words[t] = h & HASH_MASK;
    if (t > 0) pairs[t] = mix(previous, h) & HASH_MASK;
    previous = h;
    wordHashes[t] = h;
    if (t >= 2) skip2[t] = mix(wordHashes[t - 2]! ^ SKIP_SEEDS[2]!, h) & HASH_MASK;
    if (t >= 3) skip3[t] = mix(wordHashes[t - 3]! ^ SKIP_SEEDS[3]!, h) & HASH_MASK;
    negated[t] = known.negated;
    if (lastNegator >= 0 && t - lastNegator <= NEGATION_SCOPE && !known.placeholder) negator[t] = lastNegator;
    if (known.negator) lastNegator = t;
    reportedForm[t] = known.reported;
    reportingBefore[t + 1] = reportingBefore[t]! + (known.reporting ? 1 : 0);
    gramStarts[t] = g;
    rows[t] = known.row;
    person[t] = known.person;
    if (known.placeholder) continue;
    grams.set(known.grams, g);
    g += known.grams.length;
  }
  gramStarts[count] = g;
  return { matches: lexiconMatches(tokens, singles), words, pairs, gramStarts, grams: grams.subarray(0, g), rows, skip2, skip3, negated, negator, reportedForm, reportingBefore, quoted, person };
}

/** URLs, emails and the like are counted once, for the whole text; its windows and sentence groups carry none. */
const NO_COUNTS = Object.freeze({ url: 0, email: 0, mention: 0, hashtag: 0, emoji: 0 });

/**
 * A window or sentence group of a longer text: its tokens, joined by spaces, stand for its text.
 * They are the tokens of `whole` from `from` on, so their n-grams, vectors and lexicon hits come
 * from that table.
 */
function partFeatures(tokens: string[], whole: TokenTable, from: number, embedding: EmbeddingRole = 'alone'): TextFeatures {
  const joined = tokens.join(' ');
  return featuresFromTable(joined, joined, tokens, whole, from, NO_COUNTS, embedding);
}

/** Features of a token run on its own, as a window or sentence group with these tokens is scored. */
export function featuresOfTokens(tokens: string[]): TextFeatures {
  return partFeatures(tokens, tokenTable(tokens), 0);
}

export function computeFeatures(text: string): TextFeatures {
  const normalized = text.normalize('NFKC').toLowerCase();
  const counts = { url: 0, email: 0, mention: 0, hashtag: 0, emoji: 0 };
  const offsets: number[] = [];
  const matched = matchTokens(normalized, counts, offsets);
  const tokens = joinSpelledOut(matched.slice());
  const table = tokenTable(tokens, QUOTATION.test(normalized));
  // The sentence groups come first: when they cut the text's tokens in order, the text's embedding block is their
  // blocks added up (embeddingFeatures says why that is exact) instead of its tokens' vectors summed again.
  const sentenceGroups: TextFeatures[] = [];
  let embedding: EmbeddingRole = 'alone';
  const groups = tokens.length >= SENTENCE_SCORING_TOKENS ? sentenceGroupsOf(normalized, matched, offsets) : [];
  if (groups.length > 1) {
    // Sentence by sentence, the tokens are almost always the whole text's, in order; not when a
    // word spelled out letter by letter runs across a sentence break.
    const starts = startsWithin(tokens, groups);
    const added = starts !== null && tokens.length <= exactEmbeddingTokens();
    if (added) startEmbeddingTotals();
    groups.forEach((group, g) => {
      for (let start = 0; start < group.length; start += CHUNK_TOKENS) {
        const part = group.slice(start, start + CHUNK_TOKENS);
        sentenceGroups.push(starts ? partFeatures(part, table, starts[g]! + start, added ? 'added' : 'alone') : featuresOfTokens(part));
      }
    });
    if (added) embedding = 'sum of parts';
  }
  const features = featuresFromTable(text, normalized, tokens, table, 0, counts, embedding);
  for (const group of sentenceGroups) features.sentenceGroups.push(group);
  if (tokens.length > CHUNK_TOKENS * 1.5) {
    for (let start = 0; start < tokens.length; start += CHUNK_TOKENS) {
      let end = start + CHUNK_TOKENS;
      // Fold a short tail into the previous window.
      if (tokens.length - end < CHUNK_TOKENS / 3) end = tokens.length;
      features.chunks.push(partFeatures(tokens.slice(start, end), table, start));
      if (end === tokens.length) break;
    }
  }
  return features;
}

/**
 * The sentence groups of a text of SENTENCE_SCORING_TOKENS tokens or more (`matched`: its tokens before spelled-out
 * words are joined, and where each starts): sentences merged until a group has SENTENCE_GROUP_TOKENS tokens, a short
 * last one joining the group before it.
 */
function sentenceGroupsOf(normalized: string, matched: readonly string[], offsets: readonly number[]): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  // Each sentence's tokens are what tokenize would find in it: a token's match never spans the whitespace that
  // separates sentences, so the sentence's matches are the whole text's matches inside it, and only the joining
  // of spelled-out words is done again, sentence by sentence.
  let first = 0;
  SENTENCE_BREAKS.lastIndex = 0;
  for (;;) {
    const separator = SENTENCE_BREAKS.exec(normalized);
    const sentenceEnd = separator ? separator.index : normalized.length;
    let last = first;
    while (last < matched.length && offsets[last]! < sentenceEnd) last++;
    // A loop rather than push(...): one sentence of a long text can hold tens of thousands of tokens, more arguments
    // than a call may safely take.
    if (last > first) for (const token of joinSpelledOut(matched.slice(first, last))) current.push(token);
    first = last;
    if (current.length >= SENTENCE_GROUP_TOKENS) {
      groups.push(current);
      current = [];
    }
    // The sentences after the last token add nothing.
    if (!separator || first === matched.length) break;
  }
  // A short last sentence joins the previous group.
  if (current.length > 0) {
    if (groups.length > 0) {
      const previous = groups[groups.length - 1]!;
      for (const token of current) previous.push(token);
    } else groups.push(current);
  }
  return groups;
}

/** Where each group starts in `tokens`, when the groups are `tokens` cut in order; null otherwise. */
function startsWithin(tokens: readonly string[], groups: readonly (readonly string[])[]): number[] | null {
  const starts: number[] = [];
  let position = 0;
  for (const group of groups) {
    starts.push(position);
    for (const token of group) if (tokens[position++] !== token) return null;
  }
  return position === tokens.length ? starts : null;
}

/** Reused buffer for hashed n-gram indices; grows as needed and is copied out per text. */
let scratch = new Int32Array(4096);

/** FNV-1a of `padded.slice(start, end)` where padded = ` ${token} `, without building that string. */
function fnvPadded(token: string, seed: number, start: number, end: number): number {
  const last = token.length + 1;
  let hash = seed;
  for (let p = start; p < end; p++) {
    hash ^= p === 0 || p === last ? 32 : token.charCodeAt(p - 1);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const TEXT_CHAR_SEED = 0x3c6ef372;
/**
 * The hashed n-grams are scaled as if a text had at least this many: a text of one or two tokens ("🙂") otherwise
 * carried each of its few n-grams at full weight, weights learned where the same n-gram was one of dozens in a
 * longer message (round 8: a lone slight smile scored as violence, from threats that end with one).
 */
const HASHED_COUNT_FLOOR = 16;

/**
 * Word 1–2-grams, character 3–5-grams (of each word padded with spaces) and character
 * 3-grams of the whole normalized text, for the tokens `from` to `to` of `table`,
 * hashed, sorted and de-duplicated into `scratch[0..count)`: binary presence,
 * so repeating a sentence does not amplify its score. Returns the count.
 */
function hashedNgrams(table: TokenTable, from: number, to: number, text: string): number {
  const { words, pairs, gramStarts, grams } = table;
  const capacity = 6 * (to - from) + (gramStarts[to]! - gramStarts[from]!) + text.length + 2;
  if (capacity > scratch.length) scratch = new Int32Array(capacity * 2);
  // The module's buffer in a local, so the loop need not reload a binding that could change (no gain measured beyond noise).
  const out = scratch;
  let n = 0;
  for (let t = from; t < to; t++) {
    out[n++] = words[t]!;
    if (t > from) out[n++] = pairs[t]!;
  }
  out.set(grams.subarray(gramStarts[from]!, gramStarts[to]!), n);
  n += gramStarts[to]! - gramStarts[from]!;
  n = contextFeatures(table, from, to, n);
  // Character 3-grams of the whole text, across spaces and punctuation, digits collapsed to 0
  // ("£0.00/min", "to 00000", "word-glued"): shapes the word tokens lose (round 4, chosen on training/dev.ts).
  // A text without a word, a number or an emoji has nothing to judge: its punctuation trigrams alone were scored at
  // full weight (round 8: a lone "." flagged as violence).
  if (to > from) n = textTrigrams(text, n);
  return n > INSERTION_MAX_COUNT ? sortedUniqueByBitmap(n) : sortedUniqueByInsertion(n);
}

/** JavaScript's `\s` for one UTF-16 unit (the regex itself decides outside ASCII). */
const SPACE = /\s/;
const isSpace = (c: number): boolean => (c < 128 ? c === 32 || (c >= 9 && c <= 13) : SPACE.test(String.fromCharCode(c)));

/**
 * Appends the hashed character 3-grams of ` ${text.replace(/[0-9]/g, '0').replace(/\s+/g, ' ')} ` (each FNV-1a
 * from TEXT_CHAR_SEED, as fnv computes it) to `scratch` from `n` on, without building that string; returns the
 * new count.
 */
function textTrigrams(text: string, n: number): number {
  const out = scratch;
  if (shapedBuffer.length < text.length + 2) shapedBuffer = new Uint16Array(2 * text.length + 2);
  const shaped = shapedBuffer;
  let length = 0;
  shaped[length++] = 32;
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (!inSpace) shaped[length++] = 32;
      inSpace = true;
    } else {
      shaped[length++] = c >= 48 && c <= 57 ? 48 : c;
      inSpace = false;
    }
  }
  shaped[length++] = 32;
  for (let i = 0; i + 3 <= length; i++) {
    let hash = Math.imul(TEXT_CHAR_SEED ^ shaped[i]!, 0x01000193);
    hash = Math.imul(hash ^ shaped[i + 1]!, 0x01000193);
    hash = Math.imul(hash ^ shaped[i + 2]!, 0x01000193);
    out[n++] = (hash >>> 0) & HASH_MASK;
  }
  return n;
}
let shapedBuffer = new Uint16Array(1024);

/** Appends the context features of the tokens `from` to `to` to `scratch` from `n` on; returns the new count. */
function contextFeatures(table: TokenTable, from: number, to: number, n: number): number {
  const out = scratch;
  const { skip2, skip3, negated, negator, reportedForm, reportingBefore } = table;
  const reported = REPORTED && (reportingBefore[to]! - reportingBefore[from]! > 0 || (table.quoted && from === 0 && to === skip2.length));
  for (let t = from; t < to; t++) {
    if (SKIPGRAMS) {
      if (t - 2 >= from) out[n++] = skip2[t]!;
      if (t - 3 >= from) out[n++] = skip3[t]!;
    }
    if (NEGATION && negator[t]! >= from) out[n++] = negated[t]!;
    if (reported) out[n++] = reportedForm[t]!;
  }
  return n;
}

/** Up to this many indices an insertion sort is the quickest. */
const INSERTION_MAX_COUNT = 24;

/** `scratch[0..n)` sorted and de-duplicated in place by insertion; returns the count. */
function sortedUniqueByInsertion(n: number): number {
  const out = scratch;
  for (let i = 1; i < n; i++) {
    const value = out[i]!;
    let j = i - 1;
    while (j >= 0 && out[j]! > value) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = value;
  }
  let unique = 0;
  for (let i = 0; i < n; i++) if (i === 0 || out[i] !== out[unique - 1]) out[unique++] = out[i]!;
  return unique;
}

/** One bit per index of the hash space, and one bit per word of it that has a bit set; all zero between calls. */
const seen = new Int32Array(HASH_SIZE >>> 5);
const seenWords = new Int32Array(HASH_SIZE >>> 10);

/**
 * `scratch[0..n)` (hash indices below 2^18) sorted and de-duplicated in place; returns the count. Each index is
 * marked in a bitmap of the hash space, and a second bitmap marks the words of the first that have a bit set, so
 * that reading the indices back in order visits only those words and no others: the same sorted, distinct
 * indices as a sort gives, in less time than the radix sort it replaced (a quarter of a sentence group's
 * featurizing went to its counts and passes) and, for 100,000 characters of prose, than a sort by far.
 */
function sortedUniqueByBitmap(n: number): number {
  const out = scratch;
  for (let i = 0; i < n; i++) {
    const index = out[i]!;
    const word = index >>> 5;
    seen[word]! |= 1 << (index & 31);
    seenWords[word >>> 5]! |= 1 << (word & 31);
  }
  let unique = 0;
  for (let s = 0; s < seenWords.length; s++) {
    let words = seenWords[s]!;
    if (words === 0) continue;
    seenWords[s] = 0;
    while (words !== 0) {
      const lowestWord = words & -words;
      words ^= lowestWord;
      const w = (s << 5) + 31 - Math.clz32(lowestWord);
      let bits = seen[w]!;
      seen[w] = 0;
      const base = w << 5;
      while (bits !== 0) {
        const lowest = bits & -bits;
        out[unique++] = base + 31 - Math.clz32(lowest);
        bits ^= lowest;
      }
    }
  }
  return unique;
}

/** The dense features of one text, in index order, before they are copied out after its hashed ones. */
const DENSE_CAPACITY = STRUCTURAL_FEATURES.length + LEXICON_FEATURES.length + INTERACTION_FEATURES.length + 2 * EMBEDDING_DIMENSIONS;
const denseIndices = new Int32Array(DENSE_CAPACITY);
const denseValues = new Float64Array(DENSE_CAPACITY);
let denseCount = 0;

/** Appends a dense feature; zeros are left out (a sparse vector). */
function addDense(index: number, value: number): void {
  if (value !== 0) {
    denseIndices[denseCount] = index;
    denseValues[denseCount++] = value;
  }
}

/**
 * Appends the embedding block for the tokens `from` to `to` (nothing when no token has a vector):
 * the mean vector scaled to unit length (so length and repetition do not change it), then the
 * per-dimension maximum at half weight. Unit mean, raw mean, frequency-weighted (SIF-like)
 * mean, scales 0.5–2 and mean-only were compared on training/dev.ts; the differences were
 * small and this variant was at or near the top for violence, hate and spam.
 */
function embeddingFeatures(table: TokenTable, from: number, to: number, role: EmbeddingRole): void {
  const vectors = wordVectors();
  const dimensions = vectors.dimensions;
  if (dimensions !== EMBEDDING_DIMENSIONS) return;
  if (role === 'sum of parts') {
    if (totals.found === 0) return;
    embeddingSum.set(totals.sum);
    embeddingMax.set(totals.max);
    conceptMax.set(totals.conceptMax);
    return addEmbedding(dimensions);
  }
  const { values, scales } = vectors;
  const similarities = conceptSimilarities(vectors);
  if (foundBases.length < to - from) {
    foundBases = new Int32Array(2 * (to - from));
    foundScales = new Float64Array(2 * (to - from));
  }
  // In locals, as scratch in hashedNgrams.
  const bases = foundBases;
  const rowScales = foundScales;
  conceptMax.fill(0);
  let found = 0;
  for (let t = from; t < to; t++) {
    const row = table.rows[t]!;
    if (row < 0) continue;
    for (let c = 0; c < CONCEPTS.length; c++) {
      const similarity = similarities[row * CONCEPTS.length + c]!;
      if (similarity > conceptMax[c]!) conceptMax[c] = similarity;
    }
    bases[found] = row * dimensions;
    rowScales[found++] = scales[row]!;
  }
  // Dimension by dimension, the tokens' values added in token order from 0 and their maximum from -Infinity:
  // the same sums as token by token, with the running sum and maximum kept in registers.
  // Four dimensions at a time (EMBEDDING_DIMENSIONS is a multiple of four): four independent sums.
  for (let d = 0; d < dimensions; d += 4) {
    let sum0 = 0;
    let sum1 = 0;
    let sum2 = 0;
    let sum3 = 0;
    let max0 = -Infinity;
    let max1 = -Infinity;
    let max2 = -Infinity;
    let max3 = -Infinity;
    for (let k = 0; k < found; k++) {
      const base = bases[k]! + d;
      const scale = rowScales[k]!;
      const v0 = values[base]! * scale;
      const v1 = values[base + 1]! * scale;
      const v2 = values[base + 2]! * scale;
      const v3 = values[base + 3]! * scale;
      sum0 += v0;
      sum1 += v1;
      sum2 += v2;
      sum3 += v3;
      if (v0 > max0) max0 = v0;
      if (v1 > max1) max1 = v1;
      if (v2 > max2) max2 = v2;
      if (v3 > max3) max3 = v3;
    }
    embeddingSum[d] = sum0;
    embeddingSum[d + 1] = sum1;
    embeddingSum[d + 2] = sum2;
    embeddingSum[d + 3] = sum3;
    embeddingMax[d] = max0;
    embeddingMax[d + 1] = max1;
    embeddingMax[d + 2] = max2;
    embeddingMax[d + 3] = max3;
  }
  if (role === 'added') {
    totals.found += found;
    for (let d = 0; d < dimensions; d++) {
      totals.sum[d]! += embeddingSum[d]!;
      if (embeddingMax[d]! > totals.max[d]!) totals.max[d] = embeddingMax[d]!;
    }
    for (let c = 0; c < CONCEPTS.length; c++) if (conceptMax[c]! > totals.conceptMax[c]!) totals.conceptMax[c] = conceptMax[c]!;
  }
  if (found === 0) return;
  addEmbedding(dimensions);
}

/** Appends the embedding block from embeddingSum, embeddingMax and conceptMax. */
function addEmbedding(dimensions: number): void {
  let norm = 0;
  for (let d = 0; d < dimensions; d++) norm += embeddingSum[d]! * embeddingSum[d]!;
  const unit = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let d = 0; d < dimensions; d++) addDense(EMBEDDING_BASE + d, embeddingSum[d]! * unit);
  for (let d = 0; d < dimensions; d++) addDense(EMBEDDING_BASE + dimensions + d, embeddingMax[d]! * 0.5);
  for (let c = 0; c < CONCEPTS.length; c++) addDense(CONCEPT_BASE + c, conceptMax[c]!);
}

const conceptMax = new Float64Array(CONCEPTS.length);

/**
 * How a text's embedding block is made: from its own tokens (`alone`); from its own tokens and added to the totals of
 * its text's parts (`added`: a sentence group of a text whose groups cut its tokens in order); or from those totals
 * (`sum of parts`: that text).
 */
type EmbeddingRole = 'alone' | 'added' | 'sum of parts';

/** The sentence groups' embedding sums, maxima, concept maxima and tokens with a vector, added up (startEmbeddingTotals). */
const totals = {
  sum: new Float64Array(EMBEDDING_DIMENSIONS),
  max: new Float64Array(EMBEDDING_DIMENSIONS),
  conceptMax: new Float64Array(CONCEPTS.length),
  found: 0,
};

function startEmbeddingTotals(): void {
  totals.sum.fill(0);
  totals.max.fill(-Infinity);
  totals.conceptMax.fill(0);
  totals.found = 0;
}

/**
 * Up to this many tokens a text's embedding sums are exact, so that adding its groups' sums gives the bits that
 * adding its tokens' values one after another gives. A token's value in dimension d is an int8 code (|code| <= 127)
 * times its word's float32 scale: exact in float64, and a multiple of 2^q, q the lowest exponent of a scale's last
 * mantissa bit in the table. Every partial sum of n such values is a multiple of 2^q below n * 127 * (largest scale)
 * in magnitude, which float64 holds exactly while that bound is below 2^(53 + q): no sum rounds, in any order. The
 * maxima are exact in any order anyway. For the shipped vectors (q = -31, scales below 0.03) that is over 500,000
 * tokens; the bound is checked per text.
 */
function exactEmbeddingTokens(): number {
  const vectors = wordVectors();
  if (vectors === exactFor) return exactTokens;
  let lowestBit = Infinity;
  let largest = 0;
  const bits = new Float32Array(1);
  const raw = new Uint32Array(bits.buffer);
  for (let row = 0; row < vectors.scales.length; row++) {
    const scale = vectors.scales[row]!;
    if (!(scale > 0) || !Number.isFinite(scale)) {
      // A scale the argument does not cover (zero, negative, not finite, subnormal below): never add the parts.
      lowestBit = -Infinity;
      break;
    }
    bits[0] = scale;
    const exponent = (raw[0]! >>> 23) & 0xff;
    if (exponent === 0) {
      lowestBit = -Infinity;
      break;
    }
    let mantissa = (raw[0]! & 0x7fffff) | 0x800000;
    let lowest = exponent - 127 - 23;
    while ((mantissa & 1) === 0) {
      mantissa >>>= 1;
      lowest++;
    }
    lowestBit = Math.min(lowestBit, lowest);
    largest = Math.max(largest, scale);
  }
  exactFor = vectors;
  // With a margin of one bit: n * 128 * largest <= 2^(52 + q).
  exactTokens = lowestBit === -Infinity || largest === 0 ? 0 : Math.floor(2 ** (52 + lowestBit) / (128 * largest));
  return exactTokens;
}
let exactFor: WordVectors | null = null;
let exactTokens = 0;
/** The word-vector rows (as offsets) and scales of the tokens of the part being featurized; grown as needed. */
let foundBases = new Int32Array(1024);
let foundScales = new Float64Array(1024);
/** Below this cosine (of centred vectors) a word is not a near neighbour of the concept. */
const CONCEPT_FLOOR = 0.3;
const conceptTables = new WeakMap<WordVectors, Float32Array>();
/** The table asked for last: a message's text, windows and groups all ask for the same one. */
let lastConceptVectors: WordVectors | null = null;
let lastConceptTable: Float32Array | null = null;

/**
 * Per vocabulary row and concept: max(0, cos − floor) / (1 − floor), computed once per vector table
 * (70–100 ms at start, in loadModels' warm-up) so that scoring only looks values up. The vectors are centred on the
 * vocabulary's mean first: frequent words share a common direction, and uncentred, "the" and "on"
 * sat closer to the violence concept than most violent words did.
 */
function conceptSimilarities(vectors: WordVectors): Float32Array {
  if (vectors === lastConceptVectors) return lastConceptTable!;
  let table = conceptTables.get(vectors);
  if (table) {
    lastConceptVectors = vectors;
    lastConceptTable = table;
    return table;
  }
  const { dimensions, values, scales, index } = vectors;
  const count = scales.length;
  const centred = new Float32Array(count * dimensions);
  const mean = new Float64Array(dimensions);
  for (let row = 0; row < count; row++) for (let d = 0; d < dimensions; d++) mean[d]! += (values[row * dimensions + d]! * scales[row]!) / count;
  const norms = new Float64Array(count);
  for (let row = 0; row < count; row++) {
    let sum = 0;
    for (let d = 0; d < dimensions; d++) {
      const value = values[row * dimensions + d]! * scales[row]! - mean[d]!;
      centred[row * dimensions + d] = value;
      sum += value * value;
    }
    norms[row] = Math.sqrt(sum);
  }
  table = new Float32Array(count * CONCEPTS.length);
  const direction = new Float64Array(dimensions);
  for (let c = 0; c < CONCEPTS.length; c++) {
    direction.fill(0);
    for (const word of curatedWords(CONCEPTS[c]!)) {
      const row = index.get(word);
      if (row === undefined || norms[row] === 0) continue;
      for (let d = 0; d < dimensions; d++) direction[d]! += centred[row * dimensions + d]! / norms[row]!;
    }
    let length = 0;
    for (let d = 0; d < dimensions; d++) length += direction[d]! * direction[d]!;
    if (length === 0) continue;
    length = Math.sqrt(length);
    for (let row = 0; row < count; row++) {
      if (norms[row] === 0) continue;
      let dot = 0;
      for (let d = 0; d < dimensions; d++) dot += centred[row * dimensions + d]! * direction[d]!;
      const cosine = dot / (length * norms[row]!);
      table[row * CONCEPTS.length + c] = cosine > CONCEPT_FLOOR ? (cosine - CONCEPT_FLOOR) / (1 - CONCEPT_FLOOR) : 0;
    }
  }
  conceptTables.set(vectors, table);
  lastConceptVectors = vectors;
  lastConceptTable = table;
  return table;
}

function anyHit(lexicon: LexiconHits, categories: readonly number[]): boolean {
  for (const category of categories) if (lexicon.scores[category]! > 0) return true;
  return false;
}

const CONJUNCTIONS = [DEROGATION_LEXICONS, HOSTILITY_LEXICONS, VIOLENCE_LEXICONS, POSITIVE_LEXICONS, NEGATION_LEXICONS];

/**
 * Features of `tokens`, which stand for `text` (`normalized`: its NFKC lowercase form) and are the
 * tokens of `table` from position `from` on.
 */
function featuresFromTable(
  text: string,
  normalized: string,
  tokens: string[],
  table: TokenTable,
  from: number,
  counts: Readonly<{ url: number; email: number; mention: number; hashtag: number; emoji: number }>,
  embedding: EmbeddingRole,
): TextFeatures {
  const to = from + tokens.length;
  const hashedCount = hashedNgrams(table, from, to, normalized);
  const scale = hashedCount > 0 ? 1 / Math.sqrt(Math.max(hashedCount, HASHED_COUNT_FLOOR)) : 0;
  // Dense features (structural, lexicon) follow the hashed ones.
  denseCount = 0;

  // Structural signals (spam and intent cues).
  let letters = 0;
  let capitals = 0;
  let exclaims = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      capitals++;
      letters++;
    } else if (c >= 97 && c <= 122) letters++;
    else if (c === 33) exclaims++;
  }
  const capsRatio = letters >= 8 ? capitals / letters : 0;
  // The phone, money and long-number patterns need an ASCII digit and the domain pattern a dot followed by the first
  // letter of one of its endings (c n o i b l t x m u): a window or sentence group (its tokens joined) seldom has
  // either, nor has prose's full stop before a space, and then none of them is run.
  let digits = false;
  let dots = false;
  for (let i = 0; i < normalized.length; i++) {
    const c = normalized.charCodeAt(i);
    if (c >= 48 && c <= 57) digits = true;
    else if (c === 46 && !dots && i + 1 < normalized.length && DOMAIN_ENDING_STARTS.has(normalized.charCodeAt(i + 1))) dots = true;
  }
  PHONE_PATTERN.lastIndex = 0;
  const phoneCount = digits ? (normalized.match(PHONE_PATTERN) ?? []).length : 0;
  const urlLike = counts.url + (dots && DOMAIN_PATTERN.test(normalized) ? 1 : 0);
  addDense(S.bias, 1);
  addDense(S.url, urlLike > 0 ? 1 : 0);
  addDense(S.url_many, urlLike > 1 ? 1 : 0);
  addDense(S.email, counts.email > 0 ? 1 : 0);
  addDense(S.phone, phoneCount > 0 ? 1 : 0);
  addDense(S.money, digits && MONEY_PATTERN.test(normalized) ? 1 : 0);
  addDense(S.long_number, digits && LONG_NUMBER_PATTERN.test(normalized) ? 1 : 0);
  addDense(S.caps_ratio, capsRatio > 0.5 ? 1 : 0);
  addDense(S.exclaim, Math.min(exclaims, 5) / 5);
  addDense(S.repeat_chars, hasRepeatedChar(text) ? 1 : 0);
  addDense(S.length_short, tokens.length <= 3 ? 1 : 0);
  addDense(S.length_long, tokens.length >= 40 ? 1 : 0);
  addDense(S.mention, counts.mention > 0 ? 1 : 0);
  addDense(S.hashtag, counts.hashtag > 0 ? 1 : 0);
  let persons = 0;
  for (let t = from; t < to; t++) persons |= table.person[t]!;
  addDense(S.second_person, (persons & SECOND_PERSON_TOKEN) !== 0 ? 1 : 0);
  addDense(S.first_person, (persons & FIRST_PERSON_TOKEN) !== 0 ? 1 : 0);
  addDense(S.emoji, counts.emoji > 0 ? 1 : 0);

  const lexicon = lexiconHitsWithin(table.matches, from, to, slabFloat32(LEXICON_FEATURES.length));
  // Hits are scaled by text length like the n-grams: one incidental "woman" in a
  // long story must weigh less than in a five-word message.
  const lexiconScale = 1 / Math.sqrt(Math.max(tokens.length, 4) / 4);
  for (let i = 0; i < LEXICON_FEATURES.length; i++) {
    const value = lexicon.scores[i]!;
    if (value > 0) addDense(LEXICON_BASE + i, Math.min(1, value * lexiconScale));
  }
  if (anyHit(lexicon, IDENTITY_LEXICONS)) {
    for (let i = 0; i < CONJUNCTIONS.length; i++) if (anyHit(lexicon, CONJUNCTIONS[i]!)) addDense(INTERACTION_BASE + i, lexiconScale);
  }
  embeddingFeatures(table, from, to, embedding);

  const allIndices = slabInt32(hashedCount + denseCount);
  allIndices.set(scratch.subarray(0, hashedCount));
  allIndices.set(denseIndices.subarray(0, denseCount), hashedCount);
  const allValues = slabFloat32(hashedCount + denseCount);
  allValues.fill(scale, 0, hashedCount);
  allValues.set(denseValues.subarray(0, denseCount), hashedCount);
  return {
    indices: allIndices,
    values: allValues,
    length: allIndices.length,
    tokens,
    lexicon,
    urlCount: urlLike,
    emailCount: counts.email,
    phoneCount,
    capsRatio,
    chunks: [],
    sentenceGroups: [],
    scoring: null,
  };
}

/**
 * The feature arrays of texts, windows and sentence groups (and a text's token table while it is featurized) are
 * views into shared 256 kB buffers instead of arrays of their own: a typed array of more than 64 bytes allocates its
 * own store outside the heap, which cost more than filling it. A buffer is freed once nothing views it. Its bytes are
 * handed out once each, so a view starts zeroed.
 */
const SLAB_BYTES = 1 << 18;
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

function slabBytes(bytes: number): number {
  if (bytes > SLAB_BYTES >>> 2) return -1;
  if (slabUsed + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const offset = slabUsed;
  slabUsed += bytes;
  return offset;
}

function slabInt32(length: number): Int32Array {
  const offset = slabBytes(length * 4);
  return offset < 0 ? new Int32Array(length) : new Int32Array(slab, offset, length);
}

function slabUint32(length: number): Uint32Array {
  const offset = slabBytes(length * 4);
  return offset < 0 ? new Uint32Array(length) : new Uint32Array(slab, offset, length);
}

function slabFloat32(length: number): Float32Array {
  const offset = slabBytes(length * 4);
  return offset < 0 ? new Float32Array(length) : new Float32Array(slab, offset, length);
}

const MEMO_SIZE = 4;
const memoKeys: string[] = [];
const memoValues: TextFeatures[] = [];

/** True when `text`'s features are memoized (scoring it again costs little). */
export function featuresKnown(text: string): boolean {
  return memoKeys.includes(text);
}

/** Features of `text`, memoized for the last few texts (callers that score one text with several models in turn). */
export function featuresOf(text: string): TextFeatures {
  for (let i = 0; i < memoKeys.length; i++) if (memoKeys[i] === text) return memoValues[i]!;
  const features = computeFeatures(text);
  memoKeys.unshift(text);
  memoValues.unshift(features);
  if (memoKeys.length > MEMO_SIZE) {
    memoKeys.pop();
    memoValues.pop();
  }
  return features;
}
