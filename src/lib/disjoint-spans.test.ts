import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DisjointSpans } from './disjoint-spans.ts';
import { seededIntegers } from './seeded-random.ts';

type Span = { start: number; end: number };

/** The choice the entity matchers and wordlists made before: compare with every kept span. */
function keptNaively(spans: Span[]): Span[] {
  const kept: Span[] = [];
  for (const span of spans) if (kept.every((other) => span.end <= other.start || span.start >= other.end)) kept.push(span);
  return kept;
}

function kept(spans: Span[]): Span[] {
  const disjoint = new DisjointSpans(spans.reduce((largest, span) => Math.max(largest, span.end), 0));
  return spans.filter((span) => {
    if (disjoint.overlaps(span.start, span.end)) return false;
    disjoint.add(span.start, span.end);
    return true;
  });
}

test('keeps exactly the spans that overlap none kept before, empty spans included', () => {
  assert.deepEqual(kept([{ start: 0, end: 5 }, { start: 4, end: 8 }, { start: 5, end: 9 }, { start: 2, end: 3 }]), [{ start: 0, end: 5 }, { start: 5, end: 9 }]);
  assert.deepEqual(kept([{ start: 3, end: 3 }, { start: 0, end: 3 }, { start: 3, end: 6 }, { start: 2, end: 4 }]), [{ start: 3, end: 3 }, { start: 0, end: 3 }, { start: 3, end: 6 }]);
  const random = seededIntegers(1);
  for (let k = 0; k < 20_000; k++) {
    const size = 1 + random(20);
    const spans = Array.from({ length: 1 + random(12) }, () => {
      const start = random(size + 1);
      return { start, end: start + random(size + 1 - start) };
    });
    assert.deepEqual(kept(spans), keptNaively(spans), JSON.stringify(spans));
  }
});

test('50,000 spans are chosen in linear time', () => {
  const spans: Span[] = [];
  for (let i = 0; i < 50_000; i++) spans.push({ start: 2 * i, end: 2 * i + 1 }, { start: 2 * i, end: 2 * i + 2 });
  const started = performance.now();
  const chosen = kept(spans);
  const ms = performance.now() - started;
  assert.ok(ms < 500, `${ms.toFixed(0)} ms`);
  assert.equal(chosen.length, 50_000);
});
