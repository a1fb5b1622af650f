/**
 * The classifier policies. Each scores the shared, memoized features of the
 * text (see features.ts) with a trained linear model, lexicon evidence, or
 * both. Severity weights are documented in docs/severity.md.
 */
import type { FieldResult, Policy, PolicyContext, PolicySettings } from '../policy.ts';
import { computeFeatures, featuresOf, type ScoringMemo, type TextFeatures } from './features.ts';
import { isDoubleSPluralGuess, lexiconIndex, lexiconMatches, maskedProfanityEntry, profanityVariantEntry, type TermEntry } from './lexicons.ts';
import { innocentEverywhere as innocentEverywhereIn } from './profanity-senses.ts';
import { EXCLUSION_SCORE, excludesProtectedGroup } from './excluding-offers.ts';
import { withoutReportedQuotes } from './reported-quotes.ts';
import { withoutSeriousnessMarkers } from './seriousness.ts';
import { loadModels, model, MODEL_NAMES, modelTable, slotOf, type ModelName } from './models.ts';

// Six decimals: coarser rounding ties many low scores at 0 and destroys the ranking.
const round = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 1e6) / 1e6;

/** Saturating map of lexicon evidence to a probability: 1 strong hit ≈ 0.6, 2 ≈ 0.84. */
const saturate = (evidence: number, rate = 0.9): number => 1 - Math.exp(-rate * evidence);

function lex(features: TextFeatures, category: string): number {
  return features.lexicon.scores[lexiconIndex(category)] ?? 0;
}

/** Detectors of harmful passages score the worst window of a long text; topic models score the whole text. */
const WINDOWED: ReadonlySet<ModelName> = new Set(['toxicity', 'toxicity_severe', 'hate', 'sexual', 'violence', 'self_harm', 'flirtation']);
/** Of those, the ones that score texts of 32+ tokens per sentence group (features.ts), chosen on training/dev.ts passages (sexual and toxicity were worse there). */
const SENTENCE_SCORED: ReadonlySet<ModelName> = new Set(['violence', 'self_harm', 'hate']);

/** Which parts of a text a model scores: the whole text, its worst window, or its worst sentence group (else window). */
type Parts = 'whole' | 'windows' | 'sentences';

/** Per slot of the model table: how its model scores a text; null when its file is missing (lexicon fallback). */
let partsBySlot: Array<Parts | null> | null = null;

function partsOfSlot(slot: number): Parts | null {
  if (!partsBySlot) {
    partsBySlot = [];
    for (const name of MODEL_NAMES) {
      partsBySlot[slotOf(name)] = !model(name) ? null : SENTENCE_SCORED.has(name) ? 'sentences' : WINDOWED.has(name) ? 'windows' : 'whole';
    }
  }
  return partsBySlot[slot] ?? null;
}

function scoringOf(features: TextFeatures): ScoringMemo {
  return (features.scoring ??= {
    margins: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    marginBlocks: 0,
    probabilities: [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null],
    known: 0,
  });
}

/**
 * The probability a policy reads from model `name` for `features` (whole text, worst window or worst sentence group,
 * by model), kept with the features: several policies ask the same model about the same text (toxicity_severe asks
 * toxicity and hate).
 */
export function modelProbability(name: ModelName, features: TextFeatures): number | null {
  const slot = slotOf(name);
  const scoring = scoringOf(features);
  if ((scoring.known & (1 << slot)) !== 0) return scoring.probabilities[slot]!;
  // What LinearModel's maxSentenceProbability, maxWindowProbability and probability compute, from the margins
  // of the side-by-side table (the same sums in the same order, so the same bits).
  let probability: number | null = null;
  const scoredParts = partsOfSlot(slot);
  if (scoredParts !== null) {
    const parts =
      scoredParts === 'sentences' && features.sentenceGroups.length > 0 ? features.sentenceGroups : scoredParts !== 'whole' && features.chunks.length > 0 ? features.chunks : null;
    if (!parts) probability = 1 / (1 + Math.exp(-marginOf(features, slot)));
    else {
      let best = -Infinity;
      for (let i = 0; i < parts.length; i++) best = Math.max(best, marginOf(parts[i]!, slot));
      probability = 1 / (1 + Math.exp(-best));
    }
  }
  scoring.probabilities[slot] = probability;
  scoring.known |= 1 << slot;
  return probability;
}

/** The margin of the table's slot for a text, window or sentence group; its block of four is computed when first asked. */
function marginOf(part: TextFeatures, slot: number): number {
  const scoring = scoringOf(part);
  const block = slot >> 2;
  if ((scoring.marginBlocks & (1 << block)) === 0) {
    modelTable().block(part, block, scoring.margins);
    scoring.marginBlocks |= 1 << block;
  }
  return scoring.margins[slot]!;
}

type Scorer = (features: TextFeatures, text: string) => FieldResult;

/** Key of a field's classifier features in the pipeline's per-field `analyses`. */
export const FEATURES_ANALYSIS_KEY = 'classifier-features';

/**
 * The field's features, computed once per field and request: the pipeline asks every policy about
 * one field after another, so with more fields than featuresOf's small memo holds, each classifier
 * policy would otherwise featurize every field again (an object of ten long fields took seconds).
 */
export function fieldFeatures(text: string, ctx: PolicyContext | undefined): TextFeatures {
  // The models say which featurizer they need (issue #27's context features or not): load them before featurizing.
  loadModels();
  if (!ctx) return featuresOf(text);
  const shared = ctx.analyses.get(FEATURES_ANALYSIS_KEY) as { text: string; features: TextFeatures } | undefined;
  if (shared !== undefined && shared.text === text) return shared.features;
  const features = featuresOf(text);
  ctx.analyses.set(FEATURES_ANALYSIS_KEY, { text, features });
  return features;
}

function classifier(id: string, severity: number, score: Scorer, defaultThreshold = 0.5, labels: readonly string[] = []): Policy {
  return {
    id,
    type: 'classifier',
    severity,
    defaultThreshold,
    ...(labels.length > 0 ? { labels } : {}),
    evaluate(text: string, _settings: PolicySettings, ctx?: PolicyContext): FieldResult {
      const result = score(fieldFeatures(text, ctx), text);
      return { ...result, probability: round(result.probability) };
    },
  };
}

// Shared scores (each is cheap; the features are computed once per text).
function toxicity(f: TextFeatures): number {
  return modelProbability('toxicity', f) ?? saturate(lex(f, 'insult') + lex(f, 'prof_strong') + lex(f, 'prof_severe'));
}

function hate(f: TextFeatures): number {
  const p = modelProbability('hate', f);
  if (p !== null) return p;
  const identity = identityEvidence(f);
  return identity > 0 ? saturate(lex(f, 'dehumanizing') + lex(f, 'hostility') + lex(f, 'slur_race') + lex(f, 'slur_gender_orientation'), 0.6) : 0;
}

function violence(f: TextFeatures): number {
  return modelProbability('violence', f) ?? saturate(lex(f, 'violence') * 0.5 + lex(f, 'threat') + lex(f, 'gore') * 0.5);
}

/**
 * Severe abuse as POLICIES.md defines it: toxicity that threatens, hates, urges self-harm or harasses sexually (162 of
 * the realistic dev set's 168 severe judgements were also harmful for one of those four). The severe model alone
 * could not tell heavy ordinary rudeness from it; the geometric mean with the strongest of the four models can.
 */
function severeAbuse(f: TextFeatures): number | null {
  const severe = modelProbability('toxicity_severe', f);
  if (severe === null) return null;
  return Math.sqrt(severe * Math.max(violence(f), hate(f), modelProbability('self_harm', f) ?? 0, modelProbability('sexual', f) ?? 0));
}

/**
 * Violence as the geometric mean of the violence model and hostility: game talk, sport, news, hunting and gardening
 * use the words of violence without aiming them at anyone, and the toxicity models see that; a threat is both. Round
 * 35 (evaluation/rounds/round-35.md) moved the weight on hostility from a quarter to a half: six more harmful violence
 * judgements caught over the five sealed sets (most on the fourth), none more flagged on balance. Only when the models
 * are loaded.
 */
function violenceScore(f: TextFeatures): number {
  const modelled = modelProbability('violence', f);
  const hostile = Math.max(modelProbability('toxicity', f) ?? -1, modelProbability('toxicity_severe', f) ?? -1);
  if (modelled === null || hostile < 0) return violence(f);
  return Math.sqrt(modelled * hostile);
}

/**
 * Explicit advances are flirtation as well as sexual (POLICIES.md), and the flirtation model, trained mostly on
 * compliments and pickup lines, misses them: 17 of its 32 misses on the realistic dev set were sexual advances the
 * sexual model saw. The sexual model squared stands in for them, less what reads as a commercial blast (escort and
 * adult-site ads are sexual and spam, not someone flirting).
 */
function flirtation(f: TextFeatures): number {
  const modelled = modelProbability('flirtation', f);
  if (modelled === null) return saturate(lex(f, 'flirt') * 0.5);
  const sexual = modelProbability('sexual', f) ?? 0;
  return Math.max(modelled, sexual * sexual * (1 - (modelProbability('spam', f) ?? 0)));
}

function identityEvidence(f: TextFeatures): number {
  let total = 0;
  for (const category of IDENTITY_LABELS) total += lex(f, category.lexicon);
  return total;
}

const IDENTITY_LABELS = [
  { id: 'race', lexicon: 'identity_race', slur: 'slur_race' },
  { id: 'religion', lexicon: 'identity_religion', slur: null },
  { id: 'gender', lexicon: 'identity_gender', slur: 'slur_gender_orientation' },
  { id: 'sexual_orientation', lexicon: 'identity_orientation', slur: 'slur_gender_orientation' },
  { id: 'disability', lexicon: 'identity_disability', slur: 'slur_disability' },
  { id: 'nationality', lexicon: 'identity_nationality', slur: null },
] as const;

function threatEvidence(f: TextFeatures): number {
  return saturate(lex(f, 'threat') * 1.5 + (lex(f, 'violence') > 0 && (f.tokens.includes('you') || f.tokens.includes('u')) ? 0.5 : 0));
}

const PROFANITY_BY_SEVERITY = [0, 0.62, 0.85, 0.96];

const PROFANITY_LEXICONS = ['prof_mild', 'prof_strong', 'prof_severe'].map(lexiconIndex);

/**
 * A run of letters and stars; those with a star ("f**k") go to maskedProfanityEntry. Written without a required star,
 * as a pattern requiring one retries every start inside a long run of letters (quadratic on a 100,000-letter text).
 */
const LETTERS_AND_STARS = /[\p{L}*]+/gu;

/** The closing "**" of Markdown bold ("**so cool**"), which would otherwise read as a mask ("cool**": "coolie"). */
function closesBold(word: string, at: number, text: string): boolean {
  let letters = word.length;
  while (letters > 0 && word.charCodeAt(letters - 1) === 42) letters--;
  return word.length - letters >= 2 && word.lastIndexOf('*', letters - 1) < 0 && text.lastIndexOf('**', at - 1) >= 0;
}

/**
 * innocentEverywhere (profanity-senses.ts), answered once per term and text: it reads the whole text, and the
 * profanity policy asks it about every listed word it finds ("ass " repeated over 100,000 characters asked 25,000
 * times and took 56 s). The text last asked about and its answers, by term.
 */
let innocentText: string | null = null;
const innocentAnswers = new Map<string, boolean>();
function innocentEverywhere(term: string, text: string): boolean {
  if (text !== innocentText) innocentAnswers.clear();
  // Kept even when only equal to the last one, so that the next comparison is of the same string.
  innocentText = text;
  let answer = innocentAnswers.get(term);
  if (answer === undefined) innocentAnswers.set(term, (answer = innocentEverywhereIn(term, text)));
  return answer;
}

function profanity(f: TextFeatures, text: string): number {
  // Counted again without the words meant innocently here (profanity-senses.ts) and without "assess" read as a
  // plural, and with what the lexicon misses (profanityVariantEntry); the features stay as the models were trained.
  let severity = 0;
  let hits = 0;
  const count = (entry: TermEntry): void => {
    let level = -1;
    let weight = 0;
    for (let k = 0; k < entry.categories.length; k++) {
      const found = PROFANITY_LEXICONS.indexOf(entry.categories[k]!);
      if (found < 0) continue;
      level = Math.max(level, found);
      weight += entry.weights[k]!;
    }
    if (level < 0) return;
    severity = Math.max(severity, level + 1);
    hits += weight;
  };
  if (f.lexicon.maxProfanitySeverity > 0) {
    for (const match of lexiconMatches(f.tokens)) {
      if ((match.words === 1 && isDoubleSPluralGuess(match.phrase)) || innocentEverywhere(match.phrase, text)) continue;
      count(match.entry);
    }
  }
  for (let i = 0; i < f.tokens.length; i++) {
    const variant = profanityVariantEntry(f.tokens[i]!, i > 0 ? f.tokens[i - 1]! : '');
    if (variant !== undefined && !innocentEverywhere(variant.word, text)) count(variant.entry);
  }
  if (text.includes('*')) {
    for (const run of text.matchAll(LETTERS_AND_STARS)) {
      const word = run[0];
      if (!word.includes('*') || closesBold(word, run.index, text)) continue;
      const reading = maskedProfanityEntry(word);
      if (reading !== undefined && !innocentEverywhere(reading.word, text)) count(reading.entry);
    }
  }
  if (severity === 0) return 0.02;
  return Math.min(0.99, PROFANITY_BY_SEVERITY[severity]! + 0.03 * Math.max(0, hits - 1));
}

/** Topic evidence for goods and activities: mentions raise it; trade intent (buy, sell, DM) raises it further. */
function topic(f: TextFeatures, category: string, intentBoost = 0.35): number {
  const evidence = lex(f, category);
  if (evidence === 0) return 0.01;
  const intent = Math.min(1, lex(f, 'trade_intent'));
  return saturate(evidence + intentBoost * intent * evidence, 0.95);
}

// The injection patterns are tried on texts of up to 100,000 characters, so none may retry a long scan from every
// start: a comment is looked for from the first "/*" of each line only (a later one on the same line finds nothing the
// first does not), and an <img ... src=> and a command in backticks are found by the helpers below, which read each
// stretch once ("/* " repeated took 1.1 s, "<img " 0.6 s, a backtick and "rm" repeated 1.6 s).
const SQL_INJECTION = /('|")\s*(or|and)\s+('|")?\d+('|")?\s*=\s*('|")?\d+|\bunion\s+(all\s+)?select\b|;\s*drop\s+table\b|--\s*$|^(?:(?!\/\*).)*\/\*.*\*\//im;
const SCRIPT_INJECTION = /<\s*script\b|<\s*\/\s*script\s*>|\bon(error|load|click|mouseover)\s*=|javascript\s*:|<\s*iframe\b|\$\{jndi:/i;
const SHELL_INJECTION = /(;|\|\||&&|\|)\s*(rm\s+-rf|cat\s+\/etc\/passwd|wget\s|curl\s|nc\s+-e|bash\s+-i|sh\s+-c)|\/etc\/(passwd|shadow)|\.\.\/\.\.\//i;
const PROMPT_INJECTION = /\b(ignore|disregard|forget)\s+(all\s+)?(the\s+)?(previous|prior|above)\s+(instructions|prompts?|rules)\b|\byou\s+are\s+now\s+(dan|in\s+developer\s+mode)\b|\breveal\s+(your|the)\s+system\s+prompt\b/i;
const IMG_TAG = /<\s*img/gi;
const IMG_SOURCE = /src\s*=/i;
const BACKTICKED_COMMAND = /rm|curl|wget/i;

/** What /<\s*img[^>]+src\s*=/i finds: "src=" after at least one character of an <img tag, before its ">". */
function hasImageSource(text: string): boolean {
  IMG_TAG.lastIndex = 0;
  for (let tag = IMG_TAG.exec(text); tag !== null; tag = IMG_TAG.exec(text)) {
    const from = tag.index + tag[0].length + 1;
    let close = text.indexOf('>', from - 1);
    if (close < 0) close = text.length;
    if (from < close && IMG_SOURCE.test(text.slice(from, close))) return true;
    // Another <img before the same ">" has less of the stretch to offer.
    IMG_TAG.lastIndex = Math.max(IMG_TAG.lastIndex, close);
  }
  return false;
}

/** What /`[^`]*(rm|curl|wget)[^`]*`/i finds: one of the commands between two consecutive backticks. */
function hasBacktickedCommand(text: string): boolean {
  let open = text.indexOf('`');
  while (open >= 0) {
    const close = text.indexOf('`', open + 1);
    if (close < 0) return false;
    if (BACKTICKED_COMMAND.test(text.slice(open + 1, close))) return true;
    open = close;
  }
  return false;
}

const CODE_ABUSE_LABELS = ['sql_injection', 'script_injection', 'command_injection', 'prompt_injection'] as const;
const PERSONAL_INFORMATION_LABELS = ['email', 'phone', 'credit_card', 'government_id', 'address', 'ip_address'] as const;

function codeAbuse(f: TextFeatures, text: string): FieldResult {
  const labels: Array<{ id: string; probability: number }> = [];
  if (SQL_INJECTION.test(text)) labels.push({ id: 'sql_injection', probability: 0.9 });
  if (SCRIPT_INJECTION.test(text) || hasImageSource(text)) labels.push({ id: 'script_injection', probability: 0.92 });
  if (SHELL_INJECTION.test(text) || hasBacktickedCommand(text)) labels.push({ id: 'command_injection', probability: 0.9 });
  if (PROMPT_INJECTION.test(text)) labels.push({ id: 'prompt_injection', probability: 0.85 });
  const lexical = lex(f, 'code_abuse') > 0 ? saturate(lex(f, 'code_abuse'), 0.6) : 0.01;
  const probability = Math.max(lexical, ...labels.map((l) => l.probability));
  return labels.length > 0 ? { probability, labels: labels.map((l) => ({ id: l.id, probability: round(l.probability) })) } : { probability };
}

// Only tested, never extracted: one character of the local part before the "@" is all a match needs, and a lookbehind
// for it starts the search at each "@" only ([\p{L}\p{N}._%+-]+@ retried every start of a 100,000-letter run: 4.5 s).
const EMAIL = /(?<=[\p{L}\p{N}._%+-])@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/u;
const CARD_CANDIDATE = /\b(?:\d[ -]?){13,19}\b/g;
const SSN = /\b\d{3}-\d{2}-\d{4}\b/;
const STREET_ADDRESS = /\b\d{1,5}\s+(?:[A-Z][a-z]+\s){1,3}(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl)\b\.?/i;
const IP_ADDRESS = /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b/;
// Not inside a word, a handle or a tag: "@100046729" and "@casey88662466" are user names, not phone numbers.
const PHONE = /(?<![\p{L}\p{N}_@#])(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?[\s.-]?\d{3,4}[\s.-]?\d{3,4}\b/u;

function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

function personalInformation(f: TextFeatures, text: string): FieldResult {
  const labels: Array<{ id: string; probability: number }> = [];
  if (EMAIL.test(text)) labels.push({ id: 'email', probability: 0.9 });
  if (PHONE.test(text)) labels.push({ id: 'phone', probability: 0.8 });
  CARD_CANDIDATE.lastIndex = 0;
  for (const match of text.matchAll(CARD_CANDIDATE)) {
    const digits = match[0].replace(/\D/g, '');
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) {
      labels.push({ id: 'credit_card', probability: 0.95 });
      break;
    }
  }
  if (SSN.test(text)) labels.push({ id: 'government_id', probability: 0.9 });
  if (STREET_ADDRESS.test(text)) labels.push({ id: 'address', probability: 0.8 });
  if (IP_ADDRESS.test(text)) labels.push({ id: 'ip_address', probability: 0.7 });
  const phrases = lex(f, 'personal_info');
  const base = phrases > 0 ? saturate(phrases, 0.5) : 0.01;
  // A disclosure phrase next to a matching value is stronger evidence than either alone.
  const strongest = Math.max(0, ...labels.map((l) => l.probability));
  const probability = Math.max(base, strongest > 0 ? Math.min(0.99, strongest + 0.1 * Math.min(1, phrases)) : 0);
  return labels.length > 0 ? { probability, labels: labels.map((l) => ({ id: l.id, probability: round(l.probability) })) } : { probability };
}

interface Reading {
  text: string;
  features: TextFeatures;
}

/**
 * A second reading of a text: `rewrite` gives the text with some words taken out (or null when it has none to take),
 * featurized once per text and remembered beside the first reading's features.
 */
function secondReading(rewrite: (text: string) => string | null): (f: TextFeatures, text: string) => Reading | null {
  const readings = new WeakMap<TextFeatures, Reading | null>();
  return (f, text) => {
    let reading = readings.get(f);
    if (reading === undefined) {
      const rewritten = rewrite(text);
      // Not featuresOf: its few memo slots hold the request's fields, which the rewritten copy would push out.
      reading = rewritten === null ? null : { text: rewritten, features: computeFeatures(rewritten) };
      readings.set(f, reading);
    }
    return reading;
  };
}

/** The text without its seriousness markers (seriousness.ts). */
const withoutMarkers = secondReading(withoutSeriousnessMarkers);
/** The text without the quoted spans it reports (reported-quotes.ts). */
const withoutQuotes = secondReading(withoutReportedQuotes);

/** A threat policy's score: the higher of the text as written and the text without the words saying it is meant. */
function meant(score: (f: TextFeatures) => number, f: TextFeatures, text: string): number {
  const probability = score(f);
  const unmarked = withoutMarkers(f, text);
  return unmarked === null ? probability : Math.max(probability, score(unmarked.features));
}

/** A threat policy's score (meant), and no higher than the text's without a threat it quotes to report it. */
function threatScore(score: (f: TextFeatures) => number, f: TextFeatures, text: string): number {
  const probability = meant(score, f, text);
  const unquoted = withoutQuotes(f, text);
  return unquoted === null ? probability : Math.min(probability, meant(score, unquoted.features, unquoted.text));
}

const severeAbuseOrZero = (f: TextFeatures): number => severeAbuse(f) ?? 0;

export const classifierPolicies: Policy[] = [
  classifier('toxicity', 0.5, (f, text) => ({ probability: meant(toxicity, f, text) })),
  classifier('toxicity_severe', 0.8, (f, text) => {
    // Issue #27: the severe model of its own, trained on the realistic corpus's severe abuse, read beside the harm models (severeAbuse); the lexicon composite below is the fallback.
    if (severeAbuse(f) !== null) return { probability: threatScore(severeAbuseOrZero, f, text) };
    const severeEvidence = Math.max(
      f.lexicon.maxProfanitySeverity === 3 ? 0.85 : 0,
      lex(f, 'slur_race') + lex(f, 'slur_gender_orientation') > 0 ? 0.9 : 0,
      threatEvidence(f),
      hate(f),
    );
    return { probability: toxicity(f) * severeEvidence };
  }),
  classifier('hate', 0.85, (f, text) => {
    // An offer turning people away for who they are (excluding-offers.ts); only `hate` reads it, as such an ad is not abuse.
    const modelled = hate(f);
    const p = excludesProtectedGroup(text) ? Math.max(modelled, EXCLUSION_SCORE) : modelled;
    const labels: Array<{ id: string; probability: number }> = IDENTITY_LABELS.filter((label) => lex(f, label.lexicon) > 0 || (label.slur !== null && lex(f, label.slur) > 0)).map((label) => ({
      id: label.id,
      probability: round(p),
    }));
    labels.push({ id: 'threat', probability: round(p * Math.max(threatEvidence(f), violence(f))) });
    return { probability: p, labels };
  }, 0.5, [...IDENTITY_LABELS.map((label) => label.id), 'threat']),
  classifier('sexual', 0.7, (f) => ({ probability: modelProbability('sexual', f) ?? saturate(lex(f, 'sexual') * 0.5 + lex(f, 'prof_sexual') * 0.5) })),
  classifier('flirtation', 0.2, (f) => ({ probability: flirtation(f) })),
  classifier('profanity', 0.3, (f, text) => ({ probability: profanity(f, text) })),
  classifier('violence', 0.8, (f, text) => {
    const p = threatScore(violenceScore, f, text);
    return {
      probability: p,
      labels: [
        { id: 'threat', probability: round(p * threatEvidence(f)) },
        { id: 'graphic', probability: round(p * saturate(lex(f, 'gore'), 0.7)) },
      ],
    };
  }, 0.5, ['threat', 'graphic']),
  classifier('self_harm', 0.9, (f) => {
    const p = modelProbability('self_harm', f) ?? saturate(lex(f, 'self_harm') * 0.6);
    const firstPerson = f.tokens.some((t) => t === 'i' || t === 'me' || t === 'my' || t === 'myself' || t === "i'm" || t === 'im');
    const instructions = f.tokens.some((t) => t === 'how' || t === 'method' || t === 'methods' || t === 'painless' || t === 'easiest' || t === 'quickest' || t === 'best' || t === 'steps');
    return {
      probability: p,
      labels: [
        { id: 'intent', probability: round(firstPerson ? p : p * 0.4) },
        { id: 'instructions', probability: round(instructions ? p : p * 0.2) },
      ],
    };
  }, 0.5, ['intent', 'instructions']),
  classifier('spam', 0.3, (f) => ({ probability: modelProbability('spam', f) ?? saturate(lex(f, 'spam') * 0.3 + f.urlCount * 0.5) })),
  classifier('self_promotion', 0.2, (f) => ({ probability: modelProbability('self_promotion', f) ?? saturate(lex(f, 'self_promotion')) })),
  classifier('illicit', 0.8, (f) => ({
    probability: Math.max(
      topic(f, 'illicit', 0.5),
      topic(f, 'drugs') * 0.9,
      lex(f, 'firearms') > 0 && lex(f, 'trade_intent') > 0 ? topic(f, 'firearms') * 0.8 : 0,
    ),
  })),
  classifier('illicit_drugs', 0.7, (f) => ({ probability: topic(f, 'drugs') })),
  classifier('illicit_alcohol', 0.3, (f) => ({ probability: topic(f, 'alcohol') })),
  classifier('illicit_firearms', 0.7, (f) => ({ probability: topic(f, 'firearms') })),
  classifier('illicit_tobacco', 0.3, (f) => ({ probability: topic(f, 'tobacco') })),
  classifier('illicit_gambling', 0.4, (f) => ({ probability: topic(f, 'gambling') })),
  classifier('cannabis', 0.4, (f) => ({ probability: topic(f, 'cannabis') })),
  classifier('adult', 0.6, (f) => ({
    probability: Math.max(topic(f, 'adult', 0.5), (modelProbability('sexual', f) ?? 0) * 0.8),
  })),
  classifier('crypto', 0.2, (f) => ({ probability: topic(f, 'crypto', 0.2) })),
  classifier('political', 0.1, (f) => ({ probability: modelProbability('political', f) ?? saturate(lex(f, 'political') * 0.6) })),
  classifier('religion', 0.1, (f) => ({ probability: modelProbability('religion', f) ?? saturate(lex(f, 'religion') * 0.6) })),
  classifier('code_abuse', 0.6, (f, text) => codeAbuse(f, text), 0.5, CODE_ABUSE_LABELS),
  classifier('personal_information', 0.5, (f, text) => personalInformation(f, text), 0.5, PERSONAL_INFORMATION_LABELS),
];
