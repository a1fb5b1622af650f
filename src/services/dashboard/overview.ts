import type { Queryable } from '../../db/database.ts';
import { TRUST_LEVEL_NAMES } from '../../core/trust.ts';
import { histogramMedian, REVIEW_BUCKETS } from '../../core/review-histogram.ts';
import { listQueues } from '../queues.ts';
import { openCounts } from '../queue-counts.ts';

/**
 * The figures of the dashboard's overview. Every query is bounded whatever the number of stored
 * items: volumes come from the hourly rollup (migrations/0061), reviews and trust levels from the
 * rollups of migrations/0071 (review_hourly, trust_level_counts), and each queue's open items from
 * the row the background job keeps (services/queue-counts.ts). bench/overview.ts measures them on
 * 10 million items.
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
  /**
   * The whole hours the review figures (queues' reviewed and medianReviewMs, review, reviewers,
   * actions) cover: the period widened to whole hours, as kept by the review_hourly rollup. The
   * medians are estimated from doubling buckets (src/core/review-histogram.ts), within a factor of two.
   */
  reviewPeriod: { from: number; to: number };
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
  const [queues, reviews, counts] = await Promise.all([listQueues(db, projectId), queueReviews(db, projectId, query), openCounts(db, projectId)]);
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

/** The whole hours the review figures cover: the period widened to whole hours, as the volumes' hourly points. */
export function reviewHours(query: OverviewQuery): { from: number; to: number } {
  return { from: Math.floor(query.from / HOUR_MS) * HOUR_MS, to: Math.ceil(query.to / HOUR_MS) * HOUR_MS };
}

const HISTOGRAM_SUMS = Array.from({ length: REVIEW_BUCKETS }, (_, i) => `sum(t${i})::text AS t${i}`).join(', ');
const histogramOf = (row: Record<string, unknown> | undefined) => Array.from({ length: REVIEW_BUCKETS }, (_, i) => Number(row?.[`t${i}`] ?? 0));
const roundedMedian = (counts: number[]) => {
  const median = histogramMedian(counts);
  return median === null ? null : Math.round(median);
};

/**
 * Reviews (actions and resolutions of an item) per queue in the period's hours, from the
 * review_hourly rollup (migrations/0071); the median is estimated from its histogram.
 */
export async function queueReviews(db: Queryable, projectId: string, query: OverviewQuery): Promise<Map<string, { n: number; median: number | null }>> {
  const hours = reviewHours(query);
  const { rows } = await db.query<Record<string, string> & { queue_id: string }>(
    `SELECT key AS queue_id, ${HISTOGRAM_SUMS} FROM review_hourly
     WHERE project_id = $1 AND hour >= $2 AND hour < $3 AND dimension = 'queue' AND key <> ''
     GROUP BY key`,
    [projectId, hours.from, hours.to],
  );
  return new Map(
    rows.map((row) => {
      const counts = histogramOf(row);
      return [row.queue_id, { n: counts.reduce((a, b) => a + b, 0), median: roundedMedian(counts) }];
    }),
  );
}

/**
 * Decisions and the median time to review (actions and resolutions of items), the top reviewers
 * (also counting unresolves and trust level changes) and actions, from the review_hourly rollup
 * over the period's whole hours (reviewHours).
 */
export async function reviewFigures(db: Queryable, projectId: string, query: OverviewQuery) {
  const hours = reviewHours(query);
  const period = [projectId, hours.from, hours.to];
  const [overall, reviewers, actions] = await Promise.all([
    db.query<Record<string, string>>(
      `SELECT ${HISTOGRAM_SUMS} FROM review_hourly WHERE project_id = $1 AND hour >= $2 AND hour < $3 AND dimension = 'queue'`,
      period,
    ),
    // Keys are named at read time (a renamed key shows its new name), after summing per actor.
    db.query<{ actor: string; kind: 'user' | 'key'; n: string }>(
      `SELECT coalesce(k.name || ' (API key)', nullif(r.key, ''), 'unknown') AS actor, r.dimension AS kind, sum(r.n) AS n
       FROM (SELECT dimension, key, sum(n) AS n FROM review_hourly WHERE project_id = $1 AND hour >= $2 AND hour < $3 AND dimension IN ('user', 'key') GROUP BY 1, 2) r
       LEFT JOIN api_keys k ON k.id = r.key
       GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 10`,
      period,
    ),
    db.query<{ name: string; n: string }>(
      `SELECT coalesce(nullif(key, ''), 'unknown') AS name, sum(n) AS n FROM review_hourly
       WHERE project_id = $1 AND hour >= $2 AND hour < $3 AND dimension = 'action'
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
      period,
    ),
  ]);
  const counts = histogramOf(overall.rows[0]);
  return {
    reviewPeriod: hours,
    review: { decisions: counts.reduce((a, b) => a + b, 0), medianReviewMs: roundedMedian(counts) },
    reviewers: reviewers.rows.map((r) => ({ actor: r.actor, kind: r.kind, decisions: Number(r.n) })),
    actions: actions.rows.map((r) => ({ name: r.name, count: Number(r.n) })),
  };
}

export async function trustLevels(db: Queryable, projectId: string): Promise<Overview['trustLevels']> {
  // Kept on write by the authors' triggers (migrations/0071): 8 stripes per level, whatever the number of authors.
  const { rows } = await db.query<{ level: number; n: string }>('SELECT trust_level AS level, sum(n) AS n FROM trust_level_counts WHERE project_id = $1 GROUP BY 1 ORDER BY 1', [projectId]);
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
