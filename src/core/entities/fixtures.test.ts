import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { detectPii, detectUrlEntities } from './index.ts';

const directory = new URL('./fixtures/', import.meta.url);
const negatives = readFileSync(new URL('negative-prose.txt', directory), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const positives = JSON.parse(readFileSync(new URL('positive.json', directory), 'utf8')) as Array<{ text: string; entities: Array<[string, string]> }>;

test('the negative prose set has at least 200 sentences and yields no entity', () => {
  assert.ok(negatives.length >= 200, `only ${negatives.length} sentences`);
  const found = negatives.flatMap((sentence) =>
    [...detectPii(sentence, () => true), ...detectUrlEntities(sentence, () => true)].map((entity) => `${entity.entity}: ${sentence.slice(entity.start, entity.end)} (${sentence})`),
  );
  assert.deepEqual(found, []);
});

test('every labelled positive entity is found with its exact span', () => {
  const missing: string[] = [];
  for (const { text, entities } of positives) {
    const detected = detectPii(text, () => true).map((entity) => `${entity.entity}:${text.slice(entity.start, entity.end)}`);
    for (const [entity, match] of entities) if (!detected.includes(`${entity}:${match}`)) missing.push(`${entity}:${match} in ${text}`);
  }
  assert.deepEqual(missing, []);
});
