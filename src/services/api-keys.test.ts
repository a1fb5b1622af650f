import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyUseTracker } from './api-keys.ts';
import type { Queryable } from '../db/database.ts';

/** A store that records the statements it is sent. */
function recordingStore() {
  const sent: { sql: string; params: unknown[] }[] = [];
  const db = { query: async (sql: string, params: unknown[] = []) => (sent.push({ sql, params }), { rows: [], rowCount: 0 }) } as unknown as Queryable;
  return { db, sent };
}

test('last use: one statement per flush with the latest time per key, nothing when nothing was noted', async () => {
  const { db, sent } = recordingStore();
  const tracker = new KeyUseTracker(db);
  await tracker.flush();
  assert.equal(sent.length, 0);
  tracker.note('key_a', 1_000);
  tracker.note('key_b', 1_500);
  tracker.note('key_a', 2_000);
  await tracker.flush();
  assert.equal(sent.length, 1);
  assert.match(sent[0]!.sql, /GREATEST/);
  assert.deepEqual(JSON.parse(sent[0]!.params[0] as string), [{ id: 'key_a', at: 2_000 }, { id: 'key_b', at: 1_500 }]);
  await tracker.flush();
  assert.equal(sent.length, 1, 'flushed notes are not sent again');
});
