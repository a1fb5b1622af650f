import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonNestedDeeperThan } from './json-depth.ts';

const nested = (levels: number, leaf = '1'): string => {
  let text = leaf;
  for (let i = 0; i < levels; i++) text = i % 2 === 0 ? `{"a":${text}}` : `[${text}]`;
  return text;
};

test('objects and arrays count alike, up to the limit and one beyond it', () => {
  assert.equal(jsonNestedDeeperThan(nested(64)), false);
  assert.equal(jsonNestedDeeperThan(nested(65)), true);
  assert.equal(jsonNestedDeeperThan(nested(20_000)), true);
  assert.equal(jsonNestedDeeperThan(nested(4, 'null'), 3), true);
  assert.equal(jsonNestedDeeperThan(nested(4, 'null'), 4), false);
});

test('siblings do not add up: only the depth of one path counts', () => {
  const wide = `[${Array.from({ length: 200 }, () => nested(10)).join(',')}]`;
  assert.equal(jsonNestedDeeperThan(wide, 11), false);
  assert.equal(jsonNestedDeeperThan(wide, 10), true);
});

test('brackets and escaped quotes inside strings are text, not nesting', () => {
  const brackets = JSON.stringify({ text: '{'.repeat(500) + '[\\"'.repeat(300) + '"', after: { b: 1 } });
  assert.equal(jsonNestedDeeperThan(brackets, 2), false);
  assert.equal(jsonNestedDeeperThan(brackets, 1), true);
  const keyed = JSON.stringify({ ['{['.repeat(200)]: [[1]] });
  assert.equal(jsonNestedDeeperThan(keyed, 3), false);
  assert.equal(jsonNestedDeeperThan(keyed, 2), true);
  // A string ending in a backslash: its closing quote follows an escaped backslash, not an escaped quote.
  const backslashed = JSON.stringify({ a: 'x\\', b: 'y\\\\', c: [['{']] });
  assert.equal(jsonNestedDeeperThan(backslashed, 3), false);
  assert.equal(jsonNestedDeeperThan(backslashed, 2), true);
});
