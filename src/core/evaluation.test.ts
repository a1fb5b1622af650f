import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, type ScoredPolicy } from './evaluation.ts';
import { recommend } from './recommendation.ts';

const scored = (id: string, probability: number, flagged: boolean, severity: number, flagEnabled = true): ScoredPolicy => ({
  result: { id, type: 'classifier', probability, flagged },
  flagEnabled,
  severity,
});

test('nothing fired: not flagged, zero severity, allow', () => {
  const evaluation = evaluate([scored('profanity', 0, false, 0.5)]);
  assert.deepEqual(evaluation, { flagged: false, flag_probability: 0, severity_score: 0 });
  assert.deepEqual(recommend(evaluation), { action: 'allow', reason_codes: [] });
});

test('any flag reaches the review threshold; high-impact certain flags reach reject', () => {
  const mild = evaluate([scored('profanity', 0.8, true, 0.5)]);
  assert.equal(mild.flagged, true);
  assert.equal(mild.flag_probability, 0.8);
  assert.ok(mild.severity_score >= 0.5 && mild.severity_score < 0.9);
  assert.deepEqual(recommend(mild), { action: 'review', reason_codes: ['severity_review'] });

  const severe = evaluate([scored('self_harm', 0.95, true, 1)]);
  assert.ok(severe.severity_score >= 0.9);
  assert.deepEqual(recommend(severe), { action: 'reject', reason_codes: ['severity_reject'] });
});

test('policies that may not flag count neither for flag probability nor severity', () => {
  const evaluation = evaluate([scored('hate', 0.99, false, 1, false), scored('profanity', 0.2, false, 0.5)]);
  assert.equal(evaluation.flag_probability, 0.2);
  assert.ok(evaluation.severity_score < 0.5);
});

test('custom triage thresholds move the verdict', () => {
  const evaluation = evaluate([scored('profanity', 0.8, true, 0.5)]);
  assert.equal(recommend(evaluation, { review: 0.3, reject: 0.6 }).action, 'reject');
});
