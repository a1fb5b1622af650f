import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../src/db/database.ts';
import { openTestDatabase } from '../src/db/testing.ts';
import { OutboxDispatcher } from '../src/outbox/outbox.ts';
import { outboxHandlers } from '../src/outbox/handlers.ts';
import type { AppDeps } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import {
  AUTHOR_BLOCK_EXPIRED_TOPIC,
  createAuthor,
  getAuthor,
  recordAuthorSeen,
  recordAuthorsSeen,
  setAuthorStatus,
  type SubmissionFacts,
} from '../src/services/authors.ts';

let db: Database;
let dispatcher: OutboxDispatcher;
before(async () => {
  db = await openTestDatabase();
  await db.query("INSERT INTO projects (id, name, created_at) VALUES ('p1', 'p', 0), ('p2', 'q', 0)");
  // Only the block-expiry topic: the real handler, from the real table.
  const expiry = outboxHandlers({ db, config: loadConfig({ LOG_LEVEL: 'silent' }) } as AppDeps).get(AUTHOR_BLOCK_EXPIRED_TOPIC)!;
  dispatcher = new OutboxDispatcher(db, new Map([[AUTHOR_BLOCK_EXPIRED_TOPIC, expiry]]));
});
after(() => db.close());

const DAY = 86_400_000;
const facts = (overrides: Partial<SubmissionFacts> = {}): SubmissionFacts => ({
  seenAt: Date.now(),
  flagged: false,
  contentType: 'text',
  sentiment: null,
  spoofed: false,
  linkCount: 0,
  fingerprint: null,
  ...overrides,
});

test('a suspension schedules its own expiry, which enables the author again', async () => {
  await createAuthor(db, 'p1', { external_id: 'suspend-me' });
  const until = Date.now() + 60_000;
  const suspended = await db.transaction((tx) => setAuthorStatus(tx, 'p1', 'suspend-me', { status: 'suspended', until, reason: 'spam' }));
  assert.equal(suspended.status, 'suspended');
  assert.deepEqual(suspended.block, { until, reason: 'spam' });
  assert.equal(suspended.metrics.violation_count, 1);
  assert.ok(suspended.last_incident !== null);

  const { rows } = await db.query<{ available_at: number; payload: { authorId: string; until: number } }>(
    'SELECT available_at, payload FROM outbox WHERE topic = $1 AND project_id = $2',
    [AUTHOR_BLOCK_EXPIRED_TOPIC, 'p1'],
  );
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.available_at, until);
  assert.equal(rows[0]!.payload.authorId, suspended.id);

  await dispatcher.runOnce(Date.now());
  assert.equal((await getAuthor(db, 'p1', 'suspend-me')).status, 'suspended', 'not due yet');
  await dispatcher.runOnce(until + 1);
  const restored = await getAuthor(db, 'p1', suspended.id);
  assert.equal(restored.status, 'enabled');
  assert.equal(restored.block, null);
});

test('an expiry does not lift a block that changed meanwhile', async () => {
  await createAuthor(db, 'p1', { external_id: 'reblocked' });
  const until = Date.now() + 1_000;
  await db.transaction((tx) => setAuthorStatus(tx, 'p1', 'reblocked', { status: 'suspended', until }));
  await db.transaction((tx) => setAuthorStatus(tx, 'p1', 'reblocked', { status: 'blocked', reason: 'for good' }));
  await dispatcher.runOnce(until + 1);
  const author = await getAuthor(db, 'p1', 'reblocked');
  assert.equal(author.status, 'blocked');
  assert.deepEqual(author.block, { until: null, reason: 'for good' });
  // Blocking an already suspended author is the same incident, not a second one.
  assert.equal(author.metrics.violation_count, 1);
});

test('a suspension whose time passed reads as enabled even before the job ran', async () => {
  await createAuthor(db, 'p1', { external_id: 'lapsed' });
  await db.transaction((tx) => setAuthorStatus(tx, 'p1', 'lapsed', { status: 'suspended', until: Date.now() - 1 }));
  assert.equal((await getAuthor(db, 'p1', 'lapsed')).status, 'enabled');
});

test('setAuthorStatus refuses a suspension without an end, and authors of other projects', async () => {
  await createAuthor(db, 'p1', { external_id: 'mine' });
  await assert.rejects(
    db.transaction((tx) => setAuthorStatus(tx, 'p1', 'mine', { status: 'suspended' })),
    (e: { status?: number }) => e.status === 400,
  );
  await assert.rejects(
    db.transaction((tx) => setAuthorStatus(tx, 'p2', 'mine', { status: 'blocked' })),
    (e: { status?: number }) => e.status === 404,
  );
  assert.equal((await getAuthor(db, 'p1', 'mine')).status, 'enabled');
});

test('enabling clears the block', async () => {
  await createAuthor(db, 'p1', { external_id: 'pardoned' });
  await db.transaction((tx) => setAuthorStatus(tx, 'p1', 'pardoned', { status: 'blocked', reason: 'x' }));
  const enabled = await db.transaction((tx) => setAuthorStatus(tx, 'p1', 'pardoned', { status: 'enabled', reason: 'ignored' }));
  assert.equal(enabled.status, 'enabled');
  assert.equal(enabled.block, null);
});

test('submissions keep the metrics, timestamps and content types current', async () => {
  const t0 = Date.now() - 10 * DAY;
  await recordAuthorSeen(db, 'p1', 'poster', facts({ seenAt: t0, sentiment: 0.5 }));
  await recordAuthorSeen(db, 'p1', 'poster', facts({ seenAt: t0 + DAY, flagged: true, contentType: 'image', sentiment: -1 }));
  await recordAuthorSeen(db, 'p1', 'poster', facts({ seenAt: t0 - DAY, contentType: 'object' }));
  const author = await getAuthor(db, 'p1', 'poster');
  assert.equal(author.first_seen, t0 - DAY);
  assert.equal(author.last_seen, t0 + DAY);
  assert.equal(author.last_incident, t0 + DAY);
  assert.deepEqual(
    { total: author.metrics.total_content, flagged: author.metrics.flagged_content, sentiment: author.metrics.average_sentiment },
    { total: 3, flagged: 1, sentiment: -0.25 },
  );
  assert.equal(author.metrics.violation_count, 1);
  assert.deepEqual(author.content_types, ['text', 'image', 'object']);
  // one flagged item of three recent ones is above 5%
  assert.deepEqual(author.trust_level, { level: -1, manual: false });
});

test('a batch with the same author twice counts both submissions', async () => {
  const summaries = await db.transaction((tx) =>
    recordAuthorsSeen(tx, [
      { projectId: 'p1', externalId: 'twice', facts: facts() },
      { projectId: 'p1', externalId: 'other', facts: facts() },
      { projectId: 'p1', externalId: 'twice', facts: facts({ flagged: true }) },
    ]),
  );
  assert.equal(summaries.length, 3);
  assert.equal(summaries[0]!.id, summaries[2]!.id);
  assert.notEqual(summaries[0]!.id, summaries[1]!.id);
  const author = await getAuthor(db, 'p1', 'twice');
  assert.equal(author.metrics.total_content, 2);
  assert.equal(author.metrics.flagged_content, 1);
});

test('the same text from a second author counts as duplicate content for that author', async () => {
  const fingerprint = 'same-spam-text';
  await recordAuthorSeen(db, 'p1', 'spammer-a', facts({ fingerprint }));
  await recordAuthorSeen(db, 'p1', 'spammer-a', facts({ fingerprint }));
  await recordAuthorSeen(db, 'p1', 'spammer-b', facts({ fingerprint }));
  await recordAuthorSeen(db, 'p1', 'spammer-b', facts({ fingerprint }));
  const signal = (a: Awaited<ReturnType<typeof getAuthor>>) => a.risk_evaluation.signals.find((s) => s.id === 'duplicate_content')!;
  assert.equal(signal(await getAuthor(db, 'p1', 'spammer-a')).value, 0, 'repeating oneself is not copying others');
  assert.equal(signal(await getAuthor(db, 'p1', 'spammer-b')).value, 2);
  assert.ok(signal(await getAuthor(db, 'p1', 'spammer-b')).contribution > 0);
});

test('the stored trust level follows the computed one for sorting', async () => {
  const old = Date.now() - 40 * DAY;
  for (let i = 0; i < 25; i++) await recordAuthorSeen(db, 'p1', 'veteran', facts({ seenAt: old + i }));
  const { rows } = await db.query<{ trust_level: number }>("SELECT trust_level FROM authors WHERE project_id = 'p1' AND external_id = 'veteran'");
  assert.equal(rows[0]!.trust_level, 2);
});
