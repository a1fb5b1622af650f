import { test } from 'node:test';
import assert from 'node:assert/strict';
import { histogramMedian, REVIEW_BUCKET_BOUNDS_MS, REVIEW_BUCKETS, reviewBucketOf } from './review-histogram.ts';

const MINUTE = 60_000;

function exactMedian(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  return (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2;
}

function histogram(values: number[]): number[] {
  const counts = new Array<number>(REVIEW_BUCKETS).fill(0);
  for (const v of values) counts[reviewBucketOf(v)]!++;
  return counts;
}

const width = (bucket: number) => (REVIEW_BUCKET_BOUNDS_MS[bucket + 1] ?? Infinity) - REVIEW_BUCKET_BOUNDS_MS[bucket]!;

test('the buckets double from 1 minute to 8,192 minutes, then one open bucket', () => {
  assert.equal(REVIEW_BUCKETS, 15);
  assert.equal(REVIEW_BUCKET_BOUNDS_MS[1], MINUTE);
  assert.equal(REVIEW_BUCKET_BOUNDS_MS[14], 8192 * MINUTE);
  assert.equal(reviewBucketOf(-5), 0);
  assert.equal(reviewBucketOf(MINUTE - 1), 0);
  assert.equal(reviewBucketOf(MINUTE), 1);
  assert.equal(reviewBucketOf(2 * MINUTE - 1), 1);
  assert.equal(reviewBucketOf(2 * MINUTE), 2);
  assert.equal(reviewBucketOf(8192 * MINUTE - 1), 13);
  assert.equal(reviewBucketOf(30 * 86_400_000), 14);
});

test('an empty histogram has no median; one value is estimated inside its bucket', () => {
  assert.equal(histogramMedian(new Array(REVIEW_BUCKETS).fill(0)), null);
  assert.equal(histogramMedian([]), null);
  const one = histogramMedian(histogram([5 * MINUTE]))!;
  assert.ok(one >= 4 * MINUTE && one < 8 * MINUTE, String(one));
  assert.equal(histogramMedian(histogram([10 * 86_400_000])), 8192 * MINUTE, 'the open bucket gives its start, a lower bound');
});

test('the estimate is within the middle values’ bucket width of percentile_cont, and within a factor of two', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let round = 0; round < 300; round++) {
    const n = 1 + Math.floor(random() * 60);
    // Log-uniform from 1 s to 3 days, as review times spread.
    const values = Array.from({ length: n }, () => Math.round(1000 * Math.exp(random() * Math.log(259_200))));
    const exact = exactMedian(values);
    const estimate = histogramMedian(histogram(values))!;
    const sorted = [...values].sort((a, b) => a - b);
    const bound = Math.max(width(reviewBucketOf(sorted[Math.floor((n - 1) / 2)]!)), width(reviewBucketOf(sorted[Math.ceil((n - 1) / 2)]!)));
    assert.ok(Math.abs(estimate - exact) < bound, `n=${n}: estimate ${estimate}, exact ${exact}, bound ${bound}`);
    if (sorted[Math.floor((n - 1) / 2)]! >= MINUTE) assert.ok(estimate > exact / 2 && estimate < exact * 2, `n=${n}: estimate ${estimate}, exact ${exact}`);
  }
});

test('an even count split across distant buckets averages both middle estimates', () => {
  const values = [30_000, 3 * 86_400_000];
  const estimate = histogramMedian(histogram(values))!;
  const exact = exactMedian(values);
  assert.ok(estimate > exact / 2 && estimate < exact * 2, `estimate ${estimate}, exact ${exact}`);
});

test('on realistic spreads of review times the estimate is within 10 % of the exact median', () => {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) + 0.5) / 2 ** 31;
  const spreads: [string, () => number][] = [
    ['uniform 1 minute to 2 hours', () => MINUTE + random() * 120 * MINUTE],
    ['log-uniform 10 s to 3 days', () => 10_000 * Math.exp(random() * Math.log(25_920))],
    ['exponential, mean 30 minutes', () => -Math.log(random()) * 30 * MINUTE],
    ['log-normal, median 2 hours', () => 120 * MINUTE * Math.exp(1.2 * Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random()))],
  ];
  for (const [name, draw] of spreads) {
    const values = Array.from({ length: 50_000 }, draw);
    const exact = exactMedian(values);
    const estimate = histogramMedian(histogram(values))!;
    assert.ok(Math.abs(estimate - exact) / exact < 0.1, `${name}: estimate ${estimate}, exact ${exact}`);
  }
});
