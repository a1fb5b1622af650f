import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkStorableStrings, isStorable, mayHoldUnstorable, storableCopy, toStorable } from './storable-strings.ts';

test('only escapes of U+0000 and of surrogates make a JSON text worth walking', () => {
  assert.equal(mayHoldUnstorable(JSON.stringify({ text: 'plain ünïcödé 🎉 \\ backslash' })), false);
  // A backslash written before "u0000" may match too; the walk then finds nothing to refuse.
  const written = { text: 'the escape \\u0000 as written text' };
  assert.equal(mayHoldUnstorable(JSON.stringify(written)), true);
  assert.deepEqual(checkStorableStrings(written, () => false), []);
  assert.equal(mayHoldUnstorable(JSON.stringify({ text: 'a\u0000b' })), true);
  assert.equal(mayHoldUnstorable(JSON.stringify({ text: 'cut \ud83d' })), true);
  assert.equal(mayHoldUnstorable('{"text":"\\uD83D\\uDE00"}'), true);
});

test('storable means no U+0000 and no unpaired surrogate; repair keeps the length', () => {
  assert.equal(isStorable('emoji 🎉 and ж'), true);
  assert.equal(isStorable('a\u0000'), false);
  assert.equal(isStorable('\udc00x'), false);
  assert.equal(isStorable('x\ud83d'), false);
  const repaired = toStorable('a\u0000b\ud83dc🎉');
  assert.equal(repaired, 'a\uFFFDb\uFFFDc🎉');
  assert.equal(repaired.length, 'a\u0000b\ud83dc🎉'.length);
});

test('unstorable strings and keys are reported by JSON pointer unless their path is exempt', () => {
  const body = {
    content: { type: 'text', text: 'cut \ud83d' },
    metadata: { 'a/b': 'x\u0000', list: ['ok', '\udc00'], 'k\u0000~': 1 },
    fine: 'fine 🎉',
  };
  const issues = checkStorableStrings(body, (path) => path.join('/') === 'content/text');
  assert.equal(body.content.text, 'cut \ud83d', 'an exempt string is left for the analysis to see');
  assert.deepEqual(
    issues.map((i) => i.path),
    ['/metadata/a~1b', '/metadata/list/1', '/metadata/k\uFFFD~0'],
  );
  assert.equal(body.metadata['a/b'], 'x\u0000', 'a refused string is left as it was');
  assert.deepEqual(checkStorableStrings({ text: 'all fine 🎉', n: [1, null, true] }, () => false), []);
  assert.deepEqual(checkStorableStrings('\u0000', () => false).map((i) => i.path), ['/']);
});

test('at most twenty issues are listed', () => {
  const issues = checkStorableStrings(Array.from({ length: 50 }, () => '\u0000'), () => false);
  assert.equal(issues.length, 20);
});

test('a storable copy repairs every string and key, leaves the original alone, and keeps other values', () => {
  const original = { text: 'pass\u0000word', list: ['ok', 'x\ud800', 3, null, true], 'k\u0000': { deep: '\udc00' } };
  const copy = storableCopy(original);
  assert.deepEqual(copy, { text: 'pass\uFFFDword', list: ['ok', 'x\uFFFD', 3, null, true], 'k\uFFFD': { deep: '\uFFFD' } });
  assert.equal(original.text, 'pass\u0000word');
  assert.doesNotThrow(() => JSON.parse(JSON.stringify(copy)));
  assert.ok(isStorable(JSON.stringify(copy)));
});
