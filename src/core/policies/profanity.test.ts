import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lexiconProfanityPolicy } from './profanity.ts';

const score = (text: string) =>
  (lexiconProfanityPolicy.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as { probability: number }).probability;

test('profane words score high, including disguised spellings', () => {
  assert.ok(score('what the fuck is this') >= 0.8);
  assert.ok(score('you are a fuuuuckin idiot') >= 0.8);
  assert.ok(score('sh1t happens') >= 0.8);
});

test('ordinary text, including words that contain profane substrings, scores zero', () => {
  assert.equal(score('The class assistant passed the assessment in Scunthorpe.'), 0);
  assert.equal(score(''), 0);
  assert.equal(score('Have a lovely day!'), 0);
});

test('several distinct profanities score higher than one', () => {
  assert.ok(score('fuck this shit') > score('fuck this'));
});
