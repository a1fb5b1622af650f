import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeFeatures } from '../src/core/classifiers/features.ts';
import type { TrainingExample } from './logistic.ts';
import { lengthBalanced, lengthBand, MAX_LENGTH_FACTOR } from './length-balance.ts';

const SHORT = computeFeatures('see you soon');
const LONG = computeFeatures('we walked along the river after lunch and talked about the new library, the weather and the match on sunday');

const example = (features: typeof SHORT, label: 0 | 1, weight = 1): TrainingExample => ({ features, label, weight });
const positiveShare = (examples: TrainingExample[], band: number): number => {
  let positive = 0;
  let all = 0;
  for (const e of examples) {
    if (lengthBand(e.features.tokens.length) !== band) continue;
    all += e.weight ?? 1;
    if (e.label === 1) positive += e.weight ?? 1;
  }
  return positive / all;
};

test('length bands split at 4, 8, 16, 32 and 64 tokens', () => {
  assert.deepEqual([0, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 500].map(lengthBand), [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
  assert.equal(lengthBand(SHORT.tokens.length), 0);
  assert.equal(lengthBand(LONG.tokens.length), 3);
});

test('each band ends with the overall share of positives, and keeps its total weight', () => {
  // Short: 1 positive in 10; long: 3 positives in 6. Overall 4 in 16 = 0.25.
  const examples = [
    example(SHORT, 1),
    ...Array.from({ length: 9 }, () => example(SHORT, 0)),
    ...Array.from({ length: 3 }, () => example(LONG, 1)),
    ...Array.from({ length: 3 }, () => example(LONG, 0)),
  ];
  const balanced = lengthBalanced(examples);
  const shortBand = lengthBand(SHORT.tokens.length);
  const longBand = lengthBand(LONG.tokens.length);
  assert.ok(Math.abs(positiveShare(balanced, shortBand) - 0.25) < 1e-9);
  assert.ok(Math.abs(positiveShare(balanced, longBand) - 0.25) < 1e-9);
  const total = (band: number, list: TrainingExample[]) => list.filter((e) => lengthBand(e.features.tokens.length) === band).reduce((s, e) => s + (e.weight ?? 1), 0);
  assert.ok(Math.abs(total(shortBand, balanced) - 10) < 1e-9);
  assert.ok(Math.abs(total(longBand, balanced) - 6) < 1e-9);
  // The input is left as it was.
  assert.ok(examples.every((e) => e.weight === 1));
});

test('a factor never passes the cap, and a band with one class keeps its weights', () => {
  const examples = [example(SHORT, 1), ...Array.from({ length: 99 }, () => example(SHORT, 0)), example(LONG, 1, 2), example(LONG, 1, 2)];
  const balanced = lengthBalanced(examples);
  const shortPositive = balanced[0]!.weight!;
  assert.ok(shortPositive <= MAX_LENGTH_FACTOR + 1e-12 && shortPositive > 1);
  assert.deepEqual(balanced.slice(-2).map((e) => e.weight), [2, 2]);
});
