import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compare, fingerprint, loadTexts, FINGERPRINT_FILE, type Fingerprint } from '../../../bench/classifier-fingerprint.ts';

// Speed work on the featurizer, the models and the policies must not move a score: the features, every model's
// probabilities and every classifier policy's result for 4,716 texts (corpus lines and long texts joined from
// them) are hashed and compared with the hashes recorded before (bench/classifier-fingerprint.ts).
test('features, model probabilities and policy results are bit-for-bit those recorded', () => {
  const expected = JSON.parse(readFileSync(FINGERPRINT_FILE, 'utf8')) as Fingerprint;
  assert.deepEqual(compare(expected, fingerprint(loadTexts())), []);
});
