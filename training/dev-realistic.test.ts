import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutsForLeftAlone } from './dev-realistic.ts';

test('the cut for a left-alone share flags no more benign judgements than the share allows', () => {
  const benign = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95].map((probability) => ({ policy: 'toxicity', harmful: false, probability }));
  const harmful = [0.55, 0.85, 0.92, 0.99].map((probability) => ({ policy: 'toxicity', harmful: true, probability }));
  const [at90] = cutsForLeftAlone([...benign, ...harmful], 0.9);
  assert.ok(at90!.cut > 0.9 && at90!.cut < 0.95, `cut ${at90!.cut}`);
  assert.equal(at90!.caught, 2);
  const [at80] = cutsForLeftAlone([...benign, ...harmful], 0.8);
  assert.ok(at80!.cut > 0.8 && at80!.cut < 0.9);
  assert.equal(at80!.caught, 3);
  const [all] = cutsForLeftAlone([...benign, ...harmful], 0);
  assert.equal(all!.caught, 4);
});
