import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from './ids.ts';

test('ids carry their prefix, sort by creation time and do not repeat', () => {
  const ids = Array.from({ length: 5000 }, () => newId('cnt'));
  for (const id of ids) assert.match(id, /^cnt_[0-9a-f]{28}$/);
  assert.equal(new Set(ids).size, ids.length);
  const first = newId('x');
  const later = (() => {
    const until = Date.now() + 2;
    while (Date.now() < until);
    return newId('x');
  })();
  assert.ok(first < later);
});
