import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { signIn, type DashboardClient } from './support/dashboard-client.ts';
import { copyItemAt } from './support/seed-history.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** GET /dashboard/api/projects/:projectId/overview: figures from the rollup, checked against the items themselves. */
describe('dashboard API: overview', () => {
  let t: TestServer;
  let admin: DashboardClient;
  let otherChannel: string;
  const P = () => `/projects/${t.projectId}`;
  const moderate = async (contentId: string, text: string, extra: Record<string, unknown> = {}) => {
    const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, contentId, ...extra } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };

  before(async () => {
    // Queue counts every 200 ms, so the test sees a resolution in the overview without waiting a minute.
    t = await startTestServer({ QUEUE_COUNT_INTERVAL_MS: '200' });
    admin = await signIn(t, t.admin.email, t.admin.password);
    const channel = await t.request('POST', '/v1/channels', { body: { key: 'reviews', name: 'Product reviews' } });
    assert.ok(channel.status === 200 || channel.status === 201, JSON.stringify(channel.body));
    otherChannel = channel.body.id ?? channel.body.channel?.id;
    assert.ok(otherChannel, JSON.stringify(channel.body));
  });
  after(() => t.close());

  test('volumes, verdicts and per-policy flags match the stored items, per channel too; resubmissions count once', async () => {
    const texts = ['you are a complete idiot and a moron', 'have a lovely day', 'I will kill you, you stupid idiot', 'see you tomorrow at the market', 'shut up you worthless idiot'];
    for (const [i, text] of texts.entries()) await moderate(`ov-${i}`, text, { authorId: `ov-author-${i % 3}` });
    await moderate('ov-review-0', 'fine product, arrived on time', { channel: 'reviews' });
    await moderate('ov-review-1', 'this seller is an idiot and a fraud', { channel: 'reviews' });
    await moderate('ov-0', 'you are a complete idiot and a moron', { authorId: 'ov-author-0' });
    await moderate('not-stored', 'you idiot', { doNotStore: true });

    const r = await admin.call('GET', `${P()}/overview`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const o = r.body;
    const truth = await t.server.db.query<any>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE flagged)::int AS flagged,
         count(*) FILTER (WHERE recommendation = 'allow')::int AS allow, count(*) FILTER (WHERE recommendation = 'review')::int AS review,
         count(*) FILTER (WHERE recommendation = 'reject')::int AS reject FROM content_items WHERE project_id = $1`,
      [t.projectId],
    );
    const want = truth.rows[0];
    assert.equal(want.n, 7);
    assert.deepEqual(
      { n: o.totals.submissions, flagged: o.totals.flagged, allow: o.totals.allow, review: o.totals.review, reject: o.totals.reject },
      { n: want.n, flagged: want.flagged, allow: want.allow, review: want.review, reject: want.reject },
    );
    assert.ok(want.flagged >= 3, `seed flags some items (${want.flagged})`);
    const policyTruth = await t.server.db.query<{ id: string; n: number }>(
      `SELECT p->>'id' AS id, count(*)::int AS n FROM content_items, json_array_elements(result::json->'policies') p
       WHERE project_id = $1 AND flagged AND p->>'flagged' = 'true' GROUP BY 1`,
      [t.projectId],
    );
    assert.ok(policyTruth.rows.length > 0);
    assert.deepEqual(o.totals.policies, Object.fromEntries(policyTruth.rows.map((p) => [p.id, p.n])));
    assert.equal(o.totals.newAuthors, 3);
    assert.equal(o.period.bucket, 'day');
    assert.equal(o.series.length, 8, '7 days widened to whole UTC days');
    assert.equal(o.series.reduce((s: number, p: any) => s + p.submissions, 0), 7);
    assert.ok(o.channels.some((c: any) => c.id === otherChannel));

    const only = (await admin.call('GET', `${P()}/overview?channelId=${otherChannel}`)).body;
    assert.equal(only.totals.submissions, 2);
    const channelFlagged = await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_items WHERE project_id = $1 AND channel_id = $2 AND flagged', [t.projectId, otherChannel]);
    assert.equal(only.totals.flagged, channelFlagged.rows[0]!.n);
  });

  test('hourly points place backdated items in their hour; periods outside them are empty', async () => {
    const now = Date.now();
    const hourStart = Math.floor(now / HOUR) * HOUR;
    await copyItemAt(t.server.db, t.projectId, 'ov-1', [
      { externalId: 'old-a', at: hourStart - 5 * HOUR + 60_000 },
      { externalId: 'old-b', at: hourStart - 5 * HOUR + 120_000 },
      { externalId: 'old-c', at: hourStart - 30 * HOUR },
    ]);
    const r = await admin.call('GET', `${P()}/overview?from=${hourStart - 6 * HOUR}&to=${hourStart}&bucket=hour`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const o = r.body;
    assert.equal(o.series.length, 6);
    assert.deepEqual(o.series.map((p: any) => p.submissions), [0, 2, 0, 0, 0, 0]);
    assert.equal(o.series[1].t, hourStart - 5 * HOUR);
    const older = (await admin.call('GET', `${P()}/overview?from=${hourStart - 2 * DAY}&to=${hourStart - 29 * HOUR}&bucket=hour`)).body;
    assert.equal(older.totals.submissions, 1);
  });

  /** The overview once its count of the queue started at or after `since`. */
  const overviewCountedSince = async (queueId: string, since: number) => {
    for (let i = 0; ; i++) {
      const o = (await admin.call('GET', `${P()}/overview`)).body;
      const q = o.queues.find((x: any) => x.id === queueId);
      if (q.countedAt !== null && q.countedAt >= since) return { o, q };
      if (i > 300) throw new Error(`no count of ${queueId} since ${since}: ${JSON.stringify(q)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  test('open items now, time to review, top reviewers and actions, trust levels', async () => {
    // A flagged item from before the period: open now counts it (the period does not bound it).
    await copyItemAt(t.server.db, t.projectId, 'ov-0', [{ externalId: 'ov-ancient', at: Date.now() - 30 * DAY }]);
    const queue = await t.request('POST', '/v1/queue', { body: { name: 'Flagged', filter: { flagged: 'FLAGGED', showShadowFlagged: false } } });
    const queueId = queue.body.queue.id;
    const { q: flaggedQueue } = await overviewCountedSince(queueId, 0);
    const flaggedNow = await t.server.db.query<{ n: number; older: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE created_at < $2)::int AS older FROM content_items WHERE project_id = $1 AND flagged',
      [t.projectId, Date.now() - 7 * DAY],
    );
    assert.ok(flaggedNow.rows[0]!.n >= 3);
    assert.equal(flaggedNow.rows[0]!.older, 1, 'the copy from 30 days ago is flagged');
    assert.equal(flaggedQueue.open, flaggedNow.rows[0]!.n);
    assert.equal(flaggedQueue.countError, null);
    assert.equal(flaggedQueue.medianReviewMs, null);

    const done = await admin.call('POST', `${P()}/actions/execute`, { body: { actionId: 'reject', queueId, contentIds: ['ov-2'] } });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const resolved = await admin.call('POST', `${P()}/queues/${queueId}/items/ov-4/resolve`, { body: {} });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const { o: after, q } = await overviewCountedSince(queueId, Date.now());
    assert.equal(q.open, flaggedQueue.open - 2);
    assert.equal(q.reviewed, 2);
    assert.ok(q.medianReviewMs >= 0);
    assert.equal(after.review.decisions, 2);
    assert.deepEqual(after.reviewers[0], { actor: t.admin.email, kind: 'user', decisions: 2 });
    assert.equal(after.actions[0].count, 1);
    const levels = Object.fromEntries(after.trustLevels.map((l: any) => [l.name, l.authors]));
    const authors = await t.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM authors WHERE project_id = $1', [t.projectId]);
    assert.equal(Object.values(levels).reduce((a: number, b) => a + (b as number), 0), authors.rows[0]!.n);
    assert.ok(after.timings.volumes >= 0);
    assert.equal(after.reviewPeriod.from, Math.floor(after.period.from / HOUR) * HOUR, 'review figures cover whole hours');
    assert.equal(after.reviewPeriod.to, Math.ceil(after.period.to / HOUR) * HOUR);
  });

  test('trust levels follow new authors, manual levels, resubmissions and deletes', async () => {
    const exactLevels = async () => {
      const { rows } = await t.server.db.query<{ level: number; n: number }>('SELECT trust_level AS level, count(*)::int AS n FROM authors WHERE project_id = $1 GROUP BY 1', [t.projectId]);
      return Object.fromEntries(rows.map((r) => [r.level, r.n]));
    };
    const shown = async () => {
      const r = await admin.call('GET', `${P()}/overview`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return Object.fromEntries(r.body.trustLevels.filter((l: any) => l.authors > 0).map((l: any) => [l.level, l.authors]));
    };
    for (const id of ['tl-a', 'tl-b', 'tl-c']) {
      const created = await t.request('POST', '/v1/authors', { body: { external_id: id } });
      assert.equal(created.status, 200, JSON.stringify(created.body));
    }
    assert.deepEqual(await shown(), await exactLevels());
    const before = await shown();
    const set = await t.request('PUT', '/v1/authors/tl-a', { body: { manual_trust_level: 4 } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.trust_level.level, 4);
    const moved = await shown();
    assert.equal(moved[4] ?? 0, (before[4] ?? 0) + 1, 'the author moved to level 4');
    assert.deepEqual(moved, await exactLevels());
    await t.request('PUT', '/v1/authors/tl-b', { body: { manual_trust_level: -1 } });
    await moderate('tl-item-1', 'you are a complete idiot', { authorId: 'tl-b' });
    await moderate('tl-item-1', 'you are a complete idiot and a moron', { authorId: 'tl-b' });
    await moderate('tl-item-2', 'hello there', { authorId: 'tl-new' });
    await t.request('PUT', '/v1/authors/tl-b', { body: { manual_trust_level: null } });
    assert.deepEqual(await shown(), await exactLevels());
    const deleted = await t.request('DELETE', '/v1/authors/tl-a');
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const after = await shown();
    assert.equal(after[4] ?? 0, (moved[4] ?? 0) - 1, 'the deleted author is no longer counted');
    assert.deepEqual(after, await exactLevels());
  });

  test('bad periods answer 400 {code, message, issues}', async () => {
    const now = Date.now();
    for (const query of [`from=${now}&to=${now - 1}`, `from=0&to=${now}`, `from=${now - 20 * DAY}&to=${now}&bucket=hour`, 'bucket=week', 'channelId=ch_nope', 'from=abc', 'extra=1']) {
      const r = await admin.call('GET', `${P()}/overview?${query}`);
      assert.equal(r.status, 400, `${query}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'BAD_REQUEST');
      assert.ok(r.body.issues.length > 0);
    }
  });
});
