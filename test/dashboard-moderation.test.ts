import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { signIn, type DashboardClient } from './support/dashboard-client.ts';
import { createUser, setMembership } from '../src/services/dashboard/users.ts';

describe('dashboard moderation: queues, items, claims, actions, authors, audit, members', () => {
  let t: TestServer;
  let admin: DashboardClient;
  let mod: DashboardClient;
  let mod2: DashboardClient;
  let queueId: string;
  let modUserId: string;
  const P = () => `/projects/${t.projectId}`;
  const submit = async (contentId: string, text: string, authorId = 'author-1') => {
    const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, contentId, authorId } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };

  before(async () => {
    t = await startTestServer();
    queueId = (await t.request('POST', '/v1/queue', { body: { name: 'All content' } })).body.queue.id;
    const db = t.server.db;
    const { user: m1 } = await createUser(db, { email: 'mod1@example.test', name: 'Mo One', password: 'moderator one pw' });
    const { user: m2 } = await createUser(db, { email: 'mod2@example.test', name: 'Mo Two', password: 'moderator two pw' });
    await setMembership(db, m1.id, t.projectId, 'moderator');
    await setMembership(db, m2.id, t.projectId, 'moderator');
    modUserId = m1.id;
    admin = await signIn(t, t.admin.email, t.admin.password);
    mod = await signIn(t, 'mod1@example.test', 'moderator one pw');
    mod2 = await signIn(t, 'mod2@example.test', 'moderator two pw');
  });
  after(() => t.close());

  test('queue list with counts, items with author, claim and labels; item detail with Unicode positions and policy results', async () => {
    await submit('spoof-1', 'Log in at pаypal.com to claim your prize', 'spoofer');
    await submit('plain-1', 'What a lovely morning', 'author-1');
    const queues = await mod.call('GET', `${P()}/queues`);
    assert.equal(queues.status, 200);
    const queue = queues.body.queues.find((q: any) => q.id === queueId);
    assert.equal(queue.totalItemsCount, 2);
    assert.equal(queue.unresolvedItemsCount, 2);

    const claim = await mod.call('POST', `${P()}/items/spoof-1/claim`, { body: {} });
    assert.equal(claim.status, 200);
    assert.equal(claim.body.claim.email, 'mod1@example.test');
    const items = await mod2.call('GET', `${P()}/queues/${queueId}/items?sortField=createdAt&sortDirection=asc`);
    assert.equal(items.status, 200);
    assert.deepEqual(items.body.items.map((i: any) => i.id), ['spoof-1', 'plain-1']);
    const spoofed = items.body.items[0];
    assert.equal(spoofed.author.externalId, 'spoofer');
    assert.equal(spoofed.author.status, 'enabled');
    assert.equal(spoofed.claim.email, 'mod1@example.test', 'the other moderator sees who is reviewing it');
    assert.equal(spoofed.claim.mine, false);
    assert.ok(spoofed.labels.some((l: any) => l.label === 'unicode_spoofing' && l.flagged));
    assert.equal(items.body.pagination.totalItems, 2);

    const taken = await mod2.call('POST', `${P()}/items/spoof-1/claim`, { body: {} });
    assert.equal(taken.status, 409);
    assert.match(taken.body.message, /Mo One \(mod1@example\.test\) is reviewing this item/);
    const renewed = await mod.call('POST', `${P()}/items/spoof-1/claim`, { body: {} });
    assert.equal(renewed.body.claim.claimedAt, claim.body.claim.claimedAt, 'renewing keeps the start');
    assert.ok(renewed.body.claim.expiresAt >= claim.body.claim.expiresAt);
    assert.equal((await mod.call('DELETE', `${P()}/items/spoof-1/claim`)).body.released, true);
    assert.equal((await mod2.call('POST', `${P()}/items/spoof-1/claim`, { body: {} })).status, 200, 'free once released');

    const detail = await mod.call('GET', `${P()}/items/spoof-1?queueId=${queueId}`);
    assert.equal(detail.status, 200);
    assert.deepEqual(detail.body.item.content, { type: 'text', text: 'Log in at pаypal.com to claim your prize' });
    assert.equal(detail.body.queue.status, 'pending');
    assert.equal(detail.body.claim.email, 'mod2@example.test');
    assert.ok(Array.isArray(detail.body.recommendation.reason_codes));
    const policy = detail.body.policies.find((p: any) => p.id === 'unicode_spoofing');
    assert.equal(policy.flagged, true);
    const finding = detail.body.unicode[0].findings[0];
    const text = detail.body.item.content.text as string;
    assert.equal(text.slice(finding.offset, finding.offset + finding.word.length), finding.word);
    assert.ok(finding.word.includes('\u0430'));
    assert.ok(finding.codePoints.includes('U+0430'));
    assert.equal(typeof finding.looksLike, 'string');
  });

  test('resolve and unresolve with a comment; acting on an already-resolved item answers 409 and says by whom', async () => {
    await submit('res-1', 'resolve me please');
    const first = await mod.call('POST', `${P()}/queues/${queueId}/items/res-1/resolve`, { body: { comment: 'looked fine' } });
    assert.equal(first.status, 200);
    assert.equal(first.body.comment, 'looked fine');
    const second = await mod2.call('POST', `${P()}/queues/${queueId}/items/res-1/resolve`, { body: { comment: 'me too' } });
    assert.equal(second.status, 409);
    assert.match(second.body.message, /already resolved in queue "All content" by mod1@example\.test/);
    const act = await mod2.call('POST', `${P()}/actions/execute`, { body: { actionId: 'reject', queueId, contentIds: ['res-1'] } });
    assert.equal(act.status, 409);
    assert.match(act.body.message, /already resolved/);
    const detail = await mod.call('GET', `${P()}/items/res-1?queueId=${queueId}`);
    assert.equal(detail.body.queue.status, 'resolved');
    assert.deepEqual(detail.body.queue.resolvedBy, { userId: modUserId, email: 'mod1@example.test' });
    assert.equal(detail.body.history[0].kind, 'resolve');
    assert.deepEqual(detail.body.history[0].actor, { type: 'user', userId: modUserId, email: 'mod1@example.test' });
    const reopened = await mod2.call('POST', `${P()}/queues/${queueId}/items/res-1/unresolve`, { body: { comment: 'second look' } });
    assert.equal(reopened.status, 200);
    assert.equal((await mod2.call('POST', `${P()}/queues/${queueId}/items/res-1/unresolve`, { body: {} })).status, 409);
  });

  test('bulk: one action over 1,000 items in one transaction; 1,001 refused; one resolved item refuses the whole batch', async (context) => {
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const id = `bulk-${batch * 100 + i}`;
          ids.push(id);
          return t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: `bulk message ${batch * 100 + i}` }, contentId: id, authorId: `bulk-author-${i % 7}` } });
        }),
      );
    }
    const tooMany = await mod.call('POST', `${P()}/actions/execute`, { body: { actionId: 'allow', queueId, contentIds: [...ids, 'res-1'] } });
    assert.equal(tooMany.status, 400);
    assert.match(JSON.stringify(tooMany.body.issues), /more than 1000 items/);

    await mod.call('POST', `${P()}/queues/${queueId}/items/bulk-500/resolve`, { body: {} });
    const auditBefore = (await admin.call('GET', `${P()}/audit?actionType=allow&limit=200`)).body.entries.length;
    const refused = await mod.call('POST', `${P()}/actions/execute`, { body: { actionId: 'allow', queueId, contentIds: ids, comment: 'batch' } });
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /bulk-500.*already resolved|already resolved/);
    assert.equal((await admin.call('GET', `${P()}/audit?actionType=allow&limit=200`)).body.entries.length, auditBefore, 'nothing was done');
    const pending = (await mod.call('GET', `${P()}/queues/${queueId}`)).body.queue.unresolvedItemsCount;

    const started = Date.now();
    const done = await mod.call('POST', `${P()}/actions/execute`, { body: { actionId: 'allow', queueId, contentIds: ids, comment: 'batch', allowResolved: true } });
    const tookMs = Date.now() - started;
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.count, 1000);
    assert.equal((await mod.call('GET', `${P()}/queues/${queueId}`)).body.queue.unresolvedItemsCount, pending - 999);
    const { rows } = await t.server.db.query<{ n: number; users: number }>(
      "SELECT count(*) AS n, count(DISTINCT actor_email) AS users FROM audit_log WHERE project_id = $1 AND action_key = 'ITEM_ALLOW' AND actor_user_id = $2",
      [t.projectId, modUserId],
    );
    assert.equal(Number(rows[0]!.n), 1000);
    assert.equal(Number(rows[0]!.users), 1);
    context.diagnostic(`executing one action on 1,000 items took ${tookMs} ms`);
    assert.ok(tookMs < 30_000, `1,000 items took ${tookMs} ms`);
  });

  test('authors: list with sort keys, detail with trust, risk in words, recent content and audit; temporary block with remaining time, unblock, trust override with reason', async () => {
    for (let i = 0; i < 3; i++) await submit(`auth-item-${i}`, `message number ${i} from a regular`, 'regular');
    for (const sortBy of ['trustLevel', 'violationCount', 'reportCount', 'memberSince', 'lastActive', 'contentCount', 'flaggedContentRatio', 'averageSentiment']) {
      for (const dir of ['asc', 'desc']) {
        const r = await mod.call('GET', `${P()}/authors?sortBy=${sortBy}&sortDirection=${dir}&pageSize=5`);
        assert.equal(r.status, 200, `${sortBy} ${dir}`);
        assert.ok(r.body.authors.length > 0);
      }
    }
    const byContent = await mod.call('GET', `${P()}/authors?sortBy=contentCount&sortDirection=desc&pageSize=100`);
    const counts = byContent.body.authors.map((a: any) => a.metrics.total_content);
    assert.deepEqual(counts, [...counts].sort((a: number, b: number) => b - a));
    assert.equal((await mod.call('GET', `${P()}/authors?sortBy=nonsense`)).status, 400);

    const blocked = await mod.call('POST', `${P()}/authors/regular/block`, { body: { reason: 'cool-off', durationMs: 3_600_000 } });
    assert.equal(blocked.status, 200);
    assert.equal(blocked.body.author.status, 'suspended');
    const trust = await mod.call('PUT', `${P()}/authors/regular/trust-level`, { body: { level: 4, reason: 'long-time helper' } });
    assert.equal(trust.status, 200);
    assert.equal((await mod.call('PUT', `${P()}/authors/regular/trust-level`, { body: { level: 9, reason: 'x' } })).status, 400);

    const detail = await mod.call('GET', `${P()}/authors/regular`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.block.status, 'suspended');
    assert.equal(detail.body.block.reason, 'cool-off');
    assert.ok(detail.body.block.remainingMs > 3_500_000 && detail.body.block.remainingMs <= 3_600_000);
    assert.equal(detail.body.trust.level, 4);
    assert.equal(detail.body.trust.manual, true);
    assert.equal(detail.body.trust.manualReason, 'long-time helper');
    assert.equal(detail.body.trust.manualSetBy.email, 'mod1@example.test');
    assert.equal(typeof detail.body.trust.automaticLevel, 'number');
    assert.ok(detail.body.risk.signals.length >= 10);
    assert.ok(detail.body.risk.signals.every((s: any) => typeof s.explanation === 'string' && s.explanation.length > 20));
    assert.deepEqual(detail.body.metadataBadges.map((b: any) => b.key), ['email_verified', 'phone_verified', 'identity_verified', 'is_paying_customer']);
    assert.deepEqual(detail.body.recentContent.map((c: any) => c.id), ['auth-item-2', 'auth-item-1', 'auth-item-0']);
    const kinds = detail.body.audit.map((e: any) => `${e.kind}:${e.actionKey ?? e.value}`);
    assert.deepEqual(kinds, ['trust_level:4', 'action:AUTHOR_BLOCK_TEMP']);
    assert.ok(detail.body.audit.every((e: any) => e.actor.email === 'mod1@example.test'));

    const unblocked = await mod2.call('POST', `${P()}/authors/regular/unblock`, { body: { reason: 'served' } });
    assert.equal(unblocked.body.author.status, 'enabled');
    const back = await mod2.call('PUT', `${P()}/authors/regular/trust-level`, { body: { level: null, reason: 'back to automatic' } });
    assert.equal(back.body.author.trust_level.manual, false);
    assert.equal((await mod.call('GET', `${P()}/authors/nobody-here`)).status, 404);
  });

  test('a temporary block ends by itself and the author page says so', async () => {
    await submit('short-block', 'hello', 'short-blocked');
    const r = await mod.call('POST', `${P()}/authors/short-blocked/block`, { body: { durationMs: 1_500 } });
    assert.equal(r.body.author.status, 'suspended');
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    const detail = await mod.call('GET', `${P()}/authors/short-blocked`);
    assert.equal(detail.body.author.status, 'enabled');
    assert.equal(detail.body.block, null);
    // The expiry job records the automatic unblock in the audit log, without an actor.
    let expired: any[] = [];
    for (let i = 0; i < 50 && expired.length === 0; i++) {
      expired = (await admin.call('GET', `${P()}/audit?kind=block_expired&authorId=short-blocked`)).body.entries;
      if (expired.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(expired.length, 1);
    assert.deepEqual(expired[0].actor, { type: 'system' });
    assert.equal((await admin.call('GET', `${P()}/audit?moderator=system&authorId=short-blocked`)).body.entries.length, 1);
  });

  test('audit log filters: moderator, action type, target and dates', async () => {
    const byMod2 = await admin.call('GET', `${P()}/audit?moderator=MOD2@example.test`);
    assert.ok(byMod2.body.entries.length > 0);
    assert.ok(byMod2.body.entries.every((e: any) => e.actor.email === 'mod2@example.test'));
    const unblocks = await admin.call('GET', `${P()}/audit?actionType=AUTHOR_UNBLOCK`);
    assert.deepEqual(unblocks.body.entries.map((e: any) => [e.authorId, e.comment]), [['regular', 'served']]);
    const onItem = await admin.call('GET', `${P()}/audit?contentId=res-1`);
    assert.deepEqual(onItem.body.entries.map((e: any) => e.kind), ['unresolve', 'resolve']);
    const onAuthor = await admin.call('GET', `${P()}/audit?authorId=regular&kind=trust_level`);
    assert.equal(onAuthor.body.entries.length, 2);
    const future = await admin.call('GET', `${P()}/audit?from=${Date.now() + 60_000}`);
    assert.deepEqual(future.body.entries, []);
    const past = await admin.call('GET', `${P()}/audit?to=2000-01-01`);
    assert.deepEqual(past.body.entries, []);
    const paged = await admin.call('GET', `${P()}/audit?limit=2`);
    assert.equal(paged.body.entries.length, 2);
    const next = await admin.call('GET', `${P()}/audit?limit=2&before=${paged.body.nextCursor}`);
    assert.ok(next.body.entries[0].id < paged.body.entries[1].id);
    assert.equal((await admin.call('GET', `${P()}/audit?from=yesterday`)).status, 400);
    assert.equal((await admin.call('GET', `${P()}/audit?limit=0`)).status, 400);
  });

  test('members: add with a one-time password, change role, limit queues, never remove or demote the last admin', async () => {
    const added = await admin.call('POST', `${P()}/members`, { body: { email: 'New.Mod@Example.test', name: 'New', role: 'moderator', queueIds: [queueId] } });
    assert.equal(added.status, 201);
    assert.equal(added.body.member.email, 'new.mod@example.test');
    assert.deepEqual(added.body.member.queueIds, [queueId]);
    assert.equal(typeof added.body.oneTimePassword, 'string');
    assert.equal((await admin.call('POST', `${P()}/members`, { body: { email: 'new.mod@example.test', role: 'moderator' } })).status, 409);
    assert.equal((await admin.call('POST', `${P()}/members`, { body: { email: 'x@example.test', role: 'moderator', queueIds: ['q_nope'] } })).status, 400);
    const fresh = await signIn(t, 'new.mod@example.test', added.body.oneTimePassword);
    assert.equal(fresh.session.user.mustChangePassword, true);

    const me = (await admin.call('GET', '/session')).body.user.id;
    const demote = await admin.call('PUT', `${P()}/members/${me}`, { body: { role: 'developer' } });
    assert.equal(demote.status, 409);
    assert.match(demote.body.message, /last admin/);
    const remove = await admin.call('DELETE', `${P()}/members/${me}`);
    assert.equal(remove.status, 409);
    const promoted = await admin.call('PUT', `${P()}/members/${added.body.member.id}`, { body: { role: 'admin' } });
    assert.equal(promoted.body.member.role, 'admin');
    assert.equal(promoted.body.member.queueIds, null, 'only moderators are limited to queues');
    assert.equal((await admin.call('PUT', `${P()}/members/${me}`, { body: { role: 'developer' } })).status, 200, 'another admin exists now');
    assert.equal((await admin.call('GET', `${P()}/members`)).status, 403, 'a developer no longer manages members');
    const list = await fresh.call('GET', `${P()}/members`);
    assert.equal(list.status, 403, 'one-time password not changed yet');
    assert.equal((await admin.call('DELETE', `${P()}/members/u_unknown`)).status, 403);
  });

  test('invalid input answers 400 and changes nothing', async () => {
    for (const [method, path, body] of [
      ['POST', `${P()}/actions/execute`, { actionId: 'allow' }],
      ['POST', `${P()}/actions/execute`, { actionId: 'temporary_block', authorIds: ['regular'] }],
      ['POST', `${P()}/actions/execute`, { actionId: 'allow', contentIds: ['x'], extra: 1 }],
      ['POST', `${P()}/authors/regular/block`, { durationMs: -5 }],
      ['PUT', `${P()}/authors/regular/trust-level`, { level: 2 }],
      ['GET', `${P()}/queues/${queueId}/items?pageSize=1000`, undefined],
      ['GET', `${P()}/queues/${queueId}/items?sortField=name`, undefined],
    ] as const) {
      const r = await mod.call(method, path, body === undefined ? {} : { body });
      assert.equal(r.status, 400, `${method} ${path} ${JSON.stringify(body)} → ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'BAD_REQUEST');
    }
    assert.equal((await mod.call('POST', `${P()}/actions/execute`, { body: { actionId: 'no-such-action', authorIds: ['regular'] } })).status, 404);
    assert.equal((await mod.call('GET', `${P()}/items/nope`)).status, 404);
  });
});
