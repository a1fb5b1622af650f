import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffConfig } from './config-diff.ts';

test('diffConfig: changed, added and removed leaves by JSON pointer; equal documents give nothing', () => {
  const before = { name: 'Chat', policies: [{ id: 'toxicity', flag: true }, { id: 'unicode_spoofing', flag: true, signals: { zalgo: true } }], tags: ['a', 'b'] };
  const after = { name: 'Chat', policies: [{ id: 'toxicity', flag: false, threshold: 0.7 }, { id: 'unicode_spoofing', flag: true, mode: 'shadow', signals: { zalgo: false } }], tags: ['a'] };
  assert.deepEqual(diffConfig(before, after), [
    { path: '/policies/0/flag', before: true, after: false },
    { path: '/policies/0/threshold', after: 0.7 },
    { path: '/policies/1/mode', after: 'shadow' },
    { path: '/policies/1/signals/zalgo', before: true, after: false },
    { path: '/tags', before: ['a', 'b'], after: ['a'] },
  ]);
  assert.deepEqual(diffConfig(before, structuredClone(before)), []);
  assert.deepEqual(diffConfig(null, { a: 1 }), [{ path: '/', before: null, after: { a: 1 } }]);
  assert.deepEqual(diffConfig({ 'a/b': 1 }, { 'a/b': 2 }), [{ path: '/a~1b', before: 1, after: 2 }]);
});

test('diffConfig: stops at the limit', () => {
  const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
  assert.equal(diffConfig({}, many, 10).length, 10);
});
