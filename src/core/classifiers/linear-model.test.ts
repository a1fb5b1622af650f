import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { computeFeatures, FEATURE_COUNT } from './features.ts';
import { decodeModel, decompressModel, encodeModel, LinearModel, ModelTable } from './linear-model.ts';
import { MODELS_DIR } from './paths.ts';

// The int8 codes with their float32 levels must score exactly as float32 weights decoded from the same file.
const floatMargin = (payload: Buffer, indices: Int32Array, values: Float32Array, length: number): number => {
  const scale = payload.readFloatLE(8);
  const weights = new Float32Array(FEATURE_COUNT);
  for (let i = 0; i < FEATURE_COUNT; i++) weights[i] = payload.readInt8(16 + i) * scale;
  let sum = payload.readFloatLE(12);
  for (let i = 0; i < length; i++) sum += weights[indices[i]!]! * values[i]!;
  return sum;
};

test('a shipped model scores exactly as its float32 weights would', () => {
  const payload = decompressModel(readFileSync(resolve(MODELS_DIR, 'hate.oml')));
  const model = decodeModel('hate', payload);
  for (const text of ['I will hurt you', 'what a lovely garden', 'they are all vermin and should leave', 'win a free prize now http://x.example']) {
    const features = computeFeatures(text);
    assert.equal(model.margin(features), floatMargin(payload, features.indices, features.values, features.length), text);
  }
});

test('every code, -128 included, decodes to its float32 level', () => {
  const weights = new Float32Array(FEATURE_COUNT);
  weights[0] = 1;
  weights[1] = -1;
  weights[2] = 0.5;
  const payload = encodeModel(weights, 0.25);
  payload.writeInt8(-128, 16 + 3); // not written by encodeModel, but a file may hold it
  const model = decodeModel('synthetic', payload);
  const indices = new Int32Array([0, 1, 2, 3]);
  const values = new Float32Array([1, 1, 1, 1]);
  assert.equal(model.margin({ ...computeFeatures('x'), indices, values, length: 4 }), floatMargin(payload, indices, values, 4));
});

test('a long text with sentence groups is scored by its best group alone, not by the whole text', () => {
  const text = 'The weather was lovely this afternoon and we had lunch in the garden. Then we walked along the river and fed the ducks. Later we cooked pasta and watched a film together.';
  const features = computeFeatures(text);
  assert.ok(features.sentenceGroups.length >= 2);
  const weights = new Float64Array(FEATURE_COUNT);
  // A model that rewards every feature of the whole text: the whole text outscores each of its groups.
  for (let i = 0; i < features.length; i++) weights[features.indices[i]!] = 0.01;
  const model = decodeModel('test', encodeModel(weights, -3));
  const best = Math.max(...features.sentenceGroups.map((g) => model.margin(g)));
  assert.ok(model.margin(features) > best);
  assert.equal(model.maxSentenceProbability(features), 1 / (1 + Math.exp(-best)));
});

test('a model table scores every slot as its model does, on the word path and on the big-endian byte path', () => {
  // Five features and six models: two blocks, the second half empty; codes cover -128..127 and repeats.
  const featureCount = 5;
  const models = Array.from({ length: 6 }, (_, slot) => {
    const codes = new Int8Array(featureCount);
    for (let i = 0; i < featureCount; i++) codes[i] = ((slot * 53 + i * 97) % 256) - 128;
    const levels = new Float32Array(256);
    for (let code = -128; code <= 127; code++) levels[code + 128] = code * (0.01 + slot / 1000);
    return new LinearModel(`m${slot}`, codes, levels, slot / 7 - 0.3);
  });
  const table = new ModelTable([...models, null]);
  const features = { ...computeFeatures('x'), indices: new Int32Array([4, 0, 3, 3, 1]), values: new Float32Array([0.5, -1.25, 2, 1, 0.75]), length: 5 };
  for (const block of [0, 1]) {
    const byWords = new Float64Array(ModelTable.SLOTS);
    const byBytes = new Float64Array(ModelTable.SLOTS);
    table.block(features, block, byWords);
    table.blockByBytes(features, block, byBytes);
    for (let slot = block * 4; slot < block * 4 + 4; slot++) {
      const expected = models[slot] ? models[slot]!.margin(features) : 0;
      assert.equal(byWords[slot], expected, `word path, slot ${slot}`);
      assert.equal(byBytes[slot], expected, `byte path, slot ${slot}`);
    }
  }
});
