import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketStarts, DAY_MS, HOUR_MS } from './overview.ts';

test('hourly buckets cover the period, widened to whole hours', () => {
  const from = Date.UTC(2026, 10, 20, 9, 30);
  const starts = bucketStarts({ from, to: Date.UTC(2026, 10, 20, 12, 0), bucket: 'hour', channelId: null });
  assert.deepEqual(starts, [Date.UTC(2026, 10, 20, 9), Date.UTC(2026, 10, 20, 10), Date.UTC(2026, 10, 20, 11)]);
});

test('daily buckets start at UTC midnight and end before `to`', () => {
  const to = Date.UTC(2026, 10, 26, 13);
  const starts = bucketStarts({ from: to - 7 * DAY_MS, to, bucket: 'day', channelId: null });
  assert.equal(starts.length, 8);
  assert.equal(starts[0], Date.UTC(2026, 10, 19));
  assert.equal(starts.at(-1), Date.UTC(2026, 10, 26));
  for (const t of starts) assert.equal(t % DAY_MS, 0);
});

test('an empty period has no bucket', () => {
  const t = Date.UTC(2026, 0, 1);
  assert.deepEqual(bucketStarts({ from: t, to: t, bucket: 'hour', channelId: null }), []);
  assert.equal(bucketStarts({ from: t, to: t + 1, bucket: 'hour', channelId: null })[0], t - (t % HOUR_MS));
});
