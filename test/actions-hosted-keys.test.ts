import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ModerationAPI, { BadRequestError, ConflictError } from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';
import { openDatabase } from '../src/db/database.ts';
import { createTestDatabaseUrl } from '../src/db/testing.ts';
import { migrate, MIGRATIONS_DIR } from '../src/db/migrate.ts';
import { getAction } from '../src/services/actions.ts';

const RUDE = 'What the fuck is wrong with you';

/**
 * The hosted product's documentation executes built-in actions by keys such as
 * `AUTHOR_BLOCK`; these calls are written as that documentation writes them.
 */
describe('built-in actions by the keys the hosted API documents (official SDK)', () => {
  let t: TestServer;
  let client: ModerationAPI;
  let queueId: string;
  const author = async (id: string) => (await t.request('GET', `/v1/authors/${id}`)).body;
  const audit = async (query: string) => (await t.request('GET', `/v1/audit-log?${query}`)).body.entries as Array<Record<string, unknown>>;

  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
    for (const [contentId, authorId] of [['h-1', 'uma'], ['h-2', 'vic'], ['h-3', 'wes'], ['h-4', 'xena'], ['h-5', 'yuri'], ['h-6', 'zoe']]) {
      await client.content.submit({ content: { type: 'text', text: `${RUDE} ${contentId}` }, contentId: contentId!, authorId: authorId! });
    }
    queueId = (await t.request('POST', '/v1/queue', { body: { name: 'Everything' } })).body.queue.id;
  });
  after(() => t.close());

  test('AUTHOR_BLOCK blocks the author, the value is the reason', async () => {
    assert.deepEqual(await client.actions.execute.execute({ actionKey: 'AUTHOR_BLOCK', authorIds: ['uma'], value: 'spam' }), { success: true });
    const uma = await author('uma');
    assert.equal(uma.status, 'blocked');
    assert.equal(uma.block.reason, 'spam');
    assert.equal(uma.block.until, null);
    const next = await client.content.submit({ content: { type: 'text', text: 'hello there' }, authorId: 'uma' });
    assert.equal(next.recommendation.action, 'reject');
    assert.ok(next.recommendation.reason_codes.includes('author_block'));
  });

  test('AUTHOR_BLOCK_TEMP suspends for duration milliseconds; without duration it is a 400 that changes nothing', async () => {
    const before = Date.now();
    await client.actions.execute.execute({ actionKey: 'AUTHOR_BLOCK_TEMP', authorIds: ['vic'], duration: 86_400_000 });
    const vic = await author('vic');
    assert.equal(vic.status, 'suspended');
    assert.ok(vic.block.until >= before + 86_400_000 && vic.block.until <= Date.now() + 86_400_000);
    await assert.rejects(client.actions.execute.execute({ actionKey: 'AUTHOR_BLOCK_TEMP', authorIds: ['wes'] }), BadRequestError);
    await assert.rejects(client.actions.execute.execute({ actionKey: 'AUTHOR_BLOCK_TEMP', authorIds: ['wes'], duration: 0 }), BadRequestError);
    assert.equal((await author('wes')).status, 'enabled');
    // The documented minimum of duration is 0; actions other than a temporary block ignore it.
    await client.actions.execute.execute({ actionKey: 'AUTHOR_WARN', authorIds: ['wes'], duration: 0, value: 'heads up' });
  });

  test('AUTHOR_UNBLOCK enables a blocked and a suspended author', async () => {
    await client.actions.execute.execute({ actionKey: 'AUTHOR_UNBLOCK', authorIds: ['uma', 'vic'] });
    for (const id of ['uma', 'vic']) {
      const a = await author(id);
      assert.equal(a.status, 'enabled', id);
      assert.equal(a.block, null, id);
    }
  });

  test('AUTHOR_REPORT counts a report, AUTHOR_WARN records a warning', async () => {
    await client.actions.execute.execute({ actionKey: 'AUTHOR_REPORT', authorIds: ['wes'], value: 'harassment' });
    assert.equal((await author('wes')).metrics.report_count, 1);
    await client.actions.execute.execute({ actionKey: 'AUTHOR_WARN', authorIds: ['wes'], value: 'first warning' });
    const entries = await audit('authorId=wes');
    assert.deepEqual(entries.map((e) => [e.actionKey, e.value]), [['AUTHOR_WARN', 'first warning'], ['AUTHOR_REPORT', 'harassment'], ['AUTHOR_WARN', 'heads up']]);
  });

  test('ITEM_REJECT and ITEM_ALLOW resolve the item in the given queue', async () => {
    await client.actions.execute.execute({ actionKey: 'ITEM_REJECT', contentIds: ['h-4'], queueId });
    await client.actions.execute.execute({ actionKey: 'ITEM_ALLOW', contentIds: ['h-5'], queueId });
    const items = await client.queue.items.list(queueId, { includeResolved: 'true', pageSize: 50 });
    assert.equal(items.items.find((i) => i.id === 'h-4')?.status, 'resolved');
    assert.equal(items.items.find((i) => i.id === 'h-5')?.status, 'resolved');
    assert.equal(items.items.find((i) => i.id === 'h-6')?.status, 'pending');
    // Item actions need items.
    await assert.rejects(client.actions.execute.execute({ actionKey: 'ITEM_REJECT', authorIds: ['zoe'] }), BadRequestError);
  });

  test('AUTHOR_DELETE deletes the author and their content', async () => {
    await client.actions.execute.execute({ actionKey: 'AUTHOR_DELETE', authorIds: ['zoe'] });
    assert.equal((await t.request('GET', '/v1/authors/zoe')).status, 404);
  });

  test('built-in actions are listed, retrieved and executed by id under those keys; the old keys are aliases', async () => {
    const listed = await client.actions.list();
    const block = listed.find((a) => a.key === 'AUTHOR_BLOCK')!;
    assert.equal(block.builtIn, true);
    assert.equal((await client.actions.retrieve('AUTHOR_BLOCK')).id, block.id);
    assert.equal((await client.actions.retrieve('block')).id, block.id);
    assert.equal((await client.actions.retrieve('temporary_block')).key, 'AUTHOR_BLOCK_TEMP');
    assert.equal(listed.filter((a) => a.builtIn).length, 8);
    await client.actions.execute.execute({ actionKey: 'block', authorIds: ['wes'], value: 'legacy key' });
    assert.equal((await author('wes')).status, 'blocked');
    await client.actions.execute.execute({ actionKey: 'unblock', authorIds: ['wes'] });
    assert.equal((await author('wes')).status, 'enabled');
  });

  test('queue filters and the audit log find an action by either spelling', async () => {
    await client.content.submit({ content: { type: 'text', text: RUDE }, contentId: 'h-7', authorId: 'ann' });
    await client.actions.execute.execute({ actionKey: 'reject', contentIds: ['h-7'] });
    const byNew = (await t.request('POST', '/v1/queue', { body: { name: 'Rejected', filter: { filteredActionIds: ['ITEM_REJECT'] } } })).body.queue;
    const byOld = (await t.request('POST', '/v1/queue', { body: { name: 'Rejected (old key)', filter: { filteredActionIds: ['reject'] } } })).body.queue;
    assert.equal(byNew.totalItemsCount, 2);
    assert.equal(byOld.totalItemsCount, 2);
    assert.equal((await audit('actionId=reject')).length, 2);
    assert.equal((await audit('actionId=ITEM_REJECT')).length, 2);
  });

  test('a custom action cannot take a built-in key or alias (409), in create and update', async () => {
    await assert.rejects(client.actions.create({ name: 'Mine', key: 'AUTHOR_UNBLOCK' }), ConflictError);
    await assert.rejects(client.actions.create({ name: 'Mine', key: 'allow' }), ConflictError);
    const mine = await client.actions.create({ name: 'Mine', key: 'mine' });
    await assert.rejects(client.actions.update(mine.id, { key: 'ITEM_ALLOW' }), ConflictError);
    assert.equal((await client.actions.retrieve(mine.id)).key, 'mine');
  });

  test('creates answer 200, as the hosted API does', async () => {
    assert.equal((await t.request('POST', '/v1/actions', { body: { name: 'Plain', key: 'plain' } })).status, 200);
    assert.equal((await t.request('POST', '/v1/authors', { body: { external_id: 'made-up' } })).status, 200);
  });
});

describe('upgrading a store whose built-in actions have the old keys', () => {
  test('migration 0016 renames them, except where a custom action holds the new key; lookups find both', async () => {
    const target = await createTestDatabaseUrl();
    const db = await openDatabase({ databaseUrl: target.url, inMemory: true, poolSize: 2 });
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'om-migrations-'));
    try {
      for (const file of fs.readdirSync(MIGRATIONS_DIR)) if (file < '0016') fs.copyFileSync(path.join(MIGRATIONS_DIR, file), path.join(before, file));
      await migrate(db, before);
      await db.query("INSERT INTO projects (id, name, created_at) VALUES ('p1', 'One', 0), ('p2', 'Two', 0)");
      const legacy = [['block', 'AUTHOR_BLOCK'], ['temporary_block', 'AUTHOR_BLOCK_TEMP'], ['reject', 'ITEM_REJECT']];
      for (const project of ['p1', 'p2']) {
        for (const [key, type] of legacy) {
          await db.query(
            'INSERT INTO actions (id, project_id, key, name, type, built_in, created_at, updated_at) VALUES ($1, $2, $3, $3, $4, true, 0, 0)',
            [`${project}-${key}`, project, key, type],
          );
        }
      }
      // p2 had made its own action with the key the built-in is about to take.
      await db.query("INSERT INTO actions (id, project_id, key, name, type, built_in, created_at, updated_at) VALUES ('p2-own', 'p2', 'AUTHOR_BLOCK', 'Own', 'AUTHOR_CUSTOM', false, 0, 0)");
      await migrate(db);
      const keys = async (project: string) =>
        (await db.query<{ id: string; key: string }>('SELECT id, key FROM actions WHERE project_id = $1 ORDER BY id', [project])).rows.map((r) => `${r.id}=${r.key}`);
      assert.deepEqual(await keys('p1'), ['p1-block=AUTHOR_BLOCK', 'p1-reject=ITEM_REJECT', 'p1-temporary_block=AUTHOR_BLOCK_TEMP']);
      assert.deepEqual(await keys('p2'), ['p2-block=block', 'p2-own=AUTHOR_BLOCK', 'p2-reject=ITEM_REJECT', 'p2-temporary_block=AUTHOR_BLOCK_TEMP']);
      assert.equal((await getAction(db, 'p1', 'block')).id, 'p1-block');
      assert.equal((await getAction(db, 'p1', 'AUTHOR_BLOCK')).id, 'p1-block');
      assert.equal((await getAction(db, 'p2', 'AUTHOR_BLOCK')).id, 'p2-own');
      assert.equal((await getAction(db, 'p2', 'block')).id, 'p2-block');
    } finally {
      fs.rmSync(before, { recursive: true, force: true });
      await db.close();
      await target.drop();
    }
  });
});
