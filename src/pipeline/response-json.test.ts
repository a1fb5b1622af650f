import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyResult } from '../core/policy.ts';
import { policiesToJson } from './response-json.ts';

test('policies are written byte for byte as JSON.stringify would, whatever their shape', () => {
  const odd = (value: unknown) => value as PolicyResult;
  const policies: PolicyResult[] = [
    { id: 'toxicity', type: 'classifier', probability: 0.9123, flagged: true, labels: [{ id: 'insult', probability: 0.5, flagged: true }] },
    { id: 'spam', type: 'classifier', probability: 0, flagged: false },
    { id: 'pii', type: 'entity_matcher', probability: 1, flagged: true, flagged_fields: ['bio', 'say "hi"'], matches: [{ match: 'a@b.c', probability: 1, span: [0, 5] }], data: { n: 1, nested: { list: [1, null, 'x'] } } },
    { id: 'custom "quoted" \\ id ü', type: 'entity_matcher', probability: 1e-7, flagged: false, labels: [] },
    { id: 'x', type: 'classifier', probability: Number.NaN, flagged: false, labels: [{ id: 'l', probability: Number.POSITIVE_INFINITY, flagged: false }] },
    { id: 'unicode_spoofing', type: 'classifier', probability: 0.25, flagged: false, data: { rescored: { original_probability: 0.6 } } },
    { id: 'skips', type: 'classifier', probability: -0, flagged: false, flagged_fields: undefined, labels: undefined },
    odd({ type: 'classifier', id: 'reordered', probability: 0.1, flagged: false }),
    odd({ id: 'extra', type: 'classifier', probability: 0.1, flagged: false, extra: 'kept' }),
    odd({ id: 'wrong type', type: 'classifier', probability: '0.1', flagged: false }),
    odd({ id: 'odd labels', type: 'classifier', probability: 0.1, flagged: false, labels: [null, undefined, { probability: 1, id: 'reordered', flagged: true }, { id: 'extra', probability: 1, flagged: true, more: 1 }] }),
    odd({ id: 'labels not an array', type: 'classifier', probability: 0.1, flagged: false, labels: { id: 'x' } }),
    odd(Object.assign(Object.create({ inherited: 1 }), { id: 'prototype', type: 'classifier', probability: 0.1, flagged: false })),
  ];
  const hidden = { id: 'hidden', type: 'classifier', probability: 0.1, flagged: false };
  Object.defineProperty(hidden, 'data', { value: { secret: 1 }, enumerable: false });
  policies.push(
    odd({ id: 'function data', type: 'classifier', probability: 0.1, flagged: false, data: () => 1 }),
    odd({ id: 'symbol data', type: 'classifier', probability: 0.1, flagged: false, data: Symbol('x') }),
    odd({ id: 'toJSON data', type: 'classifier', probability: 0.1, flagged: false, data: { toJSON: (key: string) => (key === 'data' ? 'by key' : undefined) } }),
    odd({ id: 'toJSON label', type: 'classifier', probability: 0.1, flagged: false, labels: [{ id: 'l', probability: 1, flagged: true, toJSON: (key: string) => key }] }),
    odd(hidden),
    odd({ id: 'lone \ud800 surrogate', type: 'classifier', probability: 0.1, flagged: false }),
  );
  for (const policy of policies) assert.equal(policiesToJson([policy]), JSON.stringify([policy]), String(policy.id));
  assert.equal(policiesToJson([policies[0]!, odd(null), odd(undefined), policies[1]!]), JSON.stringify([policies[0], null, undefined, policies[1]]));
  const withHole = [policies[0]!, policies[1]!];
  delete (withHole as unknown[])[0];
  assert.equal(policiesToJson(withHole), JSON.stringify(withHole));
  assert.equal(policiesToJson(policies), JSON.stringify(policies));
  assert.equal(policiesToJson([]), '[]');
});
