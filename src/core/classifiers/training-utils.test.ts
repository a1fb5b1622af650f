import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv } from '../../../training/csv.ts';
import { expandAlternations } from '../../../training/datasets.ts';
import { rocAuc, averagePrecision, bootstrapInterval, thresholdMetrics, weightedF1, weightedMean, weightedRocAuc } from '../../../training/metrics.ts';
import { mulberry32 } from '../../../training/logistic.ts';
import { HASH_SIZE, computeFeatures } from './features.ts';
import type { CorpusMessage, CorpusPolicy } from '../../../training/corpus.ts';

const featureTemplate = computeFeatures('x');
/** A training example with value 1 at each of `indices` (hashed n-grams below HASH_SIZE, dense features from it on). */
const unitExample = (indices: number[], label: 0 | 1) => ({
  features: { ...featureTemplate, indices: Int32Array.from(indices), values: new Float32Array(indices.length).fill(1), length: indices.length },
  label,
});

test('csv parser handles quotes, doubled quotes and embedded newlines', () => {
  assert.deepEqual(parseCsv('a,b\n"x, y","say ""hi""\nthere"\n'), [['a', 'b'], ['x, y', 'say "hi"\nthere']]);
});

test('weighted metrics count an item as often as its weight says', () => {
  const scores = [0.1, 0.4, 0.35, 0.8, 0.5, 0.5, 0.9];
  const labels = [0, 0, 1, 1, 0, 1, 0];
  const ones = new Uint32Array(scores.length).fill(1);
  assert.ok(Math.abs(weightedRocAuc(scores, labels)(ones) - rocAuc(scores, labels)) < 1e-12);
  assert.ok(Math.abs(weightedF1(scores, labels, 0.5)(ones) - thresholdMetrics(scores, labels, 0.5).f1) < 1e-12);
  // Counting items 1 and 5 twice and leaving item 6 out is the same as duplicating and dropping them.
  const counts = Uint32Array.from([1, 2, 1, 1, 2, 1, 0]);
  const expanded = [0, 1, 1, 2, 3, 4, 4, 5];
  const expandedScores = expanded.map((i) => scores[i]!);
  const expandedLabels = expanded.map((i) => labels[i]!);
  assert.ok(Math.abs(weightedRocAuc(scores, labels)(counts) - rocAuc(expandedScores, expandedLabels)) < 1e-12);
  assert.ok(Math.abs(weightedF1(scores, labels, 0.5)(counts) - thresholdMetrics(expandedScores, expandedLabels, 0.5).f1) < 1e-12);
  assert.equal(weightedMean([1, 0, 1])(Uint32Array.from([3, 1, 0])), 0.75);
});

test('bootstrap intervals are reproducible for a seed, hold the estimate and narrow with more items', () => {
  const correct = (n: number) => Array.from({ length: n }, (_, i) => (i % 4 === 0 ? 0 : 1));
  const small = bootstrapInterval(40, weightedMean(correct(40)), mulberry32(7));
  assert.deepEqual(small, bootstrapInterval(40, weightedMean(correct(40)), mulberry32(7)));
  assert.ok(small[0] <= 0.75 && 0.75 <= small[1], `${small}`);
  const large = bootstrapInterval(4000, weightedMean(correct(4000)), mulberry32(7));
  assert.ok(large[0] <= 0.75 && 0.75 <= large[1], `${large}`);
  assert.ok(large[1] - large[0] < (small[1] - small[0]) / 4, `${large} vs ${small}`);
});

test('alternations expand into every combination', () => {
  assert.deepEqual(expandAlternations('I {a|b} {c|d}'), ['I a c', 'I a d', 'I b c', 'I b d']);
});

test('ROC AUC and average precision on a known ranking', () => {
  assert.equal(rocAuc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]), 0.75);
  assert.equal(rocAuc([0.5, 0.5], [0, 1]), 0.5);
  assert.ok(Math.abs(averagePrecision([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]) - (1 + 2 / 3) / 2) < 1e-12);
});

test('the Platt midpoint is where a 1-D logistic fit of the scores crosses 0.5', async () => {
  const { plattMidpoint } = await import('../../../training/train-all.ts');
  // Symmetric around margin 2: the fit crosses 0.5 there.
  const margins = [-1, 0, 1, 2, 2, 3, 4, 5, 1.5, 2.5];
  const labels = [0, 0, 0, 0, 1, 1, 1, 1, 1, 0];
  assert.ok(Math.abs(plattMidpoint(margins, labels) - 2) < 1e-9);
  assert.equal(plattMidpoint(margins, labels), plattMidpoint(margins, labels));
});

test('the naive-Bayes scale grows with how unevenly an n-gram splits the classes, and leaves dense features alone', async () => {
  const { naiveBayesScale } = await import('../../../training/logistic.ts');
  // n-gram 7 only in positives, 9 mostly in negatives, 8 in nearly every text; HASH_SIZE is a dense feature.
  const examples = [unitExample([7, 8, 9, HASH_SIZE], 1), unitExample([7, 8], 1), unitExample([8, 9], 0), unitExample([8, 9], 0), unitExample([8], 0)];
  const scale = naiveBayesScale(examples, 1);
  assert.ok(scale[7]! > scale[9]! && scale[9]! > scale[8]!, `${scale[7]} ${scale[9]} ${scale[8]}`);
  assert.equal(scale[HASH_SIZE], 1);
  assert.equal(naiveBayesScale(examples, 0.5)[7], Math.sqrt(scale[7]!));
});

test('l2Dense penalises the dense features alone: a heavy n-gram L2 shrinks the n-gram weight, not the dense one', async () => {
  const { trainLogistic } = await import('../../../training/logistic.ts');
  // Each class carries one n-gram (5 or 6) and one dense feature (HASH_SIZE or HASH_SIZE + 1) of its own.
  const examples = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? unitExample([5, HASH_SIZE], 1) : unitExample([6, HASH_SIZE + 1], 0)));
  const uniform = trainLogistic(examples, { seed: 1, l2: 1e-6 });
  const split = trainLogistic(examples, { seed: 1, l2: 0.5, l2Dense: 1e-6 });
  const heavy = trainLogistic(examples, { seed: 1, l2: 0.5 });
  assert.ok(split.weights[5]! < uniform.weights[5]! / 2, `n-gram ${split.weights[5]} vs ${uniform.weights[5]}`);
  assert.ok(split.weights[HASH_SIZE]! > heavy.weights[HASH_SIZE]! * 2, `dense ${split.weights[HASH_SIZE]} vs ${heavy.weights[HASH_SIZE]}`);
  assert.ok(split.weights[HASH_SIZE]! > 0 && split.weights[HASH_SIZE + 1]! < 0);
});

test('our own labels of TRAIN rows are keyed by a SHA-256 prefix of the text and hold only 0 or 1', async () => {
  const { ownLabels, textKey } = await import('../../../training/datasets.ts');
  assert.equal(textKey('abc'), 'ba7816bf8f01cfea');
  const labels = ownLabels('violence-tweets');
  assert.ok(labels.size > 4000, `${labels.size} labels`);
  for (const [key, label] of labels) assert.ok(/^[0-9a-f]{16}$/.test(key) && (label === 0 || label === 1), `${key} ${label}`);
  const violent = [...labels.values()].filter((label) => label === 1).length;
  assert.ok(violent > 100 && violent < labels.size / 5, `${violent} labelled violent`);
});

test('narrowed eliminationist words: calls to wipe out people count, their words in news, cooking, computing or slang do not', async () => {
  const { NARROW_ELIMINATIONIST } = await import('../../../training/train-all.ts');
  for (const violent of ['They should all be exterminated', 'purge them from the city', 'all of them need to be hung', 'string em up', 'gas them', 'there needs to be a cull', 'You should be lynched', 'we should eradicate them', 'wipe them out'])
    assert.ok(NARROW_ELIMINATIONIST.test(violent), violent);
  for (const other of ['Diversity is code for white genocide', 'Time to call the exterminator', 'the exterminator came on Monday', 'the genocide of 1994 is taught in schools', 'I got gassed up for the match', 'he was hung up on his ex', 'extinguish the campfire before you leave', 'the slaughterhouse closed', 'cull the herd', 'purge the cache', 'liquidation sale this weekend', 'he tried to hang themselves', 'that tradition should die out'])
    assert.ok(!NARROW_ELIMINATIONIST.test(other), other);
});

test('a scoped corpus message trains only the models of its scope, as a source kept out of the word vectors', async () => {
  const { corpusSources } = await import('../../../training/train-all.ts');
  const message = (text: string, labels: CorpusPolicy[], scope?: CorpusPolicy[]): CorpusMessage => ({
    text, labels, lang: 'es', platform: 'chat', kind: labels.length > 0 ? 'harmful' : 'hard_negative', topic: 't', file: 'f.jsonl', line: 1, split: 'train', ...(scope ? { scope } : {}),
  });
  const all = [
    message('te voy a matar', ['violence', 'toxicity'], ['toxicity']),
    message('te mato en la próxima partida', [], ['toxicity']),
    message('eres un inútil', ['toxicity']),
  ];
  const texts = (sources: Array<{ texts: string[]; scoped?: boolean }>, scoped: boolean) => sources.filter((s) => (s.scoped === true) === scoped).flatMap((s) => s.texts);
  const toxicity = corpusSources('toxicity', all);
  assert.deepEqual(texts(toxicity.positives, true), ['te voy a matar']);
  assert.deepEqual(texts(toxicity.negatives, true), ['te mato en la próxima partida']);
  assert.deepEqual(texts(toxicity.positives, false), ['eres un inútil']);
  const violence = corpusSources('violence', all);
  assert.deepEqual([...violence.positives, ...violence.negatives].flatMap((s) => s.texts), ['eres un inútil']);
});

