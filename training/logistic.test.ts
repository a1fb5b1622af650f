import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LazyAverage, mulberry32, trainLogistic, type TrainingExample } from './logistic.ts';
import type { TextFeatures } from '../src/core/classifiers/features.ts';

test('the lazy average equals the mean of the values after every step', () => {
  const random = mulberry32(7);
  const size = 6;
  const values = new Float64Array(size).map(() => random());
  const eager = new Float64Array(size);
  const lazy = new LazyAverage(size);
  const steps = 40;
  for (let s = 0; s < steps; s++) {
    // Each step changes a few components, some twice, as an example with repeated features would.
    for (let k = 0; k < 3; k++) {
      const index = Math.floor(random() * size);
      lazy.beforeChange(index, values[index]!);
      values[index] = values[index]! + random() - 0.5;
    }
    lazy.step();
    for (let j = 0; j < size; j++) eager[j]! += values[j]! / steps;
  }
  lazy.finish(values);
  for (let j = 0; j < size; j++) assert.ok(Math.abs(values[j]! - eager[j]!) < 1e-12, `component ${j}: ${values[j]} vs ${eager[j]}`);
});

test('averaging no epochs keeps the last iterate; averaging changes it', () => {
  const example = (index: number, label: 0 | 1): TrainingExample => ({
    features: { indices: new Int32Array([index, 7]), values: new Float32Array([1, 0.5]), length: 2 } as unknown as TextFeatures,
    label,
  });
  const examples = [example(1, 1), example(2, 0), example(1, 1), example(3, 0), example(2, 0)];
  const plain = trainLogistic(examples, { seed: 3, epochs: 4 });
  const none = trainLogistic(examples, { seed: 3, epochs: 4, averageEpochs: 0 });
  assert.deepEqual([...none.weights.subarray(0, 8)], [...plain.weights.subarray(0, 8)]);
  assert.equal(none.bias, plain.bias);
  const averaged = trainLogistic(examples, { seed: 3, epochs: 4, averageEpochs: 2 });
  assert.notEqual(averaged.weights[1], plain.weights[1]);
  // The mean of iterates that all move the positive feature up stays below the last of them.
  assert.ok(averaged.weights[1]! > 0 && averaged.weights[1]! < plain.weights[1]!);
});
