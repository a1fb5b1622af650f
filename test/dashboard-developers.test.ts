import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startTestServer, type TestServer } from './helpers.ts';
import { signIn, type DashboardClient } from './support/dashboard-client.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';
import { createUser, setMembership } from '../src/services/dashboard/users.ts';

/** The dashboard API of the Webhooks, API keys and Members pages (routes/dashboard-api/developers.ts, settings.ts). */
describe('dashboard API: webhooks, API keys, members', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  let admin: DashboardClient;
  let developer: DashboardClient;
  const P = () => `/projects/${t.projectId}`;
  const moderate = (key: string, text = 'hello there') => t.request('POST', '/v1/moderate', { key, body: { content: { type: 'text', text } } });
  const auditValues = async () => (await admin.call('GET', `${P()}/audit?limit=100`)).body.entries.map((e: any) => `${e.value}: ${e.comment ?? ''}`) as string[];

  before(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestServer({ ALLOW_PRIVATE_OUTBOUND: 'true', OUTBOX_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_CAP_MS: '10000' });
    admin = await signIn(t, t.admin.email, t.admin.password);
    const { user } = await createUser(t.server.db, { email: 'dev@example.test', password: 'developer password' });
    await setMembership(t.server.db, user.id, t.projectId, 'developer');
    developer = await signIn(t, 'dev@example.test', 'developer password');
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('an API key is shown once, works at once, shows its last use, and once revoked gets 401 at once', async () => {
    const created = await developer.call('POST', `${P()}/api-keys`, { body: { name: '  mobile backend ' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { key, apiKey } = created.body;
    assert.match(key, /^om_[A-Za-z0-9_-]{43}$/);
    assert.equal(apiKey.name, 'mobile backend');
    assert.equal(apiKey.createdBy, 'dev@example.test');
    assert.equal(key.startsWith(apiKey.prefix), true);
    const stored = await t.server.db.query('SELECT key_hash FROM api_keys WHERE id = $1', [apiKey.id]);
    assert.notEqual(stored.rows[0]!.key_hash, key, 'only the hash is stored');

    const list = await developer.call('GET', `${P()}/api-keys`);
    const listed = list.body.apiKeys.find((k: any) => k.id === apiKey.id);
    assert.equal(listed.lastUsedAt, null);
    assert.equal(JSON.stringify(list.body).includes(key), false, 'the key is never answered again');

    const before = Date.now();
    assert.equal((await moderate(key)).status, 200);
    // Warm the cache too: a revoked key must not live on in it.
    assert.equal((await moderate(key)).status, 200);
    const used = (await developer.call('GET', `${P()}/api-keys`)).body.apiKeys.find((k: any) => k.id === apiKey.id);
    assert.ok(used.lastUsedAt >= before, `last used ${used.lastUsedAt} ≥ ${before}`);

    const revoked = await developer.call('DELETE', `${P()}/api-keys/${apiKey.id}`);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.apiKey.revokedAt >= before);
    const refused = await moderate(key);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'UNAUTHORIZED');
    assert.equal((await developer.call('DELETE', `${P()}/api-keys/${apiKey.id}`)).status, 404, 'already revoked');
    const values = await auditValues();
    assert.ok(values.some((v) => v.startsWith('api_key: created "mobile backend"')));
    assert.ok(values.some((v) => v.startsWith('api_key: revoked "mobile backend"')));
    // The bootstrap key still works.
    assert.equal((await moderate(t.apiKey)).status, 200);
  });

  test("a key of another project cannot be revoked through this project's page", async () => {
    const other = await t.newProject();
    const keys = await t.server.db.query<{ id: string }>('SELECT id FROM api_keys WHERE project_id = $1', [other.projectId]);
    const attempt = await admin.call('DELETE', `${P()}/api-keys/${keys.rows[0]!.id}`);
    assert.equal(attempt.status, 404);
    assert.equal((await moderate(other.apiKey)).status, 200);
  });

  test('bad input answers 400 {code, message, issues} and changes nothing', async () => {
    const keysBefore = (await admin.call('GET', `${P()}/api-keys`)).body.apiKeys.length;
    const hooksBefore = (await admin.call('GET', `${P()}/webhooks`)).body.webhooks.length;
    const secretBefore = (await admin.call('GET', `${P()}/webhook-secret`)).body.secret;
    for (const [method, path, body] of [
      ['POST', `${P()}/api-keys`, { name: '' }],
      ['POST', `${P()}/api-keys`, { name: '   ' }],
      ['POST', `${P()}/api-keys`, { name: 'x', extra: true }],
      ['POST', `${P()}/webhooks`, { name: 'h', url: 'ftp://example.com/x' }],
      ['POST', `${P()}/webhooks`, { name: 'h', url: 'https://example.com/x', events: ['NOT_AN_EVENT'] }],
      ['POST', `${P()}/webhooks`, { url: 'https://example.com/x' }],
      ['POST', `${P()}/webhook-secret/rotate`, {}],
      ['POST', `${P()}/webhook-secret/rotate`, { confirm: false }],
      ['GET', `${P()}/webhooks/wh_nope/deliveries?limit=0`, undefined],
      ['POST', `${P()}/members`, { email: 'someone@example.test', role: 'owner' }],
    ] as const) {
      const r = await admin.call(method, path, body === undefined ? {} : { body });
      assert.equal(r.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'BAD_REQUEST');
      assert.equal(typeof r.body.message, 'string');
      assert.ok(Array.isArray(r.body.issues) && r.body.issues.length > 0, JSON.stringify(r.body));
    }
    assert.equal((await admin.call('GET', `${P()}/api-keys`)).body.apiKeys.length, keysBefore);
    assert.equal((await admin.call('GET', `${P()}/webhooks`)).body.webhooks.length, hooksBefore);
    assert.equal((await admin.call('GET', `${P()}/webhook-secret`)).body.secret, secretBefore);
  });

  test('webhooks: create, edit, delivery log with retries and redeliver, rotate the secret and the next delivery is signed with the new one', async () => {
    let failFirst = true;
    receiver.respond = ({ attemptForEvent }) => (failFirst && attemptForEvent === 1 ? 503 : 200);
    const created = await admin.call('POST', `${P()}/webhooks`, { body: { name: 'CRM', url: `${receiver.url}/hook`, events: ['AUTHOR_UPDATED'] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.webhook.id;
    const edited = await admin.call('PUT', `${P()}/webhooks/${id}`, { body: { name: 'CRM sync', events: ['AUTHOR_UPDATED', 'AUTHOR_BLOCKED'] } });
    assert.equal(edited.status, 200);
    assert.deepEqual(edited.body.webhook.events, ['AUTHOR_UPDATED', 'AUTHOR_BLOCKED']);
    assert.ok((await auditValues()).some((v) => v.includes('updated "CRM sync"') && v.includes('name "CRM" → "CRM sync"')));

    const secret1 = (await admin.call('GET', `${P()}/webhook-secret`)).body.secret as string;
    assert.match(secret1, /^whsec_/);
    await t.request('POST', '/v1/authors', { body: { external_id: 'hook-author', name: 'A' } });
    assert.equal((await t.request('PUT', '/v1/authors/hook-author', { body: { name: 'B' } })).status, 200);
    await receiver.waitFor((list) => list.filter((r) => r.status === 200).length >= 1);
    const log = await admin.call('GET', `${P()}/webhooks/${id}/deliveries`);
    assert.equal(log.status, 200);
    const attempts = log.body.deliveries.map((d: any) => [d.attempt, d.statusCode, d.success]);
    assert.deepEqual(attempts, [[2, 200, true], [1, 503, false]], 'newest first: the failure then the retry');
    assert.deepEqual(log.body.pending, []);
    const first = receiver.received.find((r) => r.status === 200)!;
    assert.equal(first.headers['modapi-signature'], createHmac('sha256', secret1).update(first.raw).digest('hex'));

    // Redeliver the failed attempt: same event id, logged as manual.
    failFirst = false;
    const failed = log.body.deliveries.find((d: any) => !d.success);
    const again = await admin.call('POST', `${P()}/webhook-deliveries/${failed.id}/redeliver`);
    assert.equal(again.status, 202);
    await receiver.waitFor((list) => list.filter((r) => r.status === 200).length >= 2);
    const relog = (await admin.call('GET', `${P()}/webhooks/${id}/deliveries`)).body.deliveries;
    assert.equal(relog[0].manual, true);
    assert.equal(relog[0].eventId, failed.eventId);

    const rotated = await admin.call('POST', `${P()}/webhook-secret/rotate`, { body: { confirm: true } });
    assert.equal(rotated.status, 200);
    const secret2 = rotated.body.secret as string;
    assert.notEqual(secret2, secret1);
    assert.ok(rotated.body.previousSecretValidUntil > Date.now());
    const status = (await admin.call('GET', `${P()}/webhook-secret/status`)).body;
    assert.equal(JSON.stringify(status).includes('whsec_'), false, 'the status never shows a secret');
    assert.ok(status.rotatedAt > 0);
    const values = await auditValues();
    assert.ok(values.some((v) => v.startsWith('webhook_secret: revealed')));
    assert.ok(values.some((v) => v.startsWith('webhook_secret: rotated')));

    const seen = receiver.received.length;
    assert.equal((await t.request('PUT', '/v1/authors/hook-author', { body: { name: 'C' } })).status, 200);
    await receiver.waitFor((list) => list.length > seen);
    const next = receiver.received[seen]!;
    assert.equal(next.headers['modapi-signature'], createHmac('sha256', secret2).update(next.raw).digest('hex'), 'signed with the new secret');
    assert.equal(next.headers['modapi-signature-previous'], createHmac('sha256', secret1).update(next.raw).digest('hex'), 'and, during the grace period, the old one');

    const listed = (await admin.call('GET', `${P()}/webhooks`)).body;
    assert.equal(listed.webhooks.find((w: any) => w.id === id).lastDelivery.success, true);
    assert.ok(listed.eventTypes.includes('QUEUE_ITEM_NEW'));
    assert.equal((await admin.call('DELETE', `${P()}/webhooks/${id}`)).status, 200);
    assert.equal((await admin.call('GET', `${P()}/webhooks/${id}/deliveries`)).status, 404);
  });

  test('a pending retry shows its attempts and next retry time', async () => {
    receiver.respond = () => 500;
    const created = await admin.call('POST', `${P()}/webhooks`, { body: { name: 'Down', url: `${receiver.url}/down`, events: ['AUTHOR_UPDATED'] } });
    const id = created.body.webhook.id;
    await t.request('POST', '/v1/authors', { body: { external_id: 'retry-author', name: 'A' } });
    const seen = receiver.received.length;
    await t.request('PUT', '/v1/authors/retry-author', { body: { name: 'B' } });
    await receiver.waitFor((list) => list.length > seen);
    let pending: any[] = [];
    // Retries back off from 200 ms (cap 10 s): the job stays pending long after its first failure.
    for (let i = 0; i < 250 && pending.length === 0; i++) {
      pending = (await admin.call('GET', `${P()}/webhooks/${id}/deliveries`)).body.pending;
      if (pending.length === 0 || pending[0].attempts === 0) {
        pending = [];
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    assert.equal(pending[0].eventType, 'AUTHOR_UPDATED');
    assert.ok(pending[0].attempts >= 1);
    assert.ok(pending[0].nextAttemptAt > 0);
    assert.match(pending[0].lastError ?? '', /500/);
    await admin.call('DELETE', `${P()}/webhooks/${id}`);
    receiver.respond = () => 200;
  });

  test('two admins demoting each other at once leave one admin', async () => {
    const { user: second } = await createUser(t.server.db, { email: 'second.admin@example.test', password: 'second admin password' });
    await setMembership(t.server.db, second.id, t.projectId, 'admin');
    const other = await signIn(t, 'second.admin@example.test', 'second admin password');
    const me = admin.session.user.id;
    const [a, b] = await Promise.all([
      admin.call('PUT', `${P()}/members/${second.id}`, { body: { role: 'developer' } }),
      other.call('PUT', `${P()}/members/${me}`, { body: { role: 'developer' } }),
    ]);
    const statuses = [a.status, b.status].sort();
    // Either one wins (the other is refused as the last admin, or no longer an admin: 403).
    assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify([a.body, b.body]));
    const { rows } = await t.server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM dashboard_memberships WHERE project_id = $1 AND role = 'admin'", [t.projectId]);
    assert.equal(Number(rows[0]!.n), 1);
    // Put things back for the other tests.
    await setMembership(t.server.db, me, t.projectId, 'admin');
  });
});
