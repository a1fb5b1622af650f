import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectPii } from './index.ts';
import { resolveOverlaps } from './detect.ts';
import type { DetectedEntity } from './types.ts';

test('tens of thousands of entities in one text are resolved in linear time', () => {
  const n = 100_000;
  for (const [unit, entity] of [['a@b.co ', 'email'], ['@abc ', 'username'], ['1.2.3.4 ip ', 'ip_address']] as const) {
    const text = unit.repeat(Math.ceil(n / unit.length));
    const started = performance.now();
    const found = detectPii(text, () => true);
    const ms = performance.now() - started;
    // Each candidate was compared with every entity kept before it.
    assert.ok(ms < 500, `${JSON.stringify(unit)}: ${ms.toFixed(0)} ms`);
    assert.ok(found.length >= n / unit.length - 1 && found.every((f) => f.entity === entity), `${JSON.stringify(unit)}: ${found.length}`);
  }
});

test('the longest entity wins an overlap, then the more specific one, then the first', () => {
  const entity = (name: string, start: number, end: number): DetectedEntity => ({ entity: name, start, end, probability: 0.9 });
  assert.deepEqual(resolveOverlaps([entity('url', 5, 16), entity('email', 0, 16), entity('phone', 20, 30)]), [entity('email', 0, 16), entity('phone', 20, 30)]);
  assert.deepEqual(resolveOverlaps([entity('phone', 0, 10), entity('credit_card', 0, 10)]), [entity('credit_card', 0, 10)]);
  assert.deepEqual(resolveOverlaps([entity('name', 4, 8), entity('name', 0, 4), entity('name', 2, 6)]), [entity('name', 0, 4), entity('name', 4, 8)]);
  assert.deepEqual(resolveOverlaps([entity('name', 3, 6), entity('url', 0, 10), entity('name', 10, 12)]), [entity('url', 0, 10), entity('name', 10, 12)]);
});
