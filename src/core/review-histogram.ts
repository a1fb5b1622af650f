/**
 * Times to review kept as a histogram (review_hourly, migrations/0071) instead of one row per
 * review: doubling buckets from 1 minute, so the relative resolution is the same for a queue
 * reviewed in minutes as for one reviewed in days.
 *
 * Bucket 0 holds times under 1 minute (and negative ones, from clock skew); bucket K (1..13) holds
 * [2^(K-1), 2^K) minutes; bucket 14 everything from 8,192 minutes (about 5.7 days). The bounds
 * must match the width_bucket array of the migration.
 */

const MINUTE = 60_000;

/** Lower bound of each bucket in ms; bucket i ends where bucket i + 1 starts, the last has no end. */
export const REVIEW_BUCKET_BOUNDS_MS: readonly number[] = [0, ...Array.from({ length: 14 }, (_, k) => MINUTE * 2 ** k)];

export const REVIEW_BUCKETS = REVIEW_BUCKET_BOUNDS_MS.length;

/** The bucket a time to review falls in (what the migration's width_bucket computes). */
export function reviewBucketOf(ms: number): number {
  let bucket = 0;
  while (bucket + 1 < REVIEW_BUCKETS && ms >= REVIEW_BUCKET_BOUNDS_MS[bucket + 1]!) bucket++;
  return bucket;
}

/**
 * The value at 0-based rank `rank` among the histogram's times, assuming the times of a bucket
 * spread evenly over it. The estimate lies in the same bucket as the exact value, so it is off by
 * less than the bucket's width; in the last bucket, which has no end, it is the bucket's start.
 */
function valueAtRank(counts: readonly number[], rank: number): number {
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (rank < below + c) {
      const lo = REVIEW_BUCKET_BOUNDS_MS[i]!;
      const hi = REVIEW_BUCKET_BOUNDS_MS[i + 1];
      if (hi === undefined) return lo;
      return lo + ((rank - below + 0.5) / c) * (hi - lo);
    }
    below += c;
  }
  throw new RangeError(`rank ${rank} beyond the histogram's ${below} values`);
}

/**
 * The median (as percentile_cont(0.5): the mean of the two middle values for an even count)
 * estimated from bucket counts; null for an empty histogram.
 *
 * Error bound: each middle value is estimated within its own bucket, so the estimate is off by less
 * than the width of the middle values' bucket(s): under 1 minute when they are under 1 minute,
 * otherwise within a factor of two of the exact median (a value in [a, 2a) is estimated in
 * (a, 2a), and a ≤ the value). From 8,192 minutes on it is a lower bound.
 */
export function histogramMedian(counts: readonly number[]): number | null {
  if (counts.length > REVIEW_BUCKETS) throw new RangeError(`${counts.length} buckets, at most ${REVIEW_BUCKETS}`);
  const total = counts.reduce((sum, c) => sum + c, 0);
  if (total <= 0) return null;
  const lower = Math.floor((total - 1) / 2);
  const upper = Math.ceil((total - 1) / 2);
  return (valueAtRank(counts, lower) + valueAtRank(counts, upper)) / 2;
}
