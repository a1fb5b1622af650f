import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openTestDatabase } from '../../db/testing.ts';
import type { Database } from '../../db/database.ts';
import { REVIEW_BUCKET_BOUNDS_MS, reviewBucketOf } from '../../core/review-histogram.ts';
import { writeAuditEntries, type AuditEntryInput } from '../audit.ts';
import { HOUR_MS, DAY_MS, queueReviews, reviewFigures, reviewHours, trustLevels, type OverviewQuery } from './overview.ts';

/**
 * The rollups of migrations/0071 against exact computations over the rows they summarise: counts
 * must be equal, medians within the histogram's bound (src/core/review-histogram.ts).
 */

const MINUTE = 60_000;
const P = 'prj_rollups';
const OTHER = 'prj_rollups_other';

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const width = (ms: number) => {
  const b = reviewBucketOf(ms);
  return (REVIEW_BUCKET_BOUNDS_MS[b + 1] ?? Infinity) - REVIEW_BUCKET_BOUNDS_MS[b]!;
};

describe('overview rollups (review_hourly, trust_level_counts)', () => {
  let db: Database;
  const now = Math.floor(Date.UTC(2026, 10, 20, 12) / HOUR_MS) * HOUR_MS;

  before(async () => {
    db = await openTestDatabase();
    for (const id of [P, OTHER]) await db.query('INSERT INTO projects (id, name, created_at) VALUES ($1, $1, 0)', [id]);
    await db.query(`INSERT INTO api_keys (id, project_id, name, prefix, key_hash, created_at) VALUES ('key_bot', $1, 'Review bot', 'om_', 'hash-bot', 0)`, [P]);
  });
  after(() => db.close());

  /** The figures the overview gave before the rollup: straight from the audit log, over the same whole hours. */
  async function exact(query: OverviewQuery) {
    const hours = reviewHours(query);
    const period = [P, hours.from, hours.to];
    const times = await db.query<{ queue_id: string | null; d: string }>(
      `SELECT queue_id, (created_at - item_created_at)::text AS d FROM audit_log
       WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('action', 'resolve') AND item_created_at IS NOT NULL`,
      period,
    );
    const overall = await db.query<{ n: number; median: number | null }>(
      `SELECT count(*)::int AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY created_at - item_created_at) AS median
       FROM audit_log WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('action', 'resolve') AND item_created_at IS NOT NULL`,
      period,
    );
    const perQueue = await db.query<{ queue_id: string; n: number; median: number }>(
      `SELECT queue_id, count(*)::int AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY created_at - item_created_at) AS median
       FROM audit_log WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('action', 'resolve') AND queue_id IS NOT NULL AND item_created_at IS NOT NULL
       GROUP BY queue_id`,
      period,
    );
    const reviewers = await db.query<{ actor: string; kind: string; n: number }>(
      `SELECT coalesce(a.actor_email, k.name || ' (API key)', a.actor_key_id, 'unknown') AS actor, CASE WHEN a.actor_user_id IS NOT NULL THEN 'user' ELSE 'key' END AS kind, count(*)::int AS n
       FROM audit_log a LEFT JOIN api_keys k ON k.id = a.actor_key_id
       WHERE a.project_id = $1 AND a.created_at >= $2 AND a.created_at < $3 AND a.kind IN ('action', 'resolve', 'unresolve', 'trust_level')
       GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 10`,
      period,
    );
    const actions = await db.query<{ name: string; n: number }>(
      `SELECT coalesce(action_name, action_key, 'unknown') AS name, count(*)::int AS n FROM audit_log
       WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind = 'action'
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
      period,
    );
    return { times: times.rows.map((r) => ({ queue: r.queue_id, d: Number(r.d) })), overall: overall.rows[0]!, perQueue: perQueue.rows, reviewers: reviewers.rows, actions: actions.rows };
  }

  /** The bound of src/core/review-histogram.ts: less than the width of the middle values' buckets. */
  function assertMedianWithin(estimate: number | null, exactMedian: number | null, values: number[], label: string) {
    if (exactMedian === null) return assert.equal(estimate, null, label);
    assert.ok(estimate !== null, label);
    const sorted = [...values].sort((a, b) => a - b);
    const n = sorted.length;
    const bound = Math.max(width(sorted[Math.floor((n - 1) / 2)]!), width(sorted[Math.ceil((n - 1) / 2)]!));
    assert.ok(Math.abs(estimate - Number(exactMedian)) <= bound, `${label}: estimate ${estimate}, exact ${exactMedian}, bound ${bound}`);
  }

  async function compare(query: OverviewQuery) {
    const truth = await exact(query);
    const [figures, queues] = await Promise.all([reviewFigures(db, P, query), queueReviews(db, P, query)]);
    assert.equal(figures.review.decisions, truth.overall.n);
    assertMedianWithin(figures.review.medianReviewMs, truth.overall.median, truth.times.map((t) => t.d), 'project median');
    assert.equal(queues.size, truth.perQueue.length);
    for (const q of truth.perQueue) {
      const got = queues.get(q.queue_id);
      assert.ok(got, q.queue_id);
      assert.equal(got.n, q.n, q.queue_id);
      assertMedianWithin(got.median, q.median, truth.times.filter((t) => t.queue === q.queue_id).map((t) => t.d), q.queue_id);
    }
    assert.deepEqual(figures.reviewers, truth.reviewers.map((r) => ({ actor: r.actor, kind: r.kind, decisions: r.n })));
    assert.deepEqual(figures.actions, truth.actions.map((a) => ({ name: a.name, count: a.n })));
    return { figures, truth };
  }

  test('reviews, medians, reviewers and actions match the audit log, written in many statements over 10 days', async () => {
    const random = rng(11);
    const actors = [
      { actorKeyId: null, actorUserId: 'usr_a', actorEmail: 'ana@example.test' },
      { actorKeyId: null, actorUserId: 'usr_b', actorEmail: 'ben@example.test' },
      { actorKeyId: 'key_bot', actorUserId: null, actorEmail: null },
      { actorKeyId: 'key_gone', actorUserId: null, actorEmail: null },
    ];
    const actions = [
      { id: 'act_reject', key: 'reject', name: 'Reject', type: null },
      { id: 'act_warn', key: 'warn', name: 'Warn author', type: null },
      { id: 'act_custom', key: null, name: 'Escalate', type: null },
    ];
    for (let statement = 0; statement < 120; statement++) {
      const at = now - Math.floor(random() * 10 * DAY_MS);
      const entries: AuditEntryInput[] = [];
      for (let i = 0; i < 1 + Math.floor(random() * 6); i++) {
        const actor = actors[Math.floor(random() * actors.length)]!;
        const pick = random();
        const kind = pick < 0.55 ? 'action' : pick < 0.85 ? 'resolve' : pick < 0.92 ? 'unresolve' : 'trust_level';
        // Log-uniform from 5 s to 8 days, so every bucket (the open one too) gets some; some have no item (author actions).
        const wait = Math.round(5000 * Math.exp(random() * Math.log(138_240)));
        const onItem = kind !== 'trust_level' && random() < 0.9;
        entries.push({
          kind,
          ...actor,
          action: kind === 'action' ? actions[Math.floor(random() * actions.length)] : null,
          queueId: onItem && random() < 0.8 ? `que_${Math.floor(random() * 3)}` : null,
          contentId: onItem ? `cnt_${statement}_${i}` : null,
          itemCreatedAt: onItem ? at - wait : null,
          authorId: onItem ? null : 'auth_x',
        });
      }
      // Entries of other kinds and of another project must not count.
      entries.push({ kind: 'config', actorKeyId: 'key_bot', itemCreatedAt: null });
      await writeAuditEntries(db, P, entries, at);
      if (statement % 10 === 0) await writeAuditEntries(db, OTHER, entries, at);
    }
    for (const [from, to] of [
      [now - 10 * DAY_MS - HOUR_MS, now + 1],
      [now - 3 * DAY_MS + 17 * MINUTE, now - DAY_MS - 5 * MINUTE],
      [now - 6 * HOUR_MS, now],
    ] as const) {
      const { figures, truth } = await compare({ from, to, bucket: 'day', channelId: null });
      assert.deepEqual(figures.reviewPeriod, { from: Math.floor(from / HOUR_MS) * HOUR_MS, to: Math.ceil(to / HOUR_MS) * HOUR_MS });
      if (to - from > DAY_MS) assert.ok(truth.overall.n > 20, `the period holds reviews (${truth.overall.n})`);
    }
    const all = await exact({ from: now - 11 * DAY_MS, to: now + 1, bucket: 'day', channelId: null });
    // The trigger's buckets are those of src/core/review-histogram.ts, review by review.
    const { rows: kept } = await db.query<Record<string, string>>(
      `SELECT ${Array.from({ length: 15 }, (_, i) => `sum(t${i})::text AS t${i}`).join(', ')} FROM review_hourly WHERE project_id = $1 AND dimension = 'queue'`,
      [P],
    );
    const want = new Array<number>(15).fill(0);
    for (const t of all.times) want[reviewBucketOf(t.d)]!++;
    assert.deepEqual(Array.from({ length: 15 }, (_, i) => Number(kept[0]![`t${i}`])), want);
    // Every review has one reviewer: the reviewers' histograms add up to the same.
    const { rows: byReviewer } = await db.query<Record<string, string>>(
      `SELECT ${Array.from({ length: 15 }, (_, i) => `sum(t${i})::text AS t${i}`).join(', ')} FROM review_hourly WHERE project_id = $1 AND dimension IN ('user', 'key')`,
      [P],
    );
    assert.deepEqual(Array.from({ length: 15 }, (_, i) => Number(byReviewer[0]![`t${i}`])), want);
    assert.ok(all.reviewers.some((r) => r.actor === 'Review bot (API key)'), 'a key is named at read time');
    assert.ok(all.reviewers.some((r) => r.actor === 'key_gone'), 'a deleted key shows its id');
    assert.ok(all.times.some((t) => t.d >= 8192 * MINUTE) && all.times.some((t) => t.d < MINUTE), 'both end buckets are used');
  });

  test('a renamed key shows its new name over its old reviews', async () => {
    await db.query(`UPDATE api_keys SET name = 'Triage bot' WHERE id = 'key_bot'`);
    const figures = await reviewFigures(db, P, { from: now - 11 * DAY_MS, to: now + 1, bucket: 'day', channelId: null });
    assert.ok(figures.reviewers.some((r) => r.actor === 'Triage bot (API key)'));
    assert.ok(!figures.reviewers.some((r) => r.actor === 'Review bot (API key)'));
  });

  test("the migration's backfill gives what the trigger kept", async () => {
    const migration = readFileSync(new URL('../../../migrations/0071_review_rollups.sql', import.meta.url), 'utf8');
    const backfill = (marker: string) => {
      const start = migration.indexOf(marker);
      assert.ok(start >= 0, marker);
      return migration.slice(start, migration.indexOf(';', start) + 1);
    };
    const summary = `SELECT project_id, hour, dimension, key, sum(n)::text AS n,
      ${Array.from({ length: 15 }, (_, i) => `sum(t${i})::text AS t${i}`).join(', ')}
      FROM review_hourly GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
    const kept = (await db.query(summary)).rows;
    const levels = (await db.query('SELECT project_id, trust_level, sum(n)::int AS n FROM trust_level_counts GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2')).rows;
    assert.ok(kept.length > 50);
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM review_hourly');
      await tx.query('DELETE FROM trust_level_counts');
      await tx.query(backfill('-- What was logged before this migration.'));
      await tx.query(backfill('-- The authors stored before this migration.'));
    });
    assert.deepEqual((await db.query(summary)).rows, kept);
    assert.deepEqual((await db.query('SELECT project_id, trust_level, sum(n)::int AS n FROM trust_level_counts GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2')).rows, levels);
  });

  test('trust levels follow inserts, level changes, other updates and deletes of authors', async () => {
    const exactLevels = async (project: string) => {
      const { rows } = await db.query<{ level: number; n: number }>('SELECT trust_level AS level, count(*)::int AS n FROM authors WHERE project_id = $1 GROUP BY 1', [project]);
      return Object.fromEntries(rows.map((r) => [r.level, r.n]));
    };
    const rolled = async (project: string) => Object.fromEntries((await trustLevels(db, project)).filter((l) => l.authors !== 0).map((l) => [l.level, l.authors]));
    const check = async (label: string) => {
      for (const project of [P, OTHER]) assert.deepEqual(await rolled(project), await exactLevels(project), `${label} (${project})`);
    };
    await check('before any author');
    await db.query(
      `INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at, trust_level)
       SELECT 'auth_r' || g, CASE WHEN g % 4 = 0 THEN $2 ELSE $1 END, 'ext-' || g, 0, 0, 0, 0, (g % 6 - 1)::smallint FROM generate_series(1, 300) g`,
      [P, OTHER],
    );
    await check('after a multi-row insert');
    await db.query(`INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at) VALUES ('auth_single', $1, 'single', 0, 0, 0, 0)`, [P]);
    await check('after a single insert at the default level');
    await db.query(`UPDATE authors SET last_seen = 5, updated_at = 5 WHERE project_id = $1`, [P]);
    await check('after an update that changes no level');
    await db.query(`UPDATE authors SET trust_level = LEAST(trust_level + 1, 4)::smallint WHERE id LIKE 'auth_r%' AND substr(id, 7)::int % 3 = 0`);
    await check('after levels moved in both projects in one statement');
    await db.query(`UPDATE authors SET trust_level = -1, manual_trust_level = -1 WHERE id = 'auth_single'`);
    await check('after a manual level');
    // The write path's upsert of an author (a resubmission) with ON CONFLICT: an update through INSERT.
    await db.query(
      `INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at, trust_level)
       SELECT 'auth_r' || g, $1, 'ext-' || g, 0, 9, 0, 9, 3::smallint FROM generate_series(1, 20) g WHERE g % 4 <> 0
       ON CONFLICT (id) DO UPDATE SET trust_level = EXCLUDED.trust_level, last_seen = EXCLUDED.last_seen`,
      [P],
    );
    await check('after an upsert');
    await db.query(`DELETE FROM authors WHERE id LIKE 'auth_r%' AND substr(id, 7)::int % 5 = 0`);
    await check('after deletes in both projects');
    await db.query(`DELETE FROM authors WHERE project_id = $1`, [OTHER]);
    await check('after deleting every author of a project');
    assert.deepEqual(await rolled(OTHER), {});
  });

  test('deleting a project takes its rollup rows with it', async () => {
    const gone = 'prj_rollups_gone';
    await db.query('INSERT INTO projects (id, name, created_at) VALUES ($1, $1, 0)', [gone]);
    await db.query(`INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at) SELECT 'auth_g' || g, $1, 'g-' || g, 0, 0, 0, 0 FROM generate_series(1, 5) g`, [gone]);
    await writeAuditEntries(db, gone, [{ kind: 'resolve', actorKeyId: null, actorUserId: 'usr_a', actorEmail: 'ana@example.test', queueId: 'que_g', itemCreatedAt: now - MINUTE }], now);
    const rows = async () => (await db.query<{ n: number }>('SELECT ((SELECT count(*) FROM review_hourly WHERE project_id = $1) + (SELECT count(*) FROM trust_level_counts WHERE project_id = $1))::int AS n', [gone])).rows[0]!.n;
    assert.ok((await rows()) >= 2);
    await db.query('DELETE FROM projects WHERE id = $1', [gone]);
    assert.equal(await rows(), 0);
    assert.deepEqual((await trustLevels(db, P)).reduce((sum, l) => sum + l.authors, 0), (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM authors WHERE project_id = $1', [P])).rows[0]!.n);
  });
});
