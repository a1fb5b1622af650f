import type { Queryable } from '../../db/database.ts';
import { TRUST_LEVEL_NAMES } from '../../core/trust.ts';
import { listQueues } from '../queues.ts';
import { openCounts } from '../queue-counts.ts';

/**
 * The figures of the dashboard's overview. Every query is bounded whatever the number of stored
 * items: volumes come from the hourly rollup (migrations/0061), reviews from the audit log by
 * time, trust levels from the authors' trust index, and each queue's open items from the row the
 * background job keeps (services/queue-counts.ts). bench/overview.ts measures them on 10 million
 * items.
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
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
   * open: the queue's open items now, whatever the period, as last counted (at countedAt, in
   * countMs); null until the queue's current filter was counted once. countError: why the last
   * count failed (the figure, if any, is then the previous count's).
   */
  queues: {
    id: string;
    name: string;
    open: number | null;
    countedAt: number | null;
    countMs: number | null;
    countError: string | null;
    reviewed: number;
    medianReviewMs: number | null;
  }[];
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

export async function queueFigures(db: Queryable, projectId: string, query: OverviewQuery): Promise<Overview['queues']> {
  const queues = await listQueues(db, projectId);
  const { rows: reviewRows } = await db.query<{ queue_id: string; n: string; median: number | null }>(
    `SELECT queue_id, count(*) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY created_at - item_created_at) AS median
     FROM audit_log WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('action', 'resolve')
       AND queue_id IS NOT NULL AND item_created_at IS NOT NULL
     GROUP BY queue_id`,
    [projectId, query.from, query.to],
  );
  const reviews = new Map(reviewRows.map((r) => [r.queue_id, r]));
  const counts = await openCounts(db, projectId);
  return queues.map((queue) => {
    const count = counts.get(queue.id);
    const review = reviews.get(queue.id);
    return {
      id: queue.id,
      name: queue.name,
      open: count?.open ?? null,
      countedAt: count?.countedAt ?? null,
      countMs: count?.durationMs ?? null,
      countError: count?.error ?? null,
      reviewed: review ? Number(review.n) : 0,
      medianReviewMs: review?.median == null ? null : Math.round(Number(review.median)),
    };
  });
}

export async function reviewFigures(db: Queryable, projectId: string, query: OverviewQuery) {
  const period = [projectId, query.from, query.to];
  const [overall, reviewers, actions] = await Promise.all([
    db.query<{ n: string; median: number | null }>(
      `SELECT count(*) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY created_at - item_created_at) AS median
       FROM audit_log WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('action', 'resolve') AND item_created_at IS NOT NULL`,
      period,
    ),
    db.query<{ actor: string; kind: 'user' | 'key'; n: string }>(
      `SELECT coalesce(a.actor_email, k.name || ' (API key)', a.actor_key_id, 'unknown') AS actor, CASE WHEN a.actor_user_id IS NOT NULL THEN 'user' ELSE 'key' END AS kind, count(*) AS n
       FROM audit_log a LEFT JOIN api_keys k ON k.id = a.actor_key_id
       WHERE a.project_id = $1 AND a.created_at >= $2 AND a.created_at < $3 AND a.kind IN ('action', 'resolve', 'unresolve', 'trust_level')
       GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 10`,
      period,
    ),
    db.query<{ name: string; n: string }>(
      `SELECT coalesce(action_name, action_key, 'unknown') AS name, count(*) AS n FROM audit_log
       WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind = 'action'
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
      period,
    ),
  ]);
  const o = overall.rows[0];
  return {
    review: { decisions: Number(o?.n ?? 0), medianReviewMs: o?.median == null ? null : Math.round(Number(o.median)) },
    reviewers: reviewers.rows.map((r) => ({ actor: r.actor, kind: r.kind, decisions: Number(r.n) })),
    actions: actions.rows.map((r) => ({ name: r.name, count: Number(r.n) })),
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
  return { period: query, totals: totalFigures, series, queues, ...reviews, trustLevels: levels, timings };
}
