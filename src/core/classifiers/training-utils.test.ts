import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv } from '../../../training/csv.ts';
import { expandAlternations } from '../../../training/datasets.ts';
import { rocAuc, averagePrecision } from '../../../training/metrics.ts';

test('csv parser handles quotes, doubled quotes and embedded newlines', () => {
  assert.deepEqual(parseCsv('a,b\n"x, y","say ""hi""\nthere"\n'), [['a', 'b'], ['x, y', 'say "hi"\nthere']]);
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
