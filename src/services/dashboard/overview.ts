import type { Queryable } from '../../db/database.ts';
import { queueFilterSql, SqlParams } from '../../core/queue-filter.ts';
import { TRUST_LEVEL_NAMES } from '../../core/trust.ts';
import { listQueues } from '../queues.ts';

/**
 * The figures of the dashboard's overview. Every query is bounded whatever the number of stored
 * items: volumes come from the hourly rollup (migrations/0061), reviews from the audit log by
 * time, trust levels from the authors' trust index, and queue backlogs are counted among the
 * period's newest BACKLOG_SCAN items only (bench/overview.ts measures them on 10 million items).
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Queue backlogs look at the period's newest items only, so a queue whose filter matches rarely costs no more than one that matches often. */
export const BACKLOG_SCAN = 100_000;
/** Hourly points for at most this long a period (more would be unreadable); days beyond. */
export const MAX_HOURLY_PERIOD_MS = 14 * DAY_MS;
export const MAX_PERIOD_MS = 400 * DAY_MS;

export type Bucket = 'hour' | 'day';

export interface OverviewQuery {
  from: number;
  to: number;
  bucket: Bucket;
  channelId: string | null;
}

export interface OverviewPoint {
  t: number;
  submissions: number;
  flagged: number;
  allow: number;
  review: number;
  reject: number;
  newAuthors: number;
  /** Items each policy flagged in the bucket, by policy id. */
  policies: Record<string, number>;
}

export interface Overview {
  period: OverviewQuery;
  totals: Omit<OverviewPoint, 't'>;
  series: OverviewPoint[];
  /**
   * backlog: open items among the period's newest BACKLOG_SCAN items; backlogPartial: the period
   * holds more than BACKLOG_SCAN items, so older ones were not looked at (a lower bound).
   */
  queues: { id: string; name: string; backlog: number; backlogPartial: boolean; reviewed: number; medianReviewMs: number | null }[];
  review: { decisions: number; medianReviewMs: number | null };
  reviewers: { actor: string; kind: 'user' | 'key'; decisions: number }[];
  actions: { name: string; count: number }[];
  trustLevels: { level: number; name: string; authors: number }[];
  /** How long each part took on the server (ms), for the benchmark and slow-store diagnosis. */
  timings: Record<string, number>;
}

const bucketMs = (bucket: Bucket) => (bucket === 'hour' ? HOUR_MS : DAY_MS);

/** The buckets of the period, oldest first; the period is widened to whole buckets. */
export function bucketStarts(query: OverviewQuery): number[] {
  const size = bucketMs(query.bucket);
  const out: number[] = [];
  for (let t = Math.floor(query.from / size) * size; t < query.to; t += size) out.push(t);
  return out;
}

const emptyPoint = (t: number): OverviewPoint => ({ t, submissions: 0, flagged: 0, allow: 0, review: 0, reject: 0, newAuthors: 0, policies: {} });

async function timed<T>(timings: Record<string, number>, name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[name] = Math.round((performance.now() - started) * 10) / 10;
  }
}

export async function volumeSeries(db: Queryable, projectId: string, query: OverviewQuery): Promise<OverviewPoint[]> {
  const size = bucketMs(query.bucket);
  const starts = bucketStarts(query);
  const first = starts[0] ?? query.from;
  const { rows } = await db.query<{ t: string; metric: string; v: string }>(
    `SELECT (hour / $4::bigint) * $4::bigint AS t, metric, sum(value) AS v FROM stats_hourly
     WHERE project_id = $1 AND hour >= $2 AND hour < $3 AND ($5::text IS NULL OR channel_id = $5 OR channel_id = '')
     GROUP BY 1, 2`,
    [projectId, first, query.to, size, query.channelId],
  );
  const points = new Map(starts.map((t) => [t, emptyPoint(t)]));
  for (const row of rows) {
    const point = points.get(Number(row.t));
    if (!point) continue;
    const value = Number(row.v);
    if (row.metric === 'submissions') point.submissions += value;
    else if (row.metric === 'flagged') point.flagged += value;
    else if (row.metric === 'rec:allow') point.allow += value;
    else if (row.metric === 'rec:review') point.review += value;
    else if (row.metric === 'rec:reject') point.reject += value;
    else if (row.metric === 'authors_new') point.newAuthors += value;
    else if (row.metric.startsWith('policy:')) {
      const id = row.metric.slice('policy:'.length);
      point.policies[id] = (point.policies[id] ?? 0) + value;
    }
  }
  return [...points.values()];
}

/** Every queue's open items among the period's newest BACKLOG_SCAN items (reviews are merged in by overview()). */
export async function queueFigures(db: Queryable, projectId: string, query: OverviewQuery): Promise<Omit<Overview['queues'][number], 'reviewed' | 'medianReviewMs'>[]> {
  const queues = await listQueues(db, projectId);
  // One bounded scan of the period's newest items counts every queue at once: the cost does not
  // grow with the number of stored items, nor with how rarely a queue's filter matches.
  const params = new SqlParams([projectId, query.from, query.to, query.channelId, BACKLOG_SCAN + 1]);
  const columns = queues.map((queue) => {
    const queueParam = params.add(queue.id);
    const where = queueFilterSql(queue.filter, params, '$1');
    return `count(*) FILTER (WHERE ci.rn <= ${BACKLOG_SCAN} AND ${where} AND NOT EXISTS (SELECT 1 FROM queue_resolutions r WHERE r.queue_id = ${queueParam} AND r.content_id = ci.id))`;
  });
  const { rows } = await db.query<Record<string, string>>(
    `SELECT count(*) AS scanned${columns.map((c, i) => `, ${c} AS q${i}`).join('')}
     FROM (SELECT newest.*, row_number() OVER () AS rn
           FROM (SELECT * FROM content_items
                 WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND ($4::text IS NULL OR channel_id = $4)
                 ORDER BY created_at DESC, id DESC LIMIT $5) newest) ci`,
    params.values,
  );
  const counts = rows[0]!;
  const partial = Number(counts.scanned) > BACKLOG_SCAN;
  // The scan reads one item more than it counts (rn ≤ BACKLOG_SCAN), to know whether the period holds more.
  return queues.map((queue, i) => ({ id: queue.id, name: queue.name, backlog: Number(counts[`q${i}`]), backlogPartial: partial }));
}

/**
 * Decisions of the period from the audit log, read once: the median time to review (item arrival
 * to action or resolution) overall and per queue, the top reviewers and the top actions.
 */
export async function reviewFigures(db: Queryable, projectId: string, query: OverviewQuery) {
  const { rows } = await db.query<{ part: string; name: string | null; kind: string | null; n: string; median: number | null }>(
    `WITH p AS MATERIALIZED (
       SELECT a.kind, a.queue_id, coalesce(a.action_name, a.action_key, 'unknown') AS action, a.actor_user_id, a.actor_email, a.actor_key_id,
         CASE WHEN a.kind IN ('action', 'resolve') AND a.item_created_at IS NOT NULL THEN a.created_at - a.item_created_at END AS wait
       FROM audit_log a
       WHERE a.project_id = $1 AND a.created_at >= $2 AND a.created_at < $3 AND a.kind IN ('action', 'resolve', 'unresolve', 'trust_level')
     )
     SELECT 'overall' AS part, NULL AS name, NULL AS kind, count(wait) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY wait) AS median FROM p
     UNION ALL
     SELECT 'queue', queue_id, NULL, count(wait), percentile_cont(0.5) WITHIN GROUP (ORDER BY wait) FROM p WHERE queue_id IS NOT NULL GROUP BY queue_id
     UNION ALL
     (SELECT 'reviewer', coalesce(p.actor_email, k.name || ' (API key)', p.actor_key_id, 'unknown'), CASE WHEN p.actor_user_id IS NOT NULL THEN 'user' ELSE 'key' END, count(*), NULL
      FROM p LEFT JOIN api_keys k ON k.id = p.actor_key_id GROUP BY 2, 3 ORDER BY 4 DESC, 2 LIMIT 10)
     UNION ALL
     (SELECT 'action', action, NULL, count(*), NULL FROM p WHERE kind = 'action' GROUP BY 2 ORDER BY 4 DESC, 2 LIMIT 10)`,
    [projectId, query.from, query.to],
  );
  const median = (m: number | null) => (m == null ? null : Math.round(Number(m)));
  const overall = rows.find((r) => r.part === 'overall');
  const byQueue = new Map(rows.filter((r) => r.part === 'queue').map((r) => [r.name!, { reviewed: Number(r.n), medianReviewMs: median(r.median) }]));
  const ranked = (part: string) => rows.filter((r) => r.part === part).sort((a, b) => Number(b.n) - Number(a.n) || a.name!.localeCompare(b.name!));
  return {
    review: { decisions: Number(overall?.n ?? 0), medianReviewMs: median(overall?.median ?? null) },
    reviewers: ranked('reviewer').map((r) => ({ actor: r.name!, kind: r.kind as 'user' | 'key', decisions: Number(r.n) })),
    actions: ranked('action').map((r) => ({ name: r.name!, count: Number(r.n) })),
    byQueue,
  };
}

export async function trustLevels(db: Queryable, projectId: string): Promise<Overview['trustLevels']> {
  const { rows } = await db.query<{ level: number; n: string }>('SELECT trust_level AS level, count(*) AS n FROM authors WHERE project_id = $1 GROUP BY 1 ORDER BY 1', [projectId]);
  const counts = new Map(rows.map((r) => [Number(r.level), Number(r.n)]));
  return Object.keys(TRUST_LEVEL_NAMES)
    .map(Number)
    .sort((a, b) => a - b)
    .map((level) => ({ level, name: TRUST_LEVEL_NAMES[level]!, authors: counts.get(level) ?? 0 }));
}

export async function overview(db: Queryable, projectId: string, query: OverviewQuery): Promise<Overview> {
  const timings: Record<string, number> = {};
  const [series, queues, reviews, levels] = await Promise.all([
    timed(timings, 'volumes', () => volumeSeries(db, projectId, query)),
    timed(timings, 'queues', () => queueFigures(db, projectId, query)),
    timed(timings, 'reviews', () => reviewFigures(db, projectId, query)),
    timed(timings, 'trustLevels', () => trustLevels(db, projectId)),
  ]);
  const totals = emptyPoint(0);
  for (const p of series) {
    totals.submissions += p.submissions;
    totals.flagged += p.flagged;
    totals.allow += p.allow;
    totals.review += p.review;
    totals.reject += p.reject;
    totals.newAuthors += p.newAuthors;
    for (const [id, n] of Object.entries(p.policies)) totals.policies[id] = (totals.policies[id] ?? 0) + n;
  }
  const { t: _t, ...totalFigures } = totals;
  const { byQueue, ...reviewParts } = reviews;
  const queueRows = queues.map((q) => ({ ...q, reviewed: byQueue.get(q.id)?.reviewed ?? 0, medianReviewMs: byQueue.get(q.id)?.medianReviewMs ?? null }));
  return { period: query, totals: totalFigures, series, queues: queueRows, ...reviewParts, trustLevels: levels, timings };
}
