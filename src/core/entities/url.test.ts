import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectUrlEntities } from './index.ts';

const allOn = () => true;
const links = (text: string): string[] => detectUrlEntities(text, allOn).map((entity) => text.slice(entity.start, entity.end));

test('a link followed by 100,000 closing brackets is trimmed in linear time', () => {
  const n = 100_000;
  for (const text of ['http://a' + ')'.repeat(n), 'see example.com/' + ')'.repeat(n), 'http://a' + ']'.repeat(n), 'http://a' + '}.'.repeat(n / 2), 'http://a(' + ')'.repeat(n)]) {
    const started = performance.now();
    const found = links(text);
    const ms = performance.now() - started;
    // 60–73 s when the brackets left in the link were counted again for each one taken off.
    assert.ok(ms < 500, `${JSON.stringify(text.slice(0, 12))}…: ${ms.toFixed(0)} ms`);
    assert.equal(found.length, 1);
  }
  assert.deepEqual(links('http://a' + ')'.repeat(n)), ['http://a']);
  assert.deepEqual(links('http://a(' + ')'.repeat(n)), ['http://a()']);
});

test('trailing punctuation and unopened brackets come off a link, opened ones stay', () => {
  assert.deepEqual(links('(see https://en.wikipedia.org/wiki/Foo_(bar))'), ['https://en.wikipedia.org/wiki/Foo_(bar)']);
  assert.deepEqual(links('read https://example.org/a.'), ['https://example.org/a']);
  assert.deepEqual(links('["https://example.org/x]"]'), ['https://example.org/x']);
  assert.deepEqual(links('{https://example.org/{a}}.'), ['https://example.org/{a}']);
  assert.deepEqual(links('https://example.org/a(b)c).'), ['https://example.org/a(b)c']);
  assert.deepEqual(links('https://example.org/a((b))),!'), ['https://example.org/a((b))']);
  assert.deepEqual(links('https://example.org/a[1]]'), ['https://example.org/a[1]']);
  assert.deepEqual(links('https://example.org/a).).'), ['https://example.org/a']);
});
