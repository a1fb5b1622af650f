import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestDatabase } from '../db/testing.ts';
import type { Database } from '../db/database.ts';
import { parseDate, queueFilterSql, SqlParams, validateQueueFilter, type QueueFilter } from './queue-filter.ts';

// The SQL a filter builds, run against a real store with a handful of items.
let db: Database;
before(async () => {
  db = await openTestDatabase();
  await db.exec(`
    INSERT INTO projects (id, name, created_at) VALUES ('p1', 'one', 0), ('p2', 'two', 0);
    INSERT INTO channels (id, project_id, key, name, is_default, config, created_at, updated_at)
      VALUES ('ch1', 'p1', 'default', 'Default', true, '{}', 0, 0), ('ch2', 'p1', 'forum', 'Forum', false, '{}', 0, 0),
             ('ch3', 'p2', 'default', 'Default', true, '{}', 0, 0);
    INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at)
      VALUES ('au1', 'p1', 'alice', 0, 0, 0, 0);
  `);
  const item = (id: string, project: string, channel: string, opts: { author?: string; conversation?: string; flagged: boolean; recommendation: string; policies: unknown[]; shadowFlagged?: string[]; at: number }) =>
    db.query(
      `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, content_type, content, flagged,
         shadow_flagged, flag_probability, severity_score, recommendation, result, submitted_at, created_at, updated_at)
       VALUES ($1, $2, $1, $3, $4, $5, 'text', '{}', $6, $10, 0, 0, $7, $8, $9, $9, $9)`,
      [id, project, channel, opts.author ?? null, opts.conversation ?? null, opts.flagged, opts.recommendation, JSON.stringify({ policies: opts.policies, ...(opts.shadowFlagged ? { shadow_flagged: opts.shadowFlagged } : {}) }), opts.at, (opts.shadowFlagged?.length ?? 0) > 0],
    );
  await item('toxic', 'p1', 'ch1', { author: 'au1', conversation: 'c1', flagged: true, recommendation: 'review', policies: [{ id: 'toxicity', probability: 0.9, flagged: true }], at: 1_000 });
  await item('shadow', 'p1', 'ch2', { conversation: 'c2', flagged: false, recommendation: 'allow', policies: [{ id: 'unicode_spoofing', probability: 1, flagged: false }], shadowFlagged: ['unicode_spoofing'], at: 2_000 });
  await item('clean', 'p1', 'ch1', { flagged: false, recommendation: 'allow', policies: [{ id: 'toxicity', probability: 0.1, flagged: false }], at: 3_000 });
  await item('foreign', 'p2', 'ch3', { flagged: true, recommendation: 'reject', policies: [{ id: 'toxicity', probability: 0.99, flagged: true }], at: 1_500 });
  // Scored high by a policy with flagging turned off: not a shadow flag, the pipeline recorded none.
  await item('unflaggable', 'p2', 'ch3', { flagged: false, recommendation: 'allow', policies: [{ id: 'toxicity', probability: 0.8, flagged: false }], at: 1_600 });
  await db.exec(`INSERT INTO audit_log (id, project_id, kind, action_id, action_key, content_id, created_at) VALUES ('l1', 'p1', 'action', 'act1', 'warn', 'clean', 0)`);
});
after(() => db.close());

async function select(filter: QueueFilter, project = 'p1'): Promise<string[]> {
  const params = new SqlParams([project]);
  const where = queueFilterSql(filter, params, '$1');
  const { rows } = await db.query<{ id: string }>(`SELECT ci.id FROM content_items ci WHERE ${where} ORDER BY ci.id`, params.values);
  return rows.map((r) => r.id);
}

test('an empty filter selects every item of the project and none of another', async () => {
  assert.deepEqual(await select({}), ['clean', 'shadow', 'toxic']);
  assert.deepEqual(await select({}, 'p2'), ['foreign', 'unflaggable']);
});

test('flagged, not flagged and shadow-flagged', async () => {
  assert.deepEqual(await select({ flagged: 'FLAGGED' }), ['shadow', 'toxic']);
  assert.deepEqual(await select({ flagged: 'FLAGGED', showShadowFlagged: false }), ['toxic']);
  assert.deepEqual(await select({ flagged: 'NOT_FLAGGED' }), ['clean', 'shadow']);
  assert.deepEqual(await select({ flagged: 'NOT_FLAGGED', showShadowFlagged: false }), ['clean']);
  assert.deepEqual(await select({ showShadowFlagged: false }), ['clean', 'toxic']);
  // Only what the pipeline recorded as shadow-flagged counts, not any high score.
  assert.deepEqual(await select({ flagged: 'FLAGGED' }, 'p2'), ['foreign']);
  assert.deepEqual(await select({ showShadowFlagged: false }, 'p2'), ['foreign', 'unflaggable']);
});

test('label conditions', async () => {
  assert.deepEqual(await select({ labels: ['toxicity'] }), ['toxic']);
  assert.deepEqual(await select({ filterLabels: [{ label: 'toxicity', type: 'NOT_FLAGGED' }] }), ['clean', 'shadow']);
  assert.deepEqual(await select({ filterLabels: [{ label: 'toxicity', type: 'THRESHOLDS', minThreshold: 0.05, maxThreshold: 0.5 }] }), ['clean']);
  assert.deepEqual(await select({ filterLabels: [{ label: 'unicode_spoofing', type: 'THRESHOLDS', minThreshold: 0.5 }] }), ['shadow']);
});

test('channels by id or key, author, conversations, recommendations, actions taken, dates', async () => {
  assert.deepEqual(await select({ filteredChannelIds: ['forum'] }), ['shadow']);
  assert.deepEqual(await select({ filteredChannelIds: ['ch1'] }), ['clean', 'toxic']);
  assert.deepEqual(await select({ filteredChannelIds: ['ch3'] }), [], 'a channel of another project selects nothing');
  assert.deepEqual(await select({ authorID: 'alice' }), ['toxic']);
  assert.deepEqual(await select({ authorID: 'au1' }), ['toxic']);
  assert.deepEqual(await select({ conversationIds: ['c2', null] }), ['clean', 'shadow']);
  assert.deepEqual(await select({ recommendationActions: ['review'] }), ['toxic']);
  assert.deepEqual(await select({ filteredActionIds: ['warn'] }), ['clean']);
  assert.deepEqual(await select({ filteredActionIds: ['act1'] }), ['clean']);
  assert.deepEqual(await select({ afterDate: '1500', beforeDate: '2500' }), ['shadow']);
  assert.deepEqual(await select({ afterDate: '1970-01-01T00:00:02.500Z' }), ['clean']);
});

test('values travel as parameters, never as SQL text', async () => {
  const params = new SqlParams(['p1']);
  const sql = queueFilterSql({ authorID: "x' OR 1=1 --", labels: ["'; DROP TABLE authors; --"] }, params, '$1');
  assert.ok(!sql.includes('DROP'));
  assert.ok(!sql.includes("OR 1=1"));
  assert.deepEqual(await select({ authorID: "x' OR 1=1 --" }), []);
});

test('validation names the bad field', () => {
  assert.deepEqual(validateQueueFilter({ afterDate: 'soon' }), [{ message: 'afterDate must be an ISO 8601 date or milliseconds since the epoch', path: '/filter/afterDate' }]);
  assert.equal(validateQueueFilter({ afterDate: '2024-02-01', beforeDate: '2024-01-01' })[0]!.path, '/filter/afterDate');
  assert.equal(validateQueueFilter({ filterLabels: [{ label: 'x', type: 'THRESHOLDS' }] })[0]!.path, '/filter/filterLabels/0');
  assert.equal(validateQueueFilter({ filterLabels: [{ label: 'x', type: 'THRESHOLDS', minThreshold: 0.8, maxThreshold: 0.2 }] }).length, 1);
  assert.deepEqual(validateQueueFilter({ flagged: 'FLAGGED', labels: ['a'] }), []);
  assert.equal(parseDate('2024-01-01T00:00:00Z'), Date.UTC(2024, 0, 1));
  assert.equal(parseDate('12345'), 12345);
  assert.equal(parseDate('January'), null);
});
