import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../db/database.ts';
import { openTestDatabase } from '../db/testing.ts';
import { createProject } from './projects.ts';
import { createQueue, updateQueue, type Queue } from './queues.ts';
import { countOpenItems, DURATION_FACTOR, dueQueues, openCounts, QueueCountJob, recountQueue } from './queue-counts.ts';

describe('queue counts (both stores)', () => {
  let db: Database;
  let projectId: string;
  let queue: Queue;
  const T0 = Date.UTC(2026, 0, 1);

  /** Items g = 1..n; several share a created_at (every 3 in a row), so slices must break ties by id. */
  const insertItems = (first: number, last: number) =>
    db.query(
      `INSERT INTO content_items (id, project_id, external_id, channel_id, content_type, recommendation, content, result, flagged, shadow_flagged,
         flag_probability, severity_score, submitted_at, created_at, updated_at)
       SELECT 'cnt_qc_' || g, $1, 'qc-' || g, (SELECT id FROM channels WHERE project_id = $1 ORDER BY is_default DESC LIMIT 1), 'text',
         CASE WHEN g % 4 = 0 THEN 'review' ELSE 'allow' END, '{"type":"text","text":"x"}'::jsonb, '{"policies":[]}', g % 4 = 0, false, 0, 0,
         $2::bigint + (g / 3) * 1000, $2::bigint + (g / 3) * 1000, $2::bigint + (g / 3) * 1000
       FROM generate_series($3::int, $4::int) AS g`,
      [projectId, T0, first, last],
    );
  const truth = async (q: Queue) => {
    const recommendations = (q.filter.recommendationActions as string[] | undefined) ?? null;
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM content_items ci WHERE ci.project_id = $1 AND ($3::text[] IS NULL OR ci.recommendation = ANY($3::text[]))
         AND NOT EXISTS (SELECT 1 FROM queue_resolutions r WHERE r.queue_id = $2 AND r.content_id = ci.id)`,
      [projectId, q.id, recommendations],
    );
    return rows[0]!.n;
  };

  before(async () => {
    db = await openTestDatabase();
    projectId = (await createProject(db, 'counts')).project.id;
    await insertItems(1, 101);
    queue = await createQueue(db, projectId, { name: 'Review', filter: { recommendationActions: ['review'] } });
    await db.query(
      `INSERT INTO queue_resolutions (queue_id, content_id, project_id, resolved_at) SELECT $1, id, $2, 0 FROM content_items WHERE project_id = $2 AND id IN ('cnt_qc_4', 'cnt_qc_40', 'cnt_qc_100')`,
      [queue.id, projectId],
    );
  });
  after(() => db.close());

  test('counted in index-ordered slices of any size, the figure is the one of a single count', async () => {
    const want = await truth(queue);
    assert.equal(want, 25 - 3);
    assert.equal(await countOpenItems(db, queue, { timeoutMs: 60_000, sliceRows: null }), want);
    for (const sliceRows of [1, 2, 3, 7, 100, 101, 102, 5_000]) {
      assert.equal(await countOpenItems(db, queue, { timeoutMs: 60_000, sliceRows }), want, `slices of ${sliceRows}`);
    }
  });

  test('a count that runs out of time keeps the previous figure of the same filter, none of another', async () => {
    const ok = await recountQueue(db, queue, 'node-a', { timeoutMs: 60_000, sliceRows: 10 });
    assert.equal(ok.open, await truth(queue));
    assert.equal(ok.error, null);
    const failed = await recountQueue(db, queue, 'node-a', { timeoutMs: -1, sliceRows: 10 });
    assert.match(failed.error ?? '', /longer than/);
    let read = (await openCounts(db, projectId)).get(queue.id)!;
    assert.deepEqual([read.open, read.countedAt, read.error], [ok.open, ok.countedAt, failed.error]);

    const edited = await updateQueue(db, projectId, queue.id, { filter: { recommendationActions: ['allow'] } });
    // The stored count is of the old filter: not shown for the new one.
    assert.equal((await openCounts(db, projectId)).get(queue.id), undefined);
    await recountQueue(db, edited, 'node-a', { timeoutMs: -1, sliceRows: 10 });
    read = (await openCounts(db, projectId)).get(queue.id)!;
    assert.deepEqual([read.open, read.countedAt], [null, null]);
    await recountQueue(db, edited, 'node-a', { timeoutMs: 60_000, sliceRows: null });
    read = (await openCounts(db, projectId)).get(queue.id)!;
    assert.equal(read.open, await truth(edited));
    const current = read;

    // A count of the filter before the edit, finishing late (a round that read the queue earlier), is not written.
    const late = await recountQueue(db, queue, 'node-b', { timeoutMs: 60_000, sliceRows: null });
    assert.notEqual(late.open, current.open);
    read = (await openCounts(db, projectId)).get(queue.id)!;
    assert.deepEqual([read.open, read.countedAt], [current.open, current.countedAt]);
    // Nor is one started before the stored count (a node that lost its lease while it waited).
    await db.query('UPDATE queue_open_counts SET attempted_at = $2, counted_at = $2 WHERE queue_id = $1', [queue.id, Date.now() + 60_000]);
    await insertItems(102, 105);
    await recountQueue(db, edited, 'node-b', { timeoutMs: 60_000, sliceRows: null });
    read = (await openCounts(db, projectId)).get(queue.id)!;
    assert.equal(read.open, current.open, 'the newer stored count stays');
    await db.query('DELETE FROM content_items WHERE project_id = $1 AND id IN (\'cnt_qc_102\', \'cnt_qc_103\', \'cnt_qc_104\', \'cnt_qc_105\')', [projectId]);
    await db.query('UPDATE queue_open_counts SET attempted_at = $2, counted_at = $3 WHERE queue_id = $1', [queue.id, Date.now(), current.countedAt]);
    queue = edited;
  });

  test('due: uncounted and edited queues at once; counted ones after the interval, and after 10 times their project\'s counting time', async () => {
    const other = await createQueue(db, projectId, { name: 'Everything', filter: {} });
    const now = Date.now();
    let due = await dueQueues(db, now, 60_000);
    assert.deepEqual(due.map((q) => q.id), [other.id], 'the uncounted queue; the counted one is not due');
    await recountQueue(db, other, 'node-a', { timeoutMs: 60_000, sliceRows: null });
    assert.deepEqual(await dueQueues(db, Date.now(), 60_000), []);
    assert.deepEqual((await dueQueues(db, Date.now() + 60_001, 60_000)).map((q) => q.id).sort(), [queue.id, other.id].sort());

    // Counting took 5 s per queue: the project's 10 s of counting puts the next at 100 s, not 60.
    await db.query('UPDATE queue_open_counts SET duration_ms = 5000, attempted_at = $2 WHERE project_id = $1', [projectId, now]);
    assert.deepEqual(await dueQueues(db, now + 90_000, 60_000), []);
    assert.equal((await dueQueues(db, now + DURATION_FACTOR * 10_000, 60_000)).length, 2);

    await updateQueue(db, projectId, other.id, { filter: { recommendationActions: ['review'] } });
    assert.deepEqual((await dueQueues(db, now + 1, 60_000)).map((q) => q.id), [other.id], 'an edited filter is due at once');
    await updateQueue(db, projectId, other.id, { name: 'Renamed' });
    await db.query('DELETE FROM queues WHERE id = $1', [other.id]);
  });

  test('one job at a time holds the lease; another takes over when it stops', async () => {
    const a = new QueueCountJob(db, { intervalMs: 60_000, timeoutMs: 60_000 });
    const b = new QueueCountJob(db, { intervalMs: 60_000, timeoutMs: 60_000 });
    await db.query('DELETE FROM queue_open_counts');
    assert.equal(await a.runOnce(), 1);
    await db.query('DELETE FROM queue_open_counts');
    assert.equal(await b.runOnce(), 0, 'a holds the lease');
    assert.equal(await a.runOnce(), 1, 'a renews it');
    await a.stop();
    await db.query('DELETE FROM queue_open_counts');
    assert.equal(await b.runOnce(), 1, 'given up by a, taken by b');
    const { rows } = await db.query<{ counted_by: string }>('SELECT counted_by FROM queue_open_counts');
    assert.deepEqual(rows.map((r) => r.counted_by), [b.node]);
    // A lease of a node that died (never given up) is taken when it expires.
    await db.query("UPDATE job_leases SET holder = 'dead-node', expires_at = $1", [Date.now() + 60_000]);
    await db.query('DELETE FROM queue_open_counts');
    assert.equal(await b.runOnce(), 0);
    await db.query("UPDATE job_leases SET expires_at = $1 WHERE holder = 'dead-node'", [Date.now() - 1]);
    assert.equal(await b.runOnce(), 1);
    await b.stop();
  });
});

describe('queue counts: stopping cancels a long count (PostgreSQL)', { skip: process.env.DATABASE_URL ? false : 'PGlite stops between slices instead' }, () => {
  let db: Database;
  let projectId: string;
  before(async () => {
    db = await openTestDatabase();
    projectId = (await createProject(db, 'long count')).project.id;
    // Enough items with policies that counting a label filter takes a while.
    await db.query(
      `INSERT INTO content_items (id, project_id, external_id, channel_id, content_type, recommendation, content, result, flagged, shadow_flagged,
         flag_probability, severity_score, submitted_at, created_at, updated_at)
       SELECT 'cnt_long_' || g, $1, 'long-' || g, (SELECT id FROM channels WHERE project_id = $1 LIMIT 1), 'text', 'allow', '{"type":"text","text":"x"}'::jsonb,
         '{"policies":[{"id":"a","probability":0.1,"flagged":false},{"id":"b","probability":0.2,"flagged":false},{"id":"toxicity","probability":0.9,"flagged":true}]}',
         true, false, 0, 0, g, g, g
       FROM generate_series(1, 200000) AS g`,
      [projectId],
    );
  });
  after(() => db.close());

  test('stop() cancels the statement instead of waiting for it, and writes nothing', async () => {
    const queue = await createQueue(db, projectId, { name: 'Toxic', filter: { labels: ['toxicity'], filterLabels: [{ label: 'a', type: 'NOT_FLAGGED' }] } });
    const t0 = performance.now();
    const full = await countOpenItems(db, queue, { timeoutMs: 600_000, sliceRows: null });
    const fullMs = performance.now() - t0;
    assert.equal(full, 200_000);
    assert.ok(fullMs > 300, `the count takes long enough to be stopped midway (${fullMs.toFixed(0)} ms)`);

    const job = new QueueCountJob(db, { intervalMs: 60_000, timeoutMs: 600_000 });
    job.start();
    // Until the count statement runs on the server.
    for (let i = 0; ; i++) {
      const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%count(r.content_id)%' AND pid <> pg_backend_pid()");
      if (rows[0]!.n > 0) break;
      assert.ok(i < 2_000, 'the count started');
      await new Promise((r) => setTimeout(r, 2));
    }
    const s0 = performance.now();
    await job.stop();
    const stopMs = performance.now() - s0;
    assert.ok(stopMs < fullMs / 2, `stopped in ${stopMs.toFixed(0)} ms, a count takes ${fullMs.toFixed(0)} ms`);
    assert.equal(job.counted, 0);
    const { rows } = await db.query('SELECT * FROM queue_open_counts WHERE queue_id = $1', [queue.id]);
    assert.deepEqual(rows, []);
  });
});
