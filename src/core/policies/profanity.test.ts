import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Policy } from '../policy.ts';
import { obscenityScore, withObscenity } from './profanity.ts';

test('profane words score high, including disguised spellings', () => {
  assert.ok(obscenityScore('what the fuck is this') >= 0.8);
  assert.ok(obscenityScore('you are a fuuuuckin idiot') >= 0.8);
  assert.ok(obscenityScore('this is bullsh!t') >= 0.8);
});

test('ordinary text, including words that contain profane substrings, scores zero', () => {
  assert.equal(obscenityScore('The class assistant passed the assessment in Scunthorpe.'), 0);
  assert.equal(obscenityScore(''), 0);
  assert.equal(obscenityScore('Have a lovely day!'), 0);
});

test('several distinct profanities score higher than one', () => {
  assert.ok(obscenityScore('fuck this shit') > obscenityScore('fuck this'));
});

test('the combined policy keeps the model score unless the matcher sees more', () => {
  const model: Policy = { id: 'profanity', type: 'classifier', severity: 0.3, defaultThreshold: 0.5, evaluate: () => ({ probability: 0.3, labels: [{ id: 'x', probability: 0.3 }] }) };
  const combined = withObscenity(model);
  const ctx = { fieldKey: null, original: '', analyses: new Map() };
  assert.equal((combined.evaluate('a calm sentence', { id: 'profanity', flag: true }, ctx) as { probability: number }).probability, 0.3);
  const raised = combined.evaluate('fuuuuckin hell', { id: 'profanity', flag: true }, ctx) as { probability: number; labels: unknown[] };
  assert.equal(raised.probability, 0.8);
  assert.equal(raised.labels.length, 1);
});
