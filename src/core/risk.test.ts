import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateRisk, RISK_SIGNAL_IDS, type RiskFacts } from './risk.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 0, 15, 3, 30); // 03:30 UTC, night time
const HOUR = Math.floor(NOW / 3_600_000);
const MINUTE = Math.floor(NOW / 60_000);

const calm = (overrides: Partial<RiskFacts> = {}): RiskFacts => ({
  firstSeen: NOW - 400 * DAY,
  email: 'someone@example.com',
  metadata: { email_verified: true, phone_verified: true },
  totalContent: 200,
  flaggedContent: 0,
  lastIncident: null,
  hourBucket: HOUR - 30,
  hourCount: 1,
  hourNightCount: 0,
  minuteBucket: MINUTE - 30 * 60,
  minuteCount: 1,
  peakMinuteCount: 1,
  nightContent: 0,
  spoofedContent: 0,
  linkCount: 0,
  duplicateContent: 0,
  ...overrides,
});
const never = () => false;
const signal = (facts: RiskFacts, id: string, disposable: (domain: string) => boolean = never) => evaluateRisk(facts, NOW, disposable).signals.find((s) => s.id === id)!;

test('a calm, verified, long-standing author scores 0 and reports every signal', () => {
  const risk = evaluateRisk(calm(), NOW, never);
  assert.equal(risk.risk_level, 0);
  assert.deepEqual(risk.signals.map((s) => s.id), [...RISK_SIGNAL_IDS]);
  assert.ok(RISK_SIGNAL_IDS.length >= 10);
});

const raised: Array<[string, Partial<RiskFacts>, (d: string) => boolean]> = [
  ['account_age', { firstSeen: NOW - DAY / 2 }, never],
  ['disposable_email', { email: 'x@mailinator.com' }, (d) => d === 'mailinator.com'],
  ['email_unverified', { metadata: { email_verified: false, phone_verified: true } }, never],
  ['phone_unverified', { metadata: { email_verified: true } }, never],
  ['posting_velocity', { hourBucket: HOUR, hourCount: 80 }, never],
  ['posting_burst', { peakMinuteCount: 12 }, never],
  ['duplicate_content', { duplicateContent: 50 }, never],
  ['flagged_ratio', { flaggedContent: 100 }, never],
  ['recent_incident', { lastIncident: NOW - DAY }, never],
  ['unicode_spoofing', { spoofedContent: 3 }, never],
  ['link_density', { linkCount: 300 }, never],
  ['night_burst', { hourBucket: HOUR, hourCount: 8, hourNightCount: 8, nightContent: 8 }, never],
];

for (const [id, overrides, disposable] of raised) {
  test(`risk signal ${id} adds points when it fires`, () => {
    assert.equal(signal(calm(), id, disposable).contribution, 0);
    assert.ok(signal(calm(overrides), id, disposable).contribution > 0);
    assert.ok(evaluateRisk(calm(overrides), NOW, disposable).risk_level > 0);
  });
}

test('night posting is no burst for an author who always posts at night', () => {
  const owl = calm({ hourBucket: HOUR, hourCount: 8, hourNightCount: 8, nightContent: 150 });
  assert.equal(signal(owl, 'night_burst').contribution, 0);
});

test('counters of a past hour no longer count as velocity', () => {
  assert.equal(signal(calm({ hourBucket: HOUR - 3, hourCount: 500 }), 'posting_velocity').contribution, 0);
});

test('verified identity lowers risk and the level stays within 0..100', () => {
  assert.equal(signal(calm({ metadata: { identity_verified: true } }), 'verified_identity').contribution, -10);
  assert.equal(evaluateRisk(calm({ metadata: { identity_verified: true, email_verified: true, phone_verified: true } }), NOW, never).risk_level, 0);
  const worst = calm({
    firstSeen: NOW,
    email: 'x@bad.test',
    metadata: {},
    flaggedContent: 200,
    lastIncident: NOW,
    hourBucket: HOUR,
    hourCount: 100,
    peakMinuteCount: 50,
    spoofedContent: 200,
    linkCount: 400,
    duplicateContent: 200,
  });
  assert.equal(evaluateRisk(worst, NOW, () => true).risk_level, 100);
});
