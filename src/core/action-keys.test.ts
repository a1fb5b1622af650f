import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionKeySpellings, builtInActionKey, BUILT_IN_ACTION_KEYS, LEGACY_BUILT_IN_KEYS } from './action-keys.ts';

test('a built-in key and its legacy alias name the same built-in action; other keys none', () => {
  for (const key of BUILT_IN_ACTION_KEYS) {
    assert.equal(builtInActionKey(key), key);
    assert.equal(builtInActionKey(LEGACY_BUILT_IN_KEYS[key]), key);
  }
  assert.equal(builtInActionKey('Block'), null);
  assert.equal(builtInActionKey('author_block'), null);
  assert.equal(builtInActionKey('escalate'), null);
  assert.equal(new Set(Object.values(LEGACY_BUILT_IN_KEYS)).size, BUILT_IN_ACTION_KEYS.length);
});

test('spellings add the other name of built-in keys and keep ids and custom keys as given', () => {
  assert.deepEqual(actionKeySpellings(['reject', 'act_1', 'escalate']).sort(), ['ITEM_REJECT', 'act_1', 'escalate', 'reject'].sort());
  assert.deepEqual(actionKeySpellings(['AUTHOR_BLOCK', 'block']).sort(), ['AUTHOR_BLOCK', 'block']);
  assert.deepEqual(actionKeySpellings([]), []);
});
