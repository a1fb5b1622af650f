import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeFeatures, HASH_SIZE } from '../src/core/classifiers/features.ts';
import { compressHead, decodeHead, DENSE_INPUTS, encodeHead } from './mlp-head.ts';

/** A head of 2 hidden units reading dense inputs 0 and 1 only (all other weights zero). */
function smallHead(blend = 1) {
  const hidden = 2;
  const w1 = new Float32Array(DENSE_INPUTS * hidden);
  // input 0 → units (1, -1); input 1 → units (0.5, 2)
  w1[0] = 1;
  w1[1] = -1;
  w1[2] = 0.5;
  w1[3] = 2;
  return { hidden, w1, b1: new Float32Array([0.25, -0.5]), w2: new Float32Array([2, -3]), b2: 0.125, blend };
}

const withDense = (pairs: Array<[number, number]>) => {
  const base = computeFeatures('x');
  const indices = new Int32Array([5, ...pairs.map(([d]) => HASH_SIZE + d)]);
  const values = new Float32Array([7, ...pairs.map(([, v]) => v)]);
  return { ...base, indices, values, length: indices.length };
};

test('a small head computes its forward pass by hand', () => {
  const head = decodeHead('small', compressHead(encodeHead(smallHead(0.5))));
  // x0 = 1, x1 = 2 (the hashed feature 5 is not an input):
  // h1 = relu(0.25 + 1·1 + 0.5·2) = 2.25; h2 = relu(-0.5 − 1·1 + 2·2) = 2.5
  // logit = 0.125 + 2·2.25 − 3·2.5 = −2.875
  assert.equal(head.logit(withDense([[0, 1], [1, 2]])), -2.875);
  assert.equal(head.contribution(withDense([[0, 1], [1, 2]])), -1.4375);
  // x0 = 3: h1 = 3.25, h2 = relu(-3.5) = 0 → 0.125 + 6.5 = 6.625
  assert.equal(head.logit(withDense([[0, 3]])), 6.625);
  // No dense input: h1 = 0.25, h2 = 0 → 0.625
  assert.equal(head.logit({ ...computeFeatures('x'), indices: new Int32Array([5]), values: new Float32Array([1]), length: 1 }), 0.625);
});

test('the same weights encode to the same bytes, and scoring a text twice gives the same logit', () => {
  assert.deepEqual(encodeHead(smallHead()), encodeHead(smallHead()));
  const head = decodeHead('small', compressHead(encodeHead(smallHead())));
  const features = computeFeatures('they should all be shot');
  assert.equal(head.logit(features), head.logit(features));
});

test('the loader rejects a corrupt head file', () => {
  const payload = encodeHead(smallHead());
  assert.throws(() => decodeHead('garbage', Buffer.from('not a head file')), /head garbage/);
  const badMagic = Buffer.from(payload);
  badMagic.writeUInt32LE(0, 0);
  assert.throws(() => decodeHead('magic', compressHead(badMagic)), /bad format/);
  const otherInputs = Buffer.from(payload);
  otherInputs.writeUInt32LE(DENSE_INPUTS + 1, 4);
  assert.throws(() => decodeHead('inputs', compressHead(otherInputs)), /dense features/);
  assert.throws(() => decodeHead('short', compressHead(payload.subarray(0, payload.length - 4))), /truncated/);
  const notFinite = Buffer.from(payload);
  notFinite.writeFloatLE(Number.NaN, 20);
  assert.throws(() => decodeHead('nan', compressHead(notFinite)), /non-finite/);
});
