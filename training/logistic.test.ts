import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LazyAverage, mulberry32 } from './logistic.ts';

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
