import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { announceChange, listenForChanges, parseChange, type Change, type ChangeListener } from './change-notifications.ts';
import { openDatabase, type Database } from './database.ts';
import { createTestDatabaseUrl } from './testing.ts';

test('a notification names a known topic, or means "anything may have changed"', () => {
  assert.deepEqual(parseChange('{"topic":"channels","projectId":"proj_1"}'), { topic: 'channels', projectId: 'proj_1' });
  assert.deepEqual(parseChange('{"topic":"api_keys","projectId":null}'), { topic: 'api_keys', projectId: null });
  assert.deepEqual(parseChange('{"topic":"image_hash_lists","projectId":"proj_2"}'), { topic: 'image_hash_lists', projectId: 'proj_2' });
  assert.equal(parseChange('{"topic":"authors","projectId":"p"}'), null);
  assert.equal(parseChange('not json'), null);
  assert.equal(parseChange(undefined), null);
});

test('announcing on the embedded store is harmless (no other process can listen)', async () => {
  const db = await openDatabase({ databaseUrl: null, inMemory: true });
  try {
    await announceChange(db, 'wordlists', 'proj_1');
    await db.transaction((tx) => announceChange(tx, 'channels', null));
  } finally {
    await db.close();
  }
});

describe('LISTEN/NOTIFY between nodes', { skip: !process.env.DATABASE_URL && 'needs PostgreSQL (DATABASE_URL): the embedded store has no other process to notify' }, () => {
  let target: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
  let db: Database;
  let listener: ChangeListener;
  const heard: Change[] = [];
  let outages = 0;
  const waitFor = async (predicate: () => boolean, what: string) => {
    const deadline = Date.now() + 10_000;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`not heard within 10 s: ${what} (heard ${JSON.stringify(heard)})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  before(async () => {
    target = await createTestDatabaseUrl();
    db = await openDatabase({ databaseUrl: target.url, poolSize: 2 });
    listener = listenForChanges(target.url!, { onChange: (change) => heard.push(change), onConnectionLost: () => outages++, reconnectMs: 50 });
    // The first connection reports null: nothing heard before it can be trusted.
    await waitFor(() => heard.length === 1 && heard[0] === null && listener.connected, 'the first connection');
  });
  after(async () => {
    await listener?.close();
    await db?.close();
    await target?.drop();
  });

  test('a change announced by another connection is heard; a rolled-back one never is', async () => {
    heard.length = 0;
    await db.transaction(async (tx) => {
      await announceChange(tx, 'channels', 'proj_rolled_back');
      throw new Error('roll back');
    }).catch(() => {});
    await db.transaction((tx) => announceChange(tx, 'channels', 'proj_a'));
    await announceChange(db, 'api_keys', 'proj_b');
    await waitFor(() => heard.length >= 2, 'two changes');
    assert.deepEqual(heard, [
      { topic: 'channels', projectId: 'proj_a' },
      { topic: 'api_keys', projectId: 'proj_b' },
    ]);
  });

  test('a dropped LISTEN connection reconnects and reports that anything may have changed', async () => {
    heard.length = 0;
    const admin = new pg.Client({ connectionString: target.url! });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      assert.equal(rowCount, 1, 'one LISTEN connection');
    } finally {
      await admin.end();
    }
    await waitFor(() => heard.includes(null) && listener.connected, 'the reconnection');
    assert.equal(outages, 1, 'the outage is reported once');
    heard.length = 0;
    await announceChange(db, 'wordlists', 'proj_c');
    await waitFor(() => heard.length === 1, 'a change after the reconnection');
    assert.deepEqual(heard, [{ topic: 'wordlists', projectId: 'proj_c' }]);
  });
});
