import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from './helpers.ts';
import { signIn, type DashboardClient } from './support/dashboard-client.ts';
import { createTestDatabaseUrl } from '../src/db/testing.ts';
import { loadConfig } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import type { Queryable } from '../src/db/database.ts';

/**
 * The background count of each queue's open items (src/services/queue-counts.ts) and the
 * overview's "open now": checked against count(*) written here, independently of the service.
 */

interface CountRow {
  open_count: number | null;
  counted_at: number | null;
  filter: unknown;
  counted_by: string;
  error: string | null;
}

async function countRow(db: Queryable, queueId: string): Promise<CountRow | undefined> {
  const { rows } = await db.query<CountRow>('SELECT open_count, counted_at, filter, counted_by, error FROM queue_open_counts WHERE queue_id = $1', [queueId]);
  return rows[0] ? { ...rows[0], open_count: rows[0].open_count == null ? null : Number(rows[0].open_count), counted_at: rows[0].counted_at == null ? null : Number(rows[0].counted_at) } : undefined;
}

/** The queue's count once one started at or after `since` (and, when given, for `filter`). */
async function countAfter(db: Queryable, queueId: string, since: number, filter?: unknown, timeoutMs = 15_000): Promise<CountRow> {
  const t0 = Date.now();
  for (;;) {
    const row = await countRow(db, queueId);
    if (row && row.counted_at !== null && row.counted_at >= since && (filter === undefined || JSON.stringify(row.filter) === JSON.stringify(filter))) return row;
    if (Date.now() - t0 > timeoutMs) throw new Error(`no count of ${queueId} since ${since} within ${timeoutMs} ms: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Open items by the definition, not by the service's SQL: matching items without a resolution in the queue. */
async function openTruth(db: Queryable, projectId: string, queueId: string, recommendations: string[] | null): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM content_items ci WHERE ci.project_id = $1 AND ($3::text[] IS NULL OR ci.recommendation = ANY($3::text[]))
       AND ci.id NOT IN (SELECT content_id FROM queue_resolutions WHERE queue_id = $2)`,
    [projectId, queueId, recommendations],
  );
  return rows[0]!.n;
}

const TOXIC = 'you are a worthless idiot and a moron, shut up';
const CLEAN = 'see you at the market tomorrow morning';

describe('queue open counts: exact, recounted on a schedule', () => {
  let t: TestServer;
  let admin: DashboardClient;
  const moderate = async (contentId: string, text: string) => {
    const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, contentId } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };

  before(async () => {
    t = await startTestServer({ QUEUE_COUNT_INTERVAL_MS: '300' });
    admin = await signIn(t, t.admin.email, t.admin.password);
  });
  after(() => t.close());

  test('counts equal count(*) after inserts, resolutions, a filter edit and a new queue; the overview shows them', async () => {
    for (let i = 0; i < 6; i++) await moderate(`qc-${i}`, i % 2 === 0 ? TOXIC : CLEAN);
    const filter = { recommendationActions: ['review', 'reject'] };
    const created = await t.request('POST', '/v1/queue', { body: { name: 'Needs review', filter } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const queueId = created.body.queue.id;
    const db = t.server.db;
    let row = await countAfter(db, queueId, 0);
    const first = await openTruth(db, t.projectId, queueId, filter.recommendationActions);
    assert.ok(first >= 3, `the toxic texts need review (${first})`);
    assert.equal(row.open_count, first);
    assert.equal(row.error, null);

    // Inserts: more items the filter selects.
    for (let i = 6; i < 10; i++) await moderate(`qc-${i}`, TOXIC);
    let since = Date.now();
    row = await countAfter(db, queueId, since);
    assert.equal(row.open_count, await openTruth(db, t.projectId, queueId, filter.recommendationActions));
    assert.ok(row.open_count! > first, `${row.open_count} > ${first}`);

    // Resolutions take items out.
    const beforeResolving = row.open_count!;
    for (const item of ['qc-0', 'qc-2']) {
      const r = await t.request('POST', `/v1/queue/${queueId}/items/${item}/resolve`, { body: {} });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    since = Date.now();
    row = await countAfter(db, queueId, since);
    assert.equal(row.open_count, beforeResolving - 2);
    assert.equal(row.open_count, await openTruth(db, t.projectId, queueId, filter.recommendationActions));

    // A filter edit: the count of the old filter is not the new one's.
    const edited = await t.request('PUT', `/v1/queue/${queueId}`, { body: { filter: {} } });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    row = await countAfter(db, queueId, 0, {});
    assert.equal(row.open_count, await openTruth(db, t.projectId, queueId, null));
    assert.equal(row.open_count, 10 - 2);

    // A queue created later is counted too.
    const second = await t.request('POST', '/v1/queue', { body: { name: 'Rejected', filter: { recommendationActions: ['reject'] } } });
    const secondId = second.body.queue.id;
    const secondRow = await countAfter(db, secondId, 0);
    assert.equal(secondRow.open_count, await openTruth(db, t.projectId, secondId, ['reject']));

    // The overview answers the counts as they are stored, with when they were made.
    const o = (await admin.call('GET', `/projects/${t.projectId}/overview`)).body;
    for (const id of [queueId, secondId]) {
      const q = o.queues.find((x: any) => x.id === id);
      assert.ok(q.countedAt > 0 && q.countedAt <= Date.now(), `countedAt ${q.countedAt}`);
      const truth = await openTruth(db, t.projectId, id, id === queueId ? null : ['reject']);
      assert.equal(q.open, truth, `queue ${id}`);
      assert.equal(q.countError, null);
      assert.ok(q.countMs >= 0);
      assert.equal('backlog' in q, false);
    }
  });

  test('queues the dashboard creates or edits are counted, the counts of deleted queues go', async () => {
    const created = await admin.call('POST', `/projects/${t.projectId}/queues`, { body: { name: 'Dashboard queue', filter: { recommendationActions: ['allow'] } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.queue.id;
    const row = await countAfter(t.server.db, id, 0);
    assert.equal(row.open_count, await openTruth(t.server.db, t.projectId, id, ['allow']));
    const removed = await admin.call('DELETE', `/projects/${t.projectId}/queues/${id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(await countRow(t.server.db, id), undefined);
  });
});

describe('queue open counts: a new or edited queue is counted at once, the others wait for the interval', () => {
  let t: TestServer;
  let admin: DashboardClient;
  before(async () => {
    t = await startTestServer({ QUEUE_COUNT_INTERVAL_MS: '3600000' });
    admin = await signIn(t, t.admin.email, t.admin.password);
  });
  after(() => t.close());

  test('"counting…" until the first count, counted within seconds, not recounted before the interval', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: TOXIC }, contentId: `soon-${i}` } });
      assert.equal(r.status, 200);
    }
    const db = t.server.db;
    // While another node holds the lease this one counts nothing: the new queue stays uncounted.
    await db.query(`INSERT INTO job_leases (name, holder, expires_at) VALUES ('queue_counts', 'another-node', $1)
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at`, [Date.now() + 60_000]);
    const quietId = (await t.request('POST', '/v1/queue', { body: { name: 'Quiet', filter: {} } })).body.queue.id;
    await new Promise((r) => setTimeout(r, 300));
    const quiet = (await admin.call('GET', `/projects/${t.projectId}/overview`)).body.queues.find((q: any) => q.id === quietId);
    assert.deepEqual([quiet.open, quiet.countedAt, quiet.countError], [null, null, null]);
    assert.equal(await countRow(db, quietId), undefined);
    await db.query("DELETE FROM job_leases WHERE holder = 'another-node'");
    assert.equal((await countAfter(db, quietId, 0, undefined, 8_000)).open_count, 3, 'counted at the next tick once the lease is free');

    const t0 = Date.now();
    const created = await t.request('POST', '/v1/queue', { body: { name: 'All', filter: {} } });
    const id = created.body.queue.id;
    const row = await countAfter(db, id, 0, undefined, 3_000);
    assert.ok(Date.now() - t0 < 3_000);
    assert.equal(row.open_count, 3);

    // New items: with an hour's interval the count stays as it was.
    await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: TOXIC }, contentId: 'soon-late' } });
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal((await countRow(db, id))!.open_count, 3);

    // A filter edit is counted at once.
    const since = Date.now();
    await admin.call('PUT', `/projects/${t.projectId}/queues/${id}`, { body: { filter: { recommendationActions: ['allow'] } } });
    const edited = await countAfter(db, id, since, { recommendationActions: ['allow'] }, 3_000);
    assert.equal(edited.open_count, await openTruth(db, t.projectId, id, ['allow']));
    // A rename is no filter change: its count stays.
    await admin.call('PUT', `/projects/${t.projectId}/queues/${id}`, { body: { name: 'Renamed' } });
    const after = (await admin.call('GET', `/projects/${t.projectId}/overview`)).body.queues.find((q: any) => q.id === id);
    assert.equal(after.open, edited.open_count);
  });
});

describe('queue open counts: one node counts at a time', { skip: process.env.DATABASE_URL ? false : 'two servers share a store only on PostgreSQL' }, () => {
  let target: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
  const servers: RunningServer[] = [];
  const apiKey = `test_${randomBytes(18).toString('base64url')}`;
  const start = () =>
    startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        BOOTSTRAP_API_KEY: apiKey,
        BOOTSTRAP_ADMIN_EMAIL: 'admin@example.test',
        BOOTSTRAP_ADMIN_PASSWORD: 'test-admin-password',
        DATABASE_URL: target.url!,
        DATABASE_POOL_SIZE: '3',
        QUEUE_COUNT_INTERVAL_MS: '200',
      }),
    );
  before(async () => {
    target = await createTestDatabaseUrl();
    servers.push(await start());
    servers.push(await start());
  });
  after(async () => {
    for (const s of servers) await s.close();
    await target.drop();
  });

  test('two servers on one database: one counts, the other takes over when it stops', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const post = (server: RunningServer, path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    for (let i = 0; i < 3; i++) assert.equal((await post(i % 2 ? a : b, '/v1/moderate', { content: { type: 'text', text: TOXIC }, contentId: `two-${i}` })).status, 200);
    const ids: string[] = [];
    for (const [i, server] of [a, b].entries()) ids.push((await post(server, '/v1/queue', { name: `Queue ${i}`, filter: {} })).body.queue.id);
    for (const id of ids) await countAfter(a.db, id, 0);
    // Several rounds at a 200 ms interval.
    await new Promise((r) => setTimeout(r, 2_000));
    const jobs = [a.app.deps.queueCounts, b.app.deps.queueCounts];
    const counted = jobs.map((j) => j.counted);
    assert.equal(counted.filter((n) => n > 0).length, 1, `exactly one node counted: ${counted.join(', ')}`);
    const holder = counted[0]! > 0 ? 0 : 1;
    assert.ok(counted[holder]! >= 2 * ids.length, `recounted every interval (${counted[holder]})`);
    const { rows } = await a.db.query<{ counted_by: string }>('SELECT DISTINCT counted_by FROM queue_open_counts');
    assert.deepEqual(rows.map((r) => r.counted_by), [jobs[holder]!.node]);

    // The holder stops: the other node takes the lease over at once (it was given up) and counts.
    const other = servers[1 - holder]!;
    await servers[holder]!.close();
    servers.splice(holder, 1);
    const since = Date.now();
    const row = await countAfter(other.db, ids[0]!, since, undefined, 10_000);
    assert.equal(row.counted_by, other.app.deps.queueCounts.node);
    assert.equal(row.open_count, 3);
  });
});
