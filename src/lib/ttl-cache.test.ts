import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TtlCache } from './ttl-cache.ts';

test('a full cache drops the entry written longest ago, not everything', () => {
  const cache = new TtlCache<number>(60_000, 3);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  cache.set('a', 10); // rewritten: now the newest
  cache.set('d', 4);
  assert.equal(cache.get('b'), undefined);
  assert.deepEqual(['a', 'c', 'd'].map((k) => cache.get(k)), [10, 3, 4]);
});

test('entries expire after their time', () => {
  const cache = new TtlCache<string>(1_000);
  cache.set('k', 'v', 0);
  assert.equal(cache.get('k', 999), 'v');
  assert.equal(cache.get('k', 1_000), undefined);
});
