/**
 * Fingerprint of everything the text classifiers compute, for speed work that must not change a result:
 * for each text of a fixed sample (bench/fixtures/classifier-texts.json.gz: lines of training/corpus and
 * long texts joined from them, so that windows and sentence groups are exercised), the full feature vector
 * (indices and float32 bits of the values, tokens, lexicon hits, counts, windows and sentence groups, with
 * issue #27's context features on and off), every model's whole-text, worst-window and worst-sentence
 * probability (float64 bits), the result of all 23 classifier policies, the sentiment scores, the language
 * insight, the language-support check and the Unicode analysis. The hashes are kept per block of texts so
 * that a change can be found. src/core/classifiers/fingerprint.test.ts compares them with the stored ones.
 *
 *   npx tsx bench/classifier-fingerprint.ts            compare with bench/fixtures/classifier-fingerprint.json
 *   npx tsx bench/classifier-fingerprint.ts --write    record them (only for an intended change: new models,
 *                                                      features or lexicons)
 *   npx tsx bench/classifier-fingerprint.ts --sample   rebuild the text sample from training/corpus
 *
 * The stored hashes hold for the models, word vectors and profanity terms named in the file (their manifest
 * hashes): a retraining changes the probabilities, and the test says so instead of reporting a regression.
 */
import { createHash, type Hash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../src/core/classifiers/paths.ts';
import { computeFeatures, contextFeaturesEnabled, featuresOfTokens, setContextFeatures, tokensOf, type TextFeatures } from '../src/core/classifiers/features.ts';
import { classifierPolicies, modelProbability } from '../src/core/classifiers/policies.ts';
import { loadModels, model, MODEL_NAMES } from '../src/core/classifiers/models.ts';
import { sentimentScores } from '../src/core/classifiers/sentiment.ts';
import { detectLanguage } from '../src/core/classifiers/language.ts';
import { languageSupport } from '../src/core/classifiers/language-support.ts';
import { analyzeUnicode } from '../src/core/unicode/index.ts';

export const TEXTS_FILE = resolve(REPO_ROOT, 'bench/fixtures/classifier-texts.json.gz');
export const FINGERPRINT_FILE = resolve(REPO_ROOT, 'bench/fixtures/classifier-fingerprint.json');
const BLOCK = 250;

export interface Fingerprint {
  /** What the probabilities depend on besides the code: models/manifest.json's hashes. */
  inputs: Record<string, string>;
  texts: number;
  /** Per block of BLOCK texts: the hash of the features (context features on, then off), and of all scores. */
  features: string[];
  scores: string[];
  /** Over all blocks. */
  all: string;
}

/**
 * The sample's lines, then 600 long texts joined from runs of 4–24 consecutive lines (with spaces, newlines
 * or sentence ends between them), so that sentence groups (32+ tokens) and windows (73+ tokens) are scored too.
 */
export function loadTexts(): string[] {
  const lines = JSON.parse(gunzipSync(readFileSync(TEXTS_FILE)).toString('utf8')) as string[];
  const texts = [...lines];
  const separators = [' ', '\n', '. ', '\n\n', '! ', ' '];
  for (let k = 0; k < 600; k++) {
    const start = (k * 7919) % lines.length;
    const count = 4 + ((k * 31) % 21);
    let text = '';
    for (let j = 0; j < count && start + j < lines.length; j++) text += (j > 0 ? separators[(k + j) % separators.length] : '') + lines[start + j]!;
    texts.push(text);
  }
  // Edges of sentence grouping and tokenizing: words spelled out across sentence breaks, breaks without words,
  // leading and trailing breaks, URLs, e-mails, handles, tags, numbers, emoji, Unicode spaces, quotation.
  const pieces = [
    'k i l l. y o u r s e l f now',
    'I will k.\ni.\nl.\nl you',
    '!!! ... ??? \n\n\n',
    '\n\nstart with breaks and then words',
    'see https://example.com/a.b?c=1. then www.test.org! mail me at a.b@example.co.uk. ok',
    '@user_1 #Hashtag #ÉTÉ 12345 007 £5.00/min 555-123-4567 +1 (555) 123 4567',
    'emoji 😀😡 🔪 ❤️ hi. f*ck th1s $h1t sooooo baaaad',
    'tabs\tand\u00a0nbsp\u2003em\u3000ideographic spaces. A B C D. e f g',
    '"he said you are dead" she wrote. I would never hurt you, not ever.',
    'Mátalo ya. Tötet ihn! coño año. ¿Qué? ß æ œ ﬁ ½ ２３',
  ];
  for (let k = 0; k < 60; k++) {
    let text = '';
    for (let j = 0; j < 4 + (k % 7); j++) text += (j > 0 ? [' ', '. ', '\n', '! '][(k + j) % 4] : '') + pieces[(k * 3 + j) % pieces.length]!;
    texts.push(text);
  }
  return texts;
}

/** The manifest's hashes of everything loaded besides the code. */
export function modelInputs(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(resolve(REPO_ROOT, 'models/manifest.json'), 'utf8')) as {
    featurizer: unknown;
    wordVectors: { sha256: string };
    models: Array<{ name: string; sha256: string }>;
  };
  const inputs: Record<string, string> = { featurizer: JSON.stringify(manifest.featurizer), wordVectors: manifest.wordVectors.sha256 };
  for (const m of [...manifest.models].sort((a, b) => a.name.localeCompare(b.name))) inputs[m.name] = m.sha256;
  inputs.profanityTerms = createHash('sha256').update(readFileSync(resolve(REPO_ROOT, 'models/profanity-terms.json'))).digest('hex');
  return inputs;
}

const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);
function number(hash: Hash, value: number | null): void {
  if (value === null) return void hash.update('n');
  f64[0] = value;
  hash.update(f64Bytes);
}

function features(hash: Hash, f: TextFeatures): void {
  hash.update(`F${f.length}|${f.indices.length}|${f.values.length}|`);
  hash.update(new Uint8Array(f.indices.buffer, f.indices.byteOffset, f.indices.byteLength));
  hash.update(new Uint8Array(f.values.buffer, f.values.byteOffset, f.values.byteLength));
  hash.update(JSON.stringify(f.tokens));
  hash.update(new Uint8Array(f.lexicon.scores.buffer, f.lexicon.scores.byteOffset, f.lexicon.scores.byteLength));
  hash.update(JSON.stringify([...f.lexicon.matches]));
  hash.update(`|${f.lexicon.maxProfanitySeverity}|${f.urlCount}|${f.emailCount}|${f.phoneCount}|`);
  number(hash, f.capsRatio);
  hash.update(`c${f.chunks.length}`);
  for (const chunk of f.chunks) features(hash, chunk);
  hash.update(`s${f.sentenceGroups.length}`);
  for (const group of f.sentenceGroups) features(hash, group);
}

export function fingerprint(texts: readonly string[]): Fingerprint {
  loadModels();
  const contextOn = contextFeaturesEnabled();
  const blocksF: string[] = [];
  const blocksS: string[] = [];
  for (let start = 0; start < texts.length; start += BLOCK) {
    const block = texts.slice(start, start + BLOCK);
    const featureHash = createHash('sha256');
    const scoreHash = createHash('sha256');
    // The featurizer the models were not trained with, as training can switch it (issue #27's context features).
    setContextFeatures(!contextOn);
    for (const text of block) {
      features(featureHash, computeFeatures(text));
      features(featureHash, featuresOfTokens(tokensOf(text)));
    }
    setContextFeatures(contextOn);
    for (const text of block) {
      const f = computeFeatures(text);
      features(featureHash, f);
      features(featureHash, featuresOfTokens(f.tokens.slice()));
      for (const name of MODEL_NAMES) {
        const m = model(name);
        if (!m) {
          scoreHash.update(`-${name}`);
          continue;
        }
        number(scoreHash, m.margin(f));
        number(scoreHash, m.probability(f));
        number(scoreHash, m.maxWindowProbability(f));
        number(scoreHash, m.maxSentenceProbability(f));
      }
      // As the policies read them (unrounded), on features of their own so that no earlier answer is reused.
      const fresh = computeFeatures(text);
      for (const name of MODEL_NAMES) number(scoreHash, modelProbability(name, fresh));
      // The policies as the pipeline runs them (one analyses map per field, shared by the policies), and
      // the unrounded scores of the sentiment insight.
      const analyses = new Map<string, unknown>();
      for (const policy of classifierPolicies) {
        const result = policy.evaluate(text, { id: policy.id, flag: true }, { fieldKey: null, original: text, analyses });
        scoreHash.update(JSON.stringify(result));
        number(scoreHash, (result as { probability: number }).probability);
      }
      const sentiment = sentimentScores(text);
      scoreHash.update(JSON.stringify(sentiment));
      if (sentiment) for (const value of Object.values(sentiment)) number(scoreHash, value);
      scoreHash.update(JSON.stringify(detectLanguage(text)));
      scoreHash.update(JSON.stringify(languageSupport(text)));
      scoreHash.update(JSON.stringify(analyzeUnicode(text)));
    }
    blocksF.push(featureHash.digest('hex').slice(0, 16));
    blocksS.push(scoreHash.digest('hex').slice(0, 16));
  }
  const all = createHash('sha256').update(blocksF.join()).update(blocksS.join()).digest('hex');
  return { inputs: modelInputs(), texts: texts.length, features: blocksF, scores: blocksS, all };
}

/** Differences from the stored fingerprint, as sentences; empty when identical. */
export function compare(expected: Fingerprint, actual: Fingerprint): string[] {
  const problems: string[] = [];
  for (const key of new Set([...Object.keys(expected.inputs), ...Object.keys(actual.inputs)])) {
    if (expected.inputs[key] !== actual.inputs[key]) {
      problems.push(`models/${key} is not the one the fingerprint was recorded with: if the change is intended, record it again (npx tsx bench/classifier-fingerprint.ts --write)`);
    }
  }
  if (expected.texts !== actual.texts) problems.push(`${actual.texts} texts, the fingerprint has ${expected.texts}`);
  for (let b = 0; b < Math.max(expected.features.length, actual.features.length); b++) {
    const range = `texts ${b * BLOCK}–${Math.min((b + 1) * BLOCK, actual.texts) - 1}`;
    if (expected.features[b] !== actual.features[b]) problems.push(`features differ in ${range}`);
    if (expected.scores[b] !== actual.scores[b]) problems.push(`scores differ in ${range}`);
  }
  return problems;
}

/** The sample's lines: every 13th line of the corpus files, in path order. */
function buildSample(): string[] {
  const root = resolve(REPO_ROOT, 'training/corpus');
  const lines: string[] = [];
  for (const writer of readdirSync(root).sort()) {
    if (!writer.startsWith('writer-')) continue;
    for (const file of readdirSync(join(root, writer)).sort()) {
      if (!file.endsWith('.jsonl')) continue;
      for (const line of readFileSync(join(root, writer, file), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          const text = (JSON.parse(line) as { text?: unknown }).text;
          if (typeof text === 'string' && text.trim()) lines.push(text);
        } catch {
          // a partial line being written
        }
      }
    }
  }
  return lines.filter((_, i) => i % 13 === 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--sample')) {
    const sample = buildSample();
    writeFileSync(TEXTS_FILE, gzipSync(Buffer.from(JSON.stringify(sample)), { level: 9 }));
    console.log(`${sample.length} lines written to ${TEXTS_FILE}`);
  }
  const started = performance.now();
  const actual = fingerprint(loadTexts());
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (process.argv.includes('--write')) {
    writeFileSync(FINGERPRINT_FILE, `${JSON.stringify(actual, null, 2)}\n`);
    console.log(`fingerprint of ${actual.texts} texts written (${seconds} s): ${actual.all}`);
  } else {
    const problems = compare(JSON.parse(readFileSync(FINGERPRINT_FILE, 'utf8')) as Fingerprint, actual);
    console.log(problems.length === 0 ? `identical: ${actual.texts} texts, ${actual.all} (${seconds} s)` : problems.join('\n'));
    if (problems.length > 0) process.exitCode = 1;
  }
}
