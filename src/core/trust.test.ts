import { test } from 'node:test';
import assert from 'node:assert/strict';
import { automaticTrustLevel, trustLevel, type TrustFacts } from './trust.ts';

const DAY = 86_400_000;
const NOW = 1_700_000_000_000;
const facts = (days: number, clean: number, overrides: Partial<TrustFacts> = {}): TrustFacts => ({
  firstSeen: NOW - days * DAY,
  totalContent: clean,
  flaggedContent: 0,
  recentCount: Math.min(100, clean),
  recentFlagged: 0,
  metadata: {},
  manualTrustLevel: null,
  ...overrides,
});

const boundaries: Array<[string, TrustFacts, number]> = [
  ['brand new', facts(0, 0), 0],
  ['7 days but 4 clean items', facts(7, 4), 0],
  ['6.99 days and 5 clean items', facts(6.99, 5), 0],
  ['7 days and 5 clean items: Basic', facts(7, 5), 1],
  ['30 days and 24 clean: still Basic', facts(30, 24), 1],
  ['29.9 days and 25 clean: still Basic', facts(29.9, 25), 1],
  ['30 days and 25 clean: Member', facts(30, 25), 2],
  ['90 days and 49 clean: Member', facts(90, 49), 2],
  ['90 days and 50 clean: Regular', facts(90, 50), 3],
  ['years and thousands: never Trusted automatically', facts(2000, 5000), 3],
  ['flagged items do not count as clean', facts(10, 6, { totalContent: 6, flaggedContent: 0 }), 1],
  ['5 of 100 recent flagged (exactly 5%) is not untrusted', facts(100, 60, { totalContent: 65, flaggedContent: 5, recentCount: 100, recentFlagged: 5 }), 3],
  ['6 of 100 recent flagged is untrusted', facts(100, 60, { totalContent: 66, flaggedContent: 6, recentCount: 100, recentFlagged: 6 }), -1],
  ['1 flagged of the first 10 items is untrusted', facts(1, 9, { totalContent: 10, flaggedContent: 1, recentCount: 10, recentFlagged: 1 }), -1],
  ['identity verified lifts New to Basic', facts(0, 0, { metadata: { identity_verified: true } }), 1],
  ['paying customer lifts Member to Regular', facts(30, 25, { metadata: { is_paying_customer: true } }), 3],
  ['evidence never lifts Regular to Trusted', facts(90, 50, { metadata: { identity_verified: true, is_paying_customer: true } }), 3],
  ['evidence never lifts an untrusted author', facts(1, 9, { totalContent: 10, flaggedContent: 1, recentCount: 10, recentFlagged: 1, metadata: { identity_verified: true } }), -1],
  ['email or phone verification alone is not evidence', facts(0, 0, { metadata: { email_verified: true, phone_verified: true } }), 0],
];

for (const [name, given, expected] of boundaries) {
  test(`trust: ${name}`, () => assert.equal(automaticTrustLevel(given, NOW), expected));
}

test('a manual level overrides the rules, and null returns to them', () => {
  assert.deepEqual(trustLevel(facts(0, 0, { manualTrustLevel: 4 }), NOW), { level: 4, manual: true });
  assert.deepEqual(trustLevel(facts(100, 100, { manualTrustLevel: -1 }), NOW), { level: -1, manual: true });
  assert.deepEqual(trustLevel(facts(100, 100, { manualTrustLevel: null }), NOW), { level: 3, manual: false });
});
