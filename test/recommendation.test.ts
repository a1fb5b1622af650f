import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { findPolicy } from '../src/policies/registry.ts';
import { setAuthorStatus } from '../src/services/authors.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

const CONFUSABLE = 'this is a \u0441\u043e\u0441\u043e test'; // Cyrillic "сосо" posing as "coco"
const ZALGO = 'he\u0301\u0302\u0303\u0304\u0305\u0306llo wo\u0307\u0308\u0309\u030a\u030brld';

async function channel(key: string, settings: Record<string, unknown>) {
  const res = await t.request('POST', '/v1/channels', { body: { key, name: key, ...settings } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

const submit = async (channelKey: string, text: string, extra: Record<string, unknown> = {}) => {
  const res = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, channel: channelKey, ...extra } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};

test('rules on Unicode spoofing labels: reject lookalike words, review zalgo', async () => {
  assert.ok(findPolicy('unicode_spoofing'), 'the unicode_spoofing policy is registered');
  await channel('spoofing-rules', {
    rules: [
      { name: 'lookalike words', when: { labels: [{ policy: 'unicode_spoofing', label: 'confusable_word' }] }, action: 'reject' },
      { name: 'zalgo', when: { labels: [{ policy: 'unicode_spoofing', label: 'zalgo' }] }, action: 'review' },
    ],
  });
  const confusable = await submit('spoofing-rules', CONFUSABLE);
  assert.deepEqual(confusable.recommendation, { action: 'reject', reason_codes: ['rule_match'] });
  const zalgo = await submit('spoofing-rules', ZALGO);
  assert.deepEqual(zalgo.recommendation, { action: 'review', reason_codes: ['rule_match'] });
  const clean = await submit('spoofing-rules', 'a perfectly ordinary sentence');
  assert.deepEqual(clean.recommendation, { action: 'allow', reason_codes: [] });
});

test('a blocked or suspended author is rejected with author_block', async () => {
  await submit('default', 'first post', { authorId: 'troll' });
  await t.server.db.transaction((tx) => setAuthorStatus(tx, t.projectId, 'troll', { status: 'blocked', reason: 'abuse' }));
  const blocked = await submit('default', 'a perfectly ordinary sentence', { authorId: 'troll' });
  assert.deepEqual(blocked.recommendation, { action: 'reject', reason_codes: ['author_block'] });
  assert.equal(blocked.author.status, 'blocked');

  await submit('default', 'first post', { authorId: 'cooling-off' });
  await t.server.db.transaction((tx) => setAuthorStatus(tx, t.projectId, 'cooling-off', { status: 'suspended', until: Date.now() + 3_600_000 }));
  const suspended = await submit('default', 'a perfectly ordinary sentence', { authorId: 'cooling-off', doNotStore: true });
  assert.deepEqual(suspended.recommendation, { action: 'reject', reason_codes: ['author_block'] });
  assert.equal(suspended.author.status, 'suspended');
});

test('trust shapes triage: trusted_allow, untrusted_severity, and plain severity_review', async () => {
  // Only the spoofing policy runs, so a lookalike word scores the policy's severity and lands in the review band.
  await channel('trust-triage', { policies: [{ id: 'unicode_spoofing' }], triage: { review: 0.3, reject: 0.95 } });
  const plain = await submit('trust-triage', CONFUSABLE, { authorId: 'newcomer' });
  assert.deepEqual(plain.recommendation, { action: 'review', reason_codes: ['severity_review'] });

  await t.request('POST', '/v1/authors', { body: { external_id: 'veteran', manual_trust_level: 4 } });
  const trusted = await submit('trust-triage', CONFUSABLE, { authorId: 'veteran' });
  assert.deepEqual(trusted.recommendation, { action: 'allow', reason_codes: ['trusted_allow'] });

  await t.request('POST', '/v1/authors', { body: { external_id: 'suspicious', manual_trust_level: -1 } });
  const untrusted = await submit('trust-triage', CONFUSABLE, { authorId: 'suspicious' });
  assert.deepEqual(untrusted.recommendation, { action: 'reject', reason_codes: ['untrusted_severity'] });
});

test('per-policy overrides: always reject and always review', async () => {
  await channel('always-reject', { policies: [{ id: 'unicode_spoofing' }], alwaysReject: ['unicode_spoofing'] });
  assert.deepEqual((await submit('always-reject', ZALGO)).recommendation, { action: 'reject', reason_codes: ['severity_reject'] });
  await channel('always-review', { policies: [{ id: 'unicode_spoofing' }], alwaysReview: ['unicode_spoofing'] });
  assert.deepEqual((await submit('always-review', ZALGO)).recommendation, { action: 'review', reason_codes: ['severity_review'] });
  assert.deepEqual((await submit('always-review', 'nothing odd here')).recommendation, { action: 'allow', reason_codes: [] });
});

test('dry run answers allow and not flagged, and stores the real verdict', async () => {
  await channel('dry', { dryRun: true, policies: [{ id: 'unicode_spoofing' }], alwaysReject: ['unicode_spoofing'] });
  const answer = await submit('dry', ZALGO, { contentId: 'dry-1' });
  assert.deepEqual(answer.recommendation, { action: 'allow', reason_codes: ['dry_run'] });
  assert.equal(answer.evaluation.flagged, false);
  const { rows } = await t.server.db.query<{ flagged: boolean; recommendation: string; result: { recommendation: { reason_codes: string[] } } }>(
    'SELECT flagged, recommendation, result::json AS result FROM content_items WHERE project_id = $1 AND external_id = $2',
    [t.projectId, 'dry-1'],
  );
  assert.equal(rows[0]!.flagged, true);
  assert.equal(rows[0]!.recommendation, 'reject');
  assert.deepEqual(rows[0]!.result.recommendation.reason_codes, ['severity_reject']);
});

test('triage presets and recommendation settings are validated and shown', async () => {
  const strict = await channel('strict', { triage: { preset: 'strict' } });
  assert.deepEqual(strict.triage, { review: 0.3, reject: 0.7, preset: 'strict' });
  assert.deepEqual([strict.alwaysReview, strict.alwaysReject, strict.rules, strict.dryRun], [[], [], [], false]);
  const updated = await t.request('PUT', '/v1/channels/strict', { body: { triage: { preset: 'lenient' }, dryRun: true } });
  assert.equal(updated.status, 200);
  assert.deepEqual(updated.body.triage, { review: 0.7, reject: 0.95, preset: 'lenient' });
  assert.equal(updated.body.dryRun, true);

  const bad: Array<[string, Record<string, unknown>]> = [
    ['unknown preset', { triage: { preset: 'harsh' } }],
    ['unknown always-reject policy', { alwaysReject: ['nope'] }],
    ['unknown rule policy', { rules: [{ when: { policies: [{ id: 'nope' }] }, action: 'reject' }] }],
    ['bad rule action', { rules: [{ when: {}, action: 'delete' }] }],
    ['unknown rule condition', { rules: [{ when: { karma: 1 }, action: 'review' }] }],
    ['inverted trust range', { rules: [{ when: { trustLevel: { min: 3, max: 1 } }, action: 'review' }] }],
    ['trust range out of bounds', { rules: [{ when: { trustLevel: { min: 5 } }, action: 'review' }] }],
  ];
  for (const [name, body] of bad) {
    const res = await t.request('PUT', '/v1/channels/strict', { body });
    assert.equal(res.status, 400, name);
  }
  const after = await t.request('GET', '/v1/channels/strict');
  assert.deepEqual(after.body.triage, { review: 0.7, reject: 0.95, preset: 'lenient' }, 'refused updates change nothing');
});
