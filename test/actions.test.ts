import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI, { BadRequestError, ConflictError, NotFoundError } from '@moderation-api/sdk';
import type { Queryable } from '../src/db/database.ts';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';

const RUDE = 'What the fuck is wrong with you';
const BUILT_IN_KEYS = ['AUTHOR_BLOCK', 'AUTHOR_BLOCK_TEMP', 'AUTHOR_UNBLOCK', 'AUTHOR_DELETE', 'AUTHOR_REPORT', 'AUTHOR_WARN', 'ITEM_REJECT', 'ITEM_ALLOW'];

describe('moderator actions through the official SDK', () => {
  let t: TestServer;
  let client: ModerationAPI;
  let queueId: string;
  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
    for (const [contentId, authorId] of [
      ['a-1', 'dave'],
      ['a-2', 'dave'],
      ['a-3', 'erin'],
      ['a-4', 'frank'],
      ['a-5', 'gina'],
    ]) {
      await client.content.submit({ content: { type: 'text', text: `${RUDE} ${contentId}` }, contentId: contentId!, authorId: authorId! });
    }
    queueId = (await t.request('POST', '/v1/queue', { body: { name: 'All' } })).body.queue.id;
  });
  after(() => t.close());

  const audit = async (query: string) => (await t.request('GET', `/v1/audit-log?${query}`)).body.entries as Array<Record<string, unknown>>;
  const author = async (id: string) => (await t.request('GET', `/v1/authors/${id}`)).body;

  test('every project has the built-in actions, listed with their webhooks', async () => {
    const actions = await client.actions.list();
    for (const key of BUILT_IN_KEYS) {
      const action = actions.find((a) => a.key === key);
      assert.ok(action, `built-in ${key}`);
      assert.equal(action.builtIn, true);
      assert.deepEqual(action.webhooks, []);
      assert.ok(['REMOVE', 'ADD', 'NO_CHANGE'].includes(action.queueBehaviour));
      assert.ok(!Number.isNaN(Date.parse(action.createdAt)));
    }
    for (const key of BUILT_IN_KEYS) assert.equal(actions.find((a) => a.key === key)?.type, key);
  });

  test('create, retrieve, update, list and delete an action; webhooks only on retrieve and list', async () => {
    const created = await client.actions.create({
      name: 'Escalate',
      key: 'escalate',
      description: 'Send to the trust team',
      type: 'ITEM_CUSTOM',
      queueBehaviour: 'NO_CHANGE',
      position: 'SOME_QUEUES',
      filterInQueueIds: [queueId],
      possibleValues: [{ value: 'legal' }, { value: 'safety' }],
      valueRequired: true,
      webhooks: [{ name: 'trust team', url: 'https://example.com/escalations' }],
    });
    assert.equal(created.name, 'Escalate');
    assert.equal(created.key, 'escalate');
    assert.equal(created.builtIn, false);
    assert.deepEqual(created.possibleValues, [{ value: 'legal' }, { value: 'safety' }]);
    assert.equal(created.valueRequired, true);
    assert.equal(created.freeText, false);
    assert.deepEqual(created.filterInQueueIds, [queueId]);
    assert.ok(!('webhooks' in created));

    const fetched = await client.actions.retrieve(created.id);
    assert.equal(fetched.webhooks.length, 1);
    assert.equal(fetched.webhooks[0]!.url, 'https://example.com/escalations');
    assert.equal(fetched.webhooks[0]!.moderationActionId, created.id);

    const updated = await client.actions.update(created.id, {
      name: 'Escalate now',
      webhooks: [{ id: fetched.webhooks[0]!.id, name: 'trust team', url: 'https://example.com/v2' }, { name: 'audit', url: 'https://example.org/a' }],
    });
    assert.equal(updated.name, 'Escalate now');
    assert.ok(!('webhooks' in updated));
    const refetched = await client.actions.retrieve('escalate');
    assert.deepEqual(refetched.webhooks.map((w) => w.url).sort(), ['https://example.com/v2', 'https://example.org/a']);
    assert.equal(refetched.webhooks.find((w) => w.url.endsWith('/v2'))?.id, fetched.webhooks[0]!.id);

    const inQueue = await client.actions.list({ queueId });
    assert.ok(inQueue.some((a) => a.id === created.id));
    const otherQueue = (await t.request('POST', '/v1/queue', { body: { name: 'Other' } })).body.queue.id;
    assert.ok(!(await client.actions.list({ queueId: otherQueue })).some((a) => a.id === created.id));

    const deleted = await client.actions.delete(created.id);
    assert.deepEqual(deleted, { id: created.id, deleted: true });
    await assert.rejects(client.actions.retrieve(created.id), NotFoundError);
    const hooks = (await t.request('GET', '/v1/webhooks')).body.webhooks;
    assert.ok(!hooks.some((w: { moderationActionId: string | null }) => w.moderationActionId === created.id));
  });

  test('a duplicate key is a 409 that must not be retried', async () => {
    await client.actions.create({ name: 'Once', key: 'only-once' });
    const response = await t.request('POST', '/v1/actions', { body: { name: 'Twice', key: 'only-once' } });
    assert.equal(response.status, 409);
    assert.equal(response.headers.get('x-should-retry'), 'false');
    assert.equal(response.body.code, 'CONFLICT');
    await assert.rejects(client.actions.create({ name: 'Thrice', key: 'AUTHOR_BLOCK' }), ConflictError);
    await assert.rejects(client.actions.create({ name: 'Alias', key: 'block' }), ConflictError);
  });

  test('built-in actions cannot be deleted or retyped', async () => {
    const block = (await client.actions.list()).find((a) => a.key === 'AUTHOR_BLOCK')!;
    await assert.rejects(client.actions.delete(block.id), BadRequestError);
    await assert.rejects(client.actions.update(block.id, { type: 'ITEM_ALLOW' }), BadRequestError);
    const renamed = await client.actions.update(block.id, { description: 'Ban for good' });
    assert.equal(renamed.description, 'Ban for good');
    assert.equal(renamed.type, 'AUTHOR_BLOCK');
  });

  test('value rules: required, possible values, free text', async () => {
    const strict = await client.actions.create({ name: 'Strict', key: 'strict', possibleValues: [{ value: 'a' }, { value: 'b' }], valueRequired: true });
    await assert.rejects(client.actions.execute.execute({ actionKey: 'strict', contentIds: ['a-5'] }), BadRequestError);
    await assert.rejects(client.actions.execute.execute({ actionKey: 'strict', contentIds: ['a-5'], value: 'c' }), BadRequestError);
    assert.equal((await audit('actionId=strict')).length, 0);
    assert.deepEqual(await client.actions.execute.execute({ actionKey: strict.id, contentIds: ['a-5'], value: 'b' }), { success: true });
    await client.actions.update(strict.id, { freeText: true });
    await client.actions.execute.execute({ actionKey: 'strict', contentIds: ['a-5'], value: 'anything at all' });
    const entries = await audit('actionId=strict');
    assert.deepEqual(entries.map((e) => e.value), ['anything at all', 'b']);
    assert.equal(entries[0]!.actorKeyId !== null, true);
  });

  test('block, temporary block and unblock change the author; the audit log records who and what', async () => {
    await client.actions.execute.execute({ actionKey: 'block', authorIds: ['dave'], value: 'spam' });
    let dave = await author('dave');
    assert.equal(dave.status, 'blocked');
    assert.equal(dave.block.reason, 'spam');

    await client.actions.execute.execute({ actionKey: 'unblock', authorIds: ['dave'] });
    assert.equal((await author('dave')).status, 'enabled');

    const before = Date.now();
    await client.actions.execute.execute({ actionKey: 'temporary_block', authorIds: ['dave'], duration: 3_600_000 });
    dave = await author('dave');
    assert.equal(dave.status, 'suspended');
    assert.ok(dave.block.until >= before + 3_600_000);
    await assert.rejects(client.actions.execute.execute({ actionKey: 'temporary_block', authorIds: ['erin'] }), BadRequestError);

    const entries = await audit('authorId=dave');
    // Executed by the legacy aliases; recorded under the keys the actions have now.
    assert.deepEqual(entries.map((e) => e.actionKey), ['AUTHOR_BLOCK_TEMP', 'AUTHOR_UNBLOCK', 'AUTHOR_BLOCK']);
    assert.equal(entries[2]!.value, 'spam');
    assert.equal(typeof entries[0]!.actorKeyId, 'string');
  });

  test('an author action run on an item acts on its author', async () => {
    await client.actions.execute.execute({ actionKey: 'block', contentIds: ['a-3'] });
    assert.equal((await author('erin')).status, 'blocked');
  });

  test('queue behaviour REMOVE resolves in the given queue, ADD puts the item back; items show their actions', async () => {
    await client.actions.execute.execute({ actionKey: 'reject', contentIds: ['a-4'], queueId, value: 'off topic' });
    let items = await client.queue.items.list(queueId, { includeResolved: 'true', pageSize: 50 });
    const rejected = items.items.find((i) => i.id === 'a-4')!;
    assert.equal(rejected.status, 'resolved');
    assert.equal(rejected.actions?.[0]?.name, 'Reject item');
    assert.equal(typeof rejected.actions?.[0]?.reviewer, 'string');
    const readd = await client.actions.create({ name: 'Reopen', key: 'reopen', queueBehaviour: 'ADD' });
    await client.actions.execute.execute({ actionKey: readd.id, contentIds: ['a-4'], queueId });
    items = await client.queue.items.list(queueId, { pageSize: 50 });
    assert.equal(items.items.find((i) => i.id === 'a-4')?.status, 'pending');
    const stats = await client.queue.getStats(queueId);
    assert.deepEqual(stats.actionStats.map((s) => [s.actionName, s.count]).sort(), [['Reject item', 1], ['Reopen', 1]]);
    assert.equal(stats.actionStats.reduce((sum, s) => sum + s.percentageOfTotal, 0), 100);
  });

  test('the deprecated execute-by-id answers with the action id and target ids', async () => {
    const warn = (await client.actions.list()).find((a) => a.key === 'AUTHOR_WARN')!;
    const result = await client.actions.execute.executeByID(warn.id, { contentIds: ['a-5'], value: 'first warning' });
    assert.deepEqual(result, { actionId: warn.id, ids: ['a-5'], success: true });
  });

  test('unknown ids answer 404 and change nothing', async () => {
    const before = (await audit('limit=500')).length;
    await assert.rejects(client.actions.execute.execute({ actionKey: 'reject', contentIds: ['a-1', 'nope-1'] }), NotFoundError);
    await assert.rejects(client.actions.execute.execute({ actionKey: 'block', authorIds: ['nobody'] }), NotFoundError);
    await assert.rejects(client.actions.execute.execute({ actionKey: 'no-such-action', contentIds: ['a-1'] }), NotFoundError);
    await assert.rejects(client.actions.execute.execute({ actionKey: 'reject' }), BadRequestError);
    assert.equal((await audit('limit=500')).length, before);
    const other = await t.newProject();
    const foreign = await t.request('POST', '/v1/actions/execute', { key: other.apiKey, body: { actionKey: 'reject', contentIds: ['a-1'] } });
    assert.equal(foreign.status, 404);
  });

  test('deleting an author removes the author and their content; the audit entry stays', async () => {
    await client.actions.execute.execute({ actionKey: 'delete_author', authorIds: ['frank'], value: 'erasure request' });
    assert.equal((await t.request('GET', '/v1/authors/frank')).status, 404);
    const { rows } = await t.server.db.query<{ n: number }>("SELECT count(*) AS n FROM content_items WHERE project_id = $1 AND external_id = 'a-4'", [t.projectId]);
    assert.equal(rows[0]!.n, 0);
    const entries = await audit('authorId=frank');
    assert.equal(entries[0]!.actionKey, 'AUTHOR_DELETE');
  });

  test('bulk: 1,000 content ids run in one request and one transaction, one audit entry each, in few statements', async () => {
    const channel = (await t.server.db.query<{ id: string }>('SELECT id FROM channels WHERE project_id = $1 AND is_default', [t.projectId])).rows[0]!.id;
    await t.server.db.query(
      `INSERT INTO content_items (id, project_id, external_id, channel_id, content_type, content, flagged, flag_probability, severity_score,
         recommendation, result, submitted_at, created_at, updated_at)
       SELECT 'bulk_' || g, $1, 'bulk-' || g, $2, 'text', '{"type":"text","text":"x"}', true, 0.9, 0.8, 'review',
         '{"policies":[{"id":"toxicity","probability":0.9,"flagged":true}]}', 1, 1, 1
       FROM generate_series(1, 1000) AS g`,
      [t.projectId, channel],
    );
    const ids = Array.from({ length: 1000 }, (_, i) => `bulk-${i + 1}`);

    // A bad id anywhere rolls the whole batch back.
    await assert.rejects(client.actions.execute.execute({ actionKey: 'reject', contentIds: [...ids, 'bulk-missing'], queueId }), NotFoundError);
    assert.equal((await audit('actionId=reject&limit=500')).filter((e) => String(e.contentId).startsWith('bulk-')).length, 0);

    // Count the statements the execution sends inside its transaction.
    const db = t.server.db;
    const original = db.transaction;
    let statements = 0;
    db.transaction = (work) => original((tx: Queryable) => work({ ...tx, query: (sql, params) => (statements++, tx.query(sql, params)) }));
    try {
      assert.deepEqual(await client.actions.execute.execute({ actionKey: 'reject', contentIds: ids, queueId, value: 'bulk cleanup' }), { success: true });
    } finally {
      db.transaction = original;
    }
    assert.ok(statements < 20, `${statements} statements`);
    const { rows: logged } = await db.query<{ n: number }>(
      "SELECT count(*) AS n FROM audit_log WHERE project_id = $1 AND action_key = 'ITEM_REJECT' AND content_external_id LIKE 'bulk-%'",
      [t.projectId],
    );
    assert.equal(logged[0]!.n, 1000);
    const { rows: resolved } = await db.query<{ n: number }>("SELECT count(*) AS n FROM queue_resolutions WHERE queue_id = $1 AND content_id LIKE 'bulk_%'", [queueId]);
    assert.equal(resolved[0]!.n, 1000);
  });

  test('webhook URLs must be https unless private outbound is allowed', async () => {
    const plain = await t.request('POST', '/v1/webhooks', { body: { name: 'x', url: 'http://example.com/hook' } });
    assert.equal(plain.status, 400);
    const creds = await t.request('POST', '/v1/actions', { body: { name: 'y', webhooks: [{ name: 'w', url: 'https://user:pw@example.com/' }] } });
    assert.equal(creds.status, 400);
    assert.equal(creds.body.issues[0].path, '/webhooks/0/url');
  });
});
