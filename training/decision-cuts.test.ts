import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CAUGHT_TARGET, LEFT_ALONE_TARGET, REALISTIC_CAUGHT_FLOOR, TARGET_LANGUAGES, highestThreshold, movedDecisionCut, policyThresholdAt, realisticDevThresholds } from './decision-cuts.ts';
import { SEALED_LANGUAGES, SEALED_TARGETS } from '../scripts/eval-realistic.ts';

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

test('a moved decision cut makes the model flag exactly where the shipped probability reached the threshold', () => {
  assert.equal(movedDecisionCut(0.6, 0.5).toFixed(12), (0.6).toFixed(12));
  for (const [cut, threshold] of [[0.772, 0.64], [0.389, 0.3], [0.5, 0.9]] as const) {
    const moved = movedDecisionCut(cut, threshold);
    for (const modelProbability of [0.05, 0.3, 0.5, 0.7, 0.85, 0.97]) {
      const shippedBefore = sigmoid(logit(modelProbability) - logit(cut));
      const shippedAfter = sigmoid(logit(modelProbability) - logit(moved));
      assert.equal(shippedAfter >= 0.5, shippedBefore >= threshold - 1e-12, `cut ${cut}, threshold ${threshold}, p ${modelProbability}`);
    }
  }
});

test('the realistic dev thresholds keep the overall shares as far above both targets as they can, above each catch floor', () => {
  const spread = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / Math.max(n - 1, 1));
  // Cleanly separated: any threshold in the gap catches everything and flags nothing.
  const clean = { policy: 'clean', harmful: spread(20, 0.7, 0.95), benign: spread(50, 0.01, 0.3), movable: true };
  // Six benign judgements score among the lower harm: at 0.5, 94 % of 100 benign are left alone, below the 95 % target.
  const noisy = { policy: 'noisy', harmful: spread(20, 0.6, 0.98), benign: [...spread(44, 0.01, 0.3), ...spread(6, 0.62, 0.68)], movable: true };
  const words = { policy: 'words', harmful: [0.9], benign: [0.1], movable: false };
  const thresholds = realisticDevThresholds([clean, noisy, words]);
  assert.ok(thresholds.get('clean')! > 0.3 && thresholds.get('clean')! <= 0.7, `clean at ${thresholds.get('clean')}`);
  assert.equal(thresholds.get('words'), 0.5);
  const noisyCut = thresholds.get('noisy')!;
  const caught = (20 + 1 + noisy.harmful.filter((p) => p >= noisyCut).length) / 41;
  const leftAlone = (50 + 1 + noisy.benign.filter((p) => p < noisyCut).length) / 101;
  // Every other threshold for the noisy policy keeps a smaller least margin over 85 % caught and 95 % left alone.
  const least = (cut: number) => Math.min((21 + noisy.harmful.filter((p) => p >= cut).length) / 41 - 0.85, (51 + noisy.benign.filter((p) => p < cut).length) / 101 - 0.95);
  assert.ok(leftAlone >= 0.95 && caught >= 0.85, `caught ${caught}, left alone ${leftAlone}`);
  for (const other of spread(200, 0.01, 0.99)) assert.ok(least(other) <= least(noisyCut) + 1e-12, `${other} beats ${noisyCut}`);
  assert.ok(noisy.harmful.filter((p) => p >= noisyCut).length >= 16, 'the catch floor holds');
  // A policy whose cut may not rise stays at 0.5 however noisy.
  assert.equal(realisticDevThresholds([{ ...noisy, policy: 'hate' }, clean]).get('hate'), 0.5);
  // When keeping benign alone would need catching less than 80 %, the floor wins.
  const overlapping = { policy: 'overlapping', harmful: spread(20, 0.5, 0.95), benign: spread(20, 0.5, 0.95), movable: true };
  const floorCut = realisticDevThresholds([overlapping]).get('overlapping')!;
  assert.ok(overlapping.harmful.filter((p) => p >= floorCut).length >= 16);
});

test('the per-language targets keep a cut from rising where it would give up one language\'s harm', () => {
  const spread = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / Math.max(n - 1, 1));
  // English harm scores high, the Spanish harm just above 0.5; five English look-alikes score 0.60–0.62.
  const mixed = { policy: 'mixed', harmful: [...spread(40, 0.8, 0.95), ...spread(10, 0.55, 0.65)], benign: [...spread(95, 0.01, 0.3), ...spread(5, 0.6, 0.62), ...spread(20, 0.01, 0.3)], movable: true };
  // Counted overall only, clearing the five false flags is worth the Spanish catches it costs.
  assert.ok(realisticDevThresholds([mixed]).get('mixed')! > 0.62);
  const languages = { harmfulLanguages: [...Array<string>(40).fill('en'), ...Array<string>(10).fill('es')], benignLanguages: [...Array<string>(100).fill('en'), ...Array<string>(20).fill('es')] };
  assert.equal(realisticDevThresholds([{ ...mixed, ...languages }]).get('mixed'), 0.5);
});

test("a policy's limits bound the search, not its result: the best threshold under the cap, the catch floor before the range", () => {
  const spread = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / Math.max(n - 1, 1));
  // hate may not rise above 0.5: at two catches per false flag, catching the eight at 0.4 beats stopping at the cap.
  const hate = { policy: 'hate', harmful: [...Array<number>(40).fill(0.9), ...Array<number>(8).fill(0.4)], benign: [...spread(95, 0.01, 0.2), ...Array<number>(5).fill(0.55)], movable: true };
  const capped = policyThresholdAt(hate, 2);
  assert.ok(capped <= 0.4 && capped > 0.2, `hate at ${capped}`);
  // Harm scoring under the range's lower end: the catch floor still holds.
  const faint = { policy: 'faint', harmful: spread(10, 0.05, 0.1), benign: spread(50, 0.001, 0.01), movable: true };
  const low = policyThresholdAt(faint, 64);
  assert.ok(faint.harmful.filter((p) => p >= low).length >= 8, `faint at ${low}`);
  // No harm to catch: the cut stays.
  assert.equal(policyThresholdAt({ policy: 'quiet', harmful: [], benign: spread(10, 0.6, 0.9), movable: true }, 64), 0.5);
});

test('a policy that may not rise is capped where its corpus cut would flag', () => {
  // Trained with 0.946 instead of its corpus cut 0.703: the cap is the threshold that flags as 0.703 would.
  const cap = highestThreshold('self_harm', 0.703, 0.946);
  assert.ok(cap > 0.11 && cap < 0.13, `cap ${cap}`);
  assert.ok(Math.abs(movedDecisionCut(0.946, cap) - 0.703) < 1e-12);
  assert.ok(Math.abs(highestThreshold('self_harm', 0.703, 0.703) - 0.5) < 1e-12);
  assert.equal(highestThreshold('toxicity', 0.772, 0.9), 0.95);
});

test('the targets the cuts balance are the sealed sets\' targets', () => {
  assert.equal(CAUGHT_TARGET, SEALED_TARGETS.caught);
  assert.equal(LEFT_ALONE_TARGET, SEALED_TARGETS.leftAlone);
  assert.ok(REALISTIC_CAUGHT_FLOOR > SEALED_TARGETS.policyCaught);
  assert.deepEqual([...TARGET_LANGUAGES], SEALED_LANGUAGES.filter((language) => language !== 'en'));
});
