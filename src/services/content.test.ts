import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestDatabase } from '../db/testing.ts';
import type { Database } from '../db/database.ts';
import { storeContent, type StoredSubmission } from './content.ts';

// The batch statement behind /v1/moderate's storing, on a real store.
let db: Database;
before(async () => {
  db = await openTestDatabase();
  await db.exec(`
    INSERT INTO projects (id, name, created_at) VALUES ('p1', 'one', 0);
    INSERT INTO channels (id, project_id, key, name, is_default, config, created_at, updated_at) VALUES ('ch1', 'p1', 'default', 'Default', true, '{}', 0, 0);
  `);
});
after(() => db.close());

const submission = (externalId: string | null, overrides: Partial<StoredSubmission> = {}): StoredSubmission => ({
  projectId: 'p1',
  externalId,
  channelId: 'ch1',
  conversationId: null,
  metaType: null,
  contentType: 'text',
  content: { type: 'text', text: 'hello' },
  modified: null,
  metadata: null,
  flagged: false,
  shadowFlagged: false,
  flagProbability: 0.25,
  severityScore: 0.1,
  recommendation: 'allow',
  resultJson: '{"policies":[]}',
  submittedAt: 1,
  ...overrides,
});

test('every column of every row lands in its own row, whatever the mix of nulls and awkward text', async () => {
  const awkward = 'quotes " backslash \\ braces {} comma , record separator \u001e NULL';
  const items = [
    submission('first', { metadata: { note: awkward }, modified: null }),
    submission('second', { conversationId: awkward, metaType: 'message', modified: 'cleaned text', metadata: null, flagged: true, shadowFlagged: true }),
    submission('third', { content: { type: 'object', data: { a: { type: 'text', text: awkward } } }, modified: { a: '***' }, metadata: { n: 1 }, resultJson: '{"policies":[{"id":"spam","probability":0.9,"flagged":true}],"shadow_flagged":["x"]}' }),
  ];
  const ids = await storeContent(db, items);
  assert.deepEqual(ids, ['first', 'second', 'third']);
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT external_id, conversation_id, meta_type, content, modified, metadata, flagged, shadow_flagged, flag_probability, result::json AS result
     FROM content_items WHERE project_id = 'p1' AND external_id = ANY($1::text[]) ORDER BY external_id`,
    [ids],
  );
  assert.deepEqual(rows, [
    { external_id: 'first', conversation_id: null, meta_type: null, content: { type: 'text', text: 'hello' }, modified: null, metadata: { note: awkward }, flagged: false, shadow_flagged: false, flag_probability: 0.25, result: { policies: [] } },
    { external_id: 'second', conversation_id: awkward, meta_type: 'message', content: { type: 'text', text: 'hello' }, modified: 'cleaned text', metadata: null, flagged: true, shadow_flagged: true, flag_probability: 0.25, result: { policies: [] } },
    {
      external_id: 'third', conversation_id: null, meta_type: null, content: items[2]!.content, modified: { a: '***' }, metadata: { n: 1 }, flagged: false, shadow_flagged: false, flag_probability: 0.25,
      result: { policies: [{ id: 'spam', probability: 0.9, flagged: true }], shadow_flagged: ['x'] },
    },
  ]);
});

test('a lone row with every optional document null is stored with those columns null', async () => {
  await storeContent(db, [submission('alone')]);
  const { rows } = await db.query('SELECT modified, metadata FROM content_items WHERE external_id = $1', ['alone']);
  assert.deepEqual(rows, [{ modified: null, metadata: null }]);
});

test('a contentId sent twice in one batch is one item, the later one winning, also when the ids differ only in a lone surrogate', async () => {
  await storeContent(db, [submission('twice', { flagProbability: 0.1 }), submission('twice', { flagProbability: 0.2 })]);
  // The store keeps a lone surrogate as U+FFFD, so these two name the same item.
  await storeContent(db, [submission('lone\ud800', { flagProbability: 0.3 }), submission('lone\udbff', { flagProbability: 0.4 })]);
  const { rows } = await db.query<{ external_id: string; flag_probability: number }>(
    "SELECT external_id, flag_probability FROM content_items WHERE external_id IN ('twice', 'lone\uFFFD') ORDER BY external_id",
  );
  assert.deepEqual(rows, [
    { external_id: 'lone\uFFFD', flag_probability: 0.4 },
    { external_id: 'twice', flag_probability: 0.2 },
  ]);
});

test('a row over about 2 kB has its stored evaluation compressed with lz4 where the server has it; smaller rows are not; every size reads back whole', async () => {
  const policies = Array.from({ length: 30 }, (_, i) => ({ id: `policy_${i}`, type: 'classifier', probability: i / 100, flagged: false }));
  const small = JSON.stringify({ policies: policies.slice(0, 15) }); // a row of about 1.4 kB
  const mid = JSON.stringify({ policies }); // about 2.2 kB, like the result of a 280-character message
  const huge = JSON.stringify({ policies: Array.from({ length: 40 }, () => policies).flat() });
  const longText = 'a moderately long message about gardens. '.repeat(2_500);
  await storeContent(db, [
    submission('small', { resultJson: small }),
    submission('mid-sized', { resultJson: mid }),
    submission('huge', { resultJson: huge, content: { type: 'text', text: longText } }),
  ]);
  const { rows } = await db.query<{ external_id: string; method: string | null; result: unknown; content: { text: string } }>(
    "SELECT external_id, pg_column_compression(result) AS method, result::json AS result, content FROM content_items WHERE external_id IN ('small', 'mid-sized', 'huge') ORDER BY external_id",
  );
  assert.deepEqual(rows.map((r) => [r.external_id, r.result]), [['huge', JSON.parse(huge)], ['mid-sized', JSON.parse(mid)], ['small', JSON.parse(small)]]);
  assert.equal(rows[0]!.content.text, longText);
  const { rows: methods } = await db.query<{ lz4: boolean }>(
    "SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'",
  );
  // Migration 0014: lz4 once a row passes PostgreSQL's compression threshold (2,032 bytes) where the
  // server was built with it; without it (the embedded store) rows of up to 8 kB stay uncompressed,
  // as migration 0012 set. Below the threshold nothing is compressed on either store.
  assert.equal(rows[1]!.method, methods[0]!.lz4 ? 'lz4' : null);
  assert.equal(rows[2]!.method, null);
});

test('new items are announced to the outbox in the statement that stores them; re-submissions and projects without a subscribed webhook are not', async () => {
  await db.exec(`
    INSERT INTO projects (id, name, created_at) VALUES ('p2', 'two', 0), ('p3', 'three', 0);
    INSERT INTO channels (id, project_id, key, name, is_default, config, created_at, updated_at) VALUES
      ('ch2', 'p2', 'default', 'Default', true, '{}', 0, 0), ('ch3', 'p3', 'default', 'Default', true, '{}', 0, 0);
    INSERT INTO webhooks (id, project_id, name, url, events, created_at, updated_at) VALUES
      ('wh2', 'p2', 'new items', 'https://example.com/hook', '["QUEUE_ITEM_NEW"]', 0, 0),
      ('wh3', 'p3', 'actions only', 'https://example.com/hook', '["QUEUE_ITEM_ACTION"]', 0, 0);
  `);
  const inP2 = (externalId: string | null) => submission(externalId, { projectId: 'p2', channelId: 'ch2' });
  await storeContent(db, [inP2('known')]);
  const announced = async () =>
    (
      await db.query<{ external_id: string }>(
        `SELECT ci.external_id FROM outbox o JOIN content_items ci ON ci.id = o.payload->>'contentId'
         WHERE o.topic = 'webhook.queue_item_new' AND o.project_id = 'p2' ORDER BY o.id`,
      )
    ).rows.map((r) => r.external_id);
  assert.deepEqual(await announced(), ['known']);

  // One batch of every kind: a generated id, a new contentId, a re-submitted one, and an item of a
  // project whose webhook does not ask for new items.
  const ids = await storeContent(db, [inP2(null), inP2('fresh'), inP2('known'), submission(null, { projectId: 'p3', channelId: 'ch3' })]);
  assert.equal(ids[2], 'known');
  assert.deepEqual((await announced()).sort(), ['known', 'fresh', ids[0]!].sort());
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE project_id = 'p3'");
  assert.equal(rows[0]!.n, 0);
  const { rows: stored } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM content_items WHERE project_id IN ('p2', 'p3')");
  assert.equal(stored[0]!.n, 4);
});

test('a batch of generated and caller ids is stored all or nothing', async () => {
  const before = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_items');
  // A NUL character, which the store's text cannot hold, fails the second statement (the named item) after the first has run.
  await assert.rejects(storeContent(db, [submission(null), submission('bad', { conversationId: 'nul \u0000 byte' })]));
  const afterwards = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_items');
  assert.equal(afterwards.rows[0]!.n, before.rows[0]!.n);
});
