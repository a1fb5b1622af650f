/**
 * Loaders for the TRAIN datasets in ../shared/datasets with fixed, documented
 * splits. Evaluation-only sets are loaded by scripts/eval.ts, never here.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../src/core/classifiers/paths.ts';
import { parseCsvObjects } from './csv.ts';

export const DATASETS_DIR = process.env.OPEN_MODERATION_DATASETS ?? resolve(REPO_ROOT, '../shared/datasets');

export interface Example {
  text: string;
  label: number;
  source: string;
  /** ToxiGen: the target group. */
  group?: string;
}

export type Split = 'train' | 'test';

/**
 * Variants, thresholds and sentences are compared on a dev split carved out of
 * the TRAIN data (never on the evaluation-only sets). With
 * OPEN_MODERATION_DEV_HOLDOUT=1 the loaders leave the dev rows out of 'train'
 * so training/dev.ts can score models that have not seen them; shipped models
 * train on everything that is not test.
 */
export const DEV_HOLDOUT = process.env.OPEN_MODERATION_DEV_HOLDOUT === '1';
/** Every fifth hand-written line (by position among sentence lines) is dev. */
export const isDevLine = (index: number): boolean => index % 5 === 2;
export type OwnPart = 'all' | 'train' | 'dev';
const defaultOwnPart = (): OwnPart => (DEV_HOLDOUT ? 'train' : 'all');

function read(path: string): string {
  return readFileSync(resolve(DATASETS_DIR, path), 'utf8');
}

/** Davidson et al.: every 10th row (by file order) is held out as test; rows with index % 10 == 5 form the dev split. */
export function davidson(split: Split | 'dev'): Array<Example & { klass: number }> {
  const wanted = (index: number): boolean => {
    if (split === 'test') return index % 10 === 0;
    if (split === 'dev') return index % 10 === 5;
    return index % 10 !== 0 && !(DEV_HOLDOUT && index % 10 === 5);
  };
  return parseCsvObjects(read('davidson-hate-offensive/labeled_data.csv'))
    .map((row, index) => ({ text: row.tweet ?? '', label: 0, klass: Number(row.class), source: 'davidson', index }))
    .filter((row) => wanted(row.index));
}

/** TweetEval task file; train uses the official train+validation splits, test the official test split. */
export function tweetEval(task: string, split: Split): Example[] {
  const wanted = split === 'train' ? new Set(['train', 'val', 'validation']) : new Set(['test']);
  return parseCsvObjects(read(`tweeteval/${task}.csv`))
    .filter((row) => wanted.has(row.split ?? ''))
    .map((row) => ({ text: row.text ?? '', label: Number(row.label), source: `tweeteval-${task}` }));
}

/** TweetEval sentiment has only val (train on it) and test (report on it). */
export function tweetEvalSentiment(split: Split): Example[] {
  const wanted = split === 'train' ? 'val' : 'test';
  return parseCsvObjects(read('tweeteval/sentiment.csv'))
    .filter((row) => row.split === wanted || (wanted === 'val' && row.split === 'validation'))
    .map((row) => ({ text: row.text ?? '', label: Number(row.label), source: 'tweeteval-sentiment' }));
}

export function toxigen(): Example[] {
  return parseCsvObjects(read('toxigen-prompts/toxigen_prompt_sentences.csv')).map((row) => ({
    text: row.text ?? '',
    label: row.label === 'hate' ? 1 : 0,
    source: 'toxigen',
    group: row.target_group ?? '',
  }));
}

/**
 * SMS Spam Collection: every 5th message is held out as test. Within the train
 * part, rows with index % 5 == 1 are the dev split of training/dev.ts ('train-core'
 * is the train part without them; until round 4 they also fit the spam decision
 * boundary, which now uses out-of-fold scores of the whole train part, smsSpamFolds).
 */
export function smsSpam(split: Split | 'dev' | 'train-core'): Example[] {
  const lines = read('sms-spam-collection/SMSSpamCollection.tsv').split(/\r?\n/).slice(1);
  const out: Example[] = [];
  // training/dev.ts cross-validation: OPEN_MODERATION_SMS_DEV_FOLD=k (0–4) makes the k-th of five
  // interleaved folds of the train part the dev rows instead.
  const fold = process.env.OPEN_MODERATION_SMS_DEV_FOLD;
  const isDev = (index: number): boolean => (fold === undefined ? index % 5 === 1 : Math.floor(index / 5) % 5 === Number(fold));
  lines.forEach((line, index) => {
    const tab = line.indexOf('\t');
    if (tab < 0) return;
    if ((index % 5 === 0) !== (split === 'test')) return;
    if (split === 'dev' && !isDev(index)) return;
    if ((split === 'train-core' || (split === 'train' && DEV_HOLDOUT)) && isDev(index)) return;
    out.push({ text: line.slice(tab + 1), label: line.slice(0, tab) === 'spam' ? 1 : 0, source: 'sms' });
  });
  return out;
}

/**
 * The SMS train part (never the test rows; under OPEN_MODERATION_DEV_HOLDOUT without the dev rows
 * either) with a fold number: five folds of consecutive blocks of five rows, floor(index / 5) % 5.
 * The spam model's decision boundary is fit on out-of-fold scores over these (training/train-all.ts).
 */
export function smsSpamFolds(): Array<Example & { fold: number; index: number }> {
  const lines = read('sms-spam-collection/SMSSpamCollection.tsv').split(/\r?\n/).slice(1);
  const fold = process.env.OPEN_MODERATION_SMS_DEV_FOLD;
  const isDev = (index: number): boolean => (fold === undefined ? index % 5 === 1 : Math.floor(index / 5) % 5 === Number(fold));
  const out: Array<Example & { fold: number; index: number }> = [];
  lines.forEach((line, index) => {
    const tab = line.indexOf('\t');
    if (tab < 0 || index % 5 === 0 || (DEV_HOLDOUT && isDev(index))) return;
    out.push({ text: line.slice(tab + 1), label: line.slice(0, tab) === 'spam' ? 1 : 0, source: 'sms', fold: Math.floor(index / 5) % 5, index });
  });
  return out;
}

/**
 * YouTube Spam Collection: the Shakira video (09) is held out as test; the other four videos train. Under
 * OPEN_MODERATION_DEV_HOLDOUT, OPEN_MODERATION_YOUTUBE_DEV_VIDEO=01|04|07|08 leaves one training video out of
 * 'train' and makes it 'dev' (training/dev.ts scores it), so spam variants can be checked on comments of a video
 * the model never saw.
 */
export const YOUTUBE_TEST_VIDEO = '09-';
const youtubeDevVideo = (): string | undefined => (DEV_HOLDOUT ? process.env.OPEN_MODERATION_YOUTUBE_DEV_VIDEO : undefined);
export function youtubeSpam(split: Split | 'dev'): Example[] {
  const devVideo = youtubeDevVideo();
  if (split === 'dev') return devVideo ? youtubeVideos('train').filter((e) => e.source === `youtube-${devVideo}`) : [];
  if (split === 'train' && devVideo) return youtubeVideos('train').filter((e) => e.source !== `youtube-${devVideo}`);
  return youtubeVideos(split);
}

function youtubeVideos(split: Split): Example[] {
  const dir = resolve(DATASETS_DIR, 'youtube-spam-collection');
  const files = readdirSync(dir).filter((name) => name.endsWith('.csv')).sort();
  const out: Example[] = [];
  for (const file of files) {
    if (file.startsWith(YOUTUBE_TEST_VIDEO) !== (split === 'test')) continue;
    for (const row of parseCsvObjects(readFileSync(resolve(dir, file), 'utf8')))
      out.push({ text: row.CONTENT ?? '', label: Number(row.CLASS), source: `youtube-${file.slice(0, 2)}` });
  }
  return out;
}

export interface SurgeTerm {
  term: string;
  severity: number;
  categories: string[];
}

export function surgeProfanity(): SurgeTerm[] {
  return parseCsvObjects(read('surge-profanity/profanity_en.csv')).map((row) => ({
    term: (row.text ?? '').toLowerCase(),
    severity: Number(row.severity_rating),
    categories: [row.category_1, row.category_2, row.category_3].filter((c): c is string => !!c),
  }));
}

/**
 * Hand-written sentences in training/sentences/<name>.txt: one per line,
 * '#' comments; a line may carry "{a|b|c}" alternations that expand into
 * every combination (used for identity templates). With `until`, reading stops at the first
 * comment containing it (training/dev-transfer.ts: the lines written before a round).
 */
export function ownSentences(name: string, part: OwnPart = defaultOwnPart(), until?: string): string[] {
  const path = resolve(REPO_ROOT, 'training/sentences', `${name}.txt`);
  if (!existsSync(path)) return [];
  const out: string[] = [];
  let lineIndex = 0;
  // training/dev.ts comparisons on the same dev lines: OPEN_MODERATION_DEV_SKIP=marker[,marker] leaves
  // out of training the lines after a comment containing a marker (a data change's "before").
  const skipMarkers = DEV_HOLDOUT ? (process.env.OPEN_MODERATION_DEV_SKIP ?? '').split(',').filter(Boolean) : [];
  let skipTrain = false;
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (until !== undefined && line.startsWith('#') && line.includes(until)) break;
    if (line.startsWith('#') && skipMarkers.some((marker) => line.includes(marker))) skipTrain = true;
    if (!line || line.startsWith('#')) continue;
    const dev = isDevLine(lineIndex++);
    if ((part === 'dev' && !dev) || (part === 'train' && dev)) continue;
    if (skipTrain && !dev) continue;
    out.push(...expandAlternations(line));
  }
  return out;
}

/**
 * A file of training/probes/, never trained on: everyday.txt (everyday messages, for counting false flags; round 7),
 * sexual_identity.txt (sexual texts that name a group: hate false flags and sexual recall; round 13).
 */
export function probeLines(name: 'everyday' | 'sexual_identity' | 'short'): string[] {
  return readFileSync(resolve(REPO_ROOT, `training/probes/${name}.txt`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
}

export function expandAlternations(line: string): string[] {
  const match = /\{([^{}]*)\}/.exec(line);
  if (!match) return [line];
  const before = line.slice(0, match.index);
  const after = line.slice(match.index + match[0].length);
  return match[1]!.split('|').flatMap((option) => expandAlternations(before + option + after));
}

/** A text that carries a web link (round 16: the ordinary tweets with one are spam and self-promotion negatives). */
export const hasLink = (text: string): boolean => /https?:\/\/|www\./.test(text);

/** The key our own labels of dataset rows use: the first 16 hex digits of the SHA-256 of the row's text. */
export const textKey = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * Our own labels for rows of the TRAIN sets (training/labels/<name>.tsv: `key<TAB>label`, `#` comments), by textKey,
 * so the dataset texts themselves are not copied into the repository.
 */
export function ownLabels(name: string): Map<string, 0 | 1> {
  const labels = new Map<string, 0 | 1>();
  for (const line of readFileSync(resolve(REPO_ROOT, 'training/labels', `${name}.tsv`), 'utf8').split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [key, label] = line.split('\t');
    if (!key || (label !== '0' && label !== '1')) throw new Error(`training/labels/${name}.tsv: bad line ${JSON.stringify(line)}`);
    labels.set(key, label === '1' ? 1 : 0);
  }
  return labels;
}
