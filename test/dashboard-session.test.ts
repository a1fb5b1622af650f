import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { clientFor, signIn } from './support/dashboard-client.ts';
import { createUser, setMembership } from '../src/services/dashboard/users.ts';

describe('dashboard sign-in, sessions, CSRF and throttling', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ DASHBOARD_LOGIN_MAX_FAILURES: '10', DASHBOARD_LOGIN_WINDOW_MINUTES: '15' });
  });
  after(() => t.close());

  test('the first admin signs in: an HttpOnly SameSite=Strict cookie, memberships and a CSRF token', async () => {
    const response = await fetch(`${t.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: t.admin.email.toUpperCase(), password: t.admin.password }),
    });
    assert.equal(response.status, 200);
    const cookie = response.headers.get('set-cookie')!;
    assert.match(cookie, /^om_session=[\w-]{43}; /);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.doesNotMatch(cookie, /Secure/, 'plain http on 127.0.0.1: no Secure flag');
    const body = (await response.json()) as any;
    assert.equal(body.user.email, t.admin.email);
    assert.deepEqual(body.memberships.map((m: any) => [m.projectId, m.role]), [[t.projectId, 'admin']]);
    assert.equal(typeof body.csrfToken, 'string');
    assert.ok(body.session.expiresAt > Date.now());
    // The token is stored hashed only.
    const token = cookie.split(';')[0]!.split('=')[1]!;
    const { rows } = await t.server.db.query<{ token_hash: string }>('SELECT token_hash FROM dashboard_sessions');
    assert.ok(rows.length >= 1);
    assert.ok(rows.every((r) => r.token_hash !== token && !r.token_hash.includes(token)));
    const { rows: users } = await t.server.db.query<{ password_hash: string }>('SELECT password_hash FROM dashboard_users');
    assert.ok(users.every((u) => u.password_hash.startsWith('scrypt$') && !u.password_hash.includes(t.admin.password)));
  });

  test('a wrong password and an unknown email fail alike', async () => {
    for (const [email, password] of [[t.admin.email, 'wrong password!'], ['nobody@example.test', t.admin.password]]) {
      const r = await fetch(`${t.url}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      assert.equal(r.status, 401);
      assert.equal(((await r.json()) as any).message, 'Wrong email or password');
      assert.equal(r.headers.get('set-cookie'), null);
    }
  });

  test('state-changing calls without the CSRF token (or with a wrong one) are refused and change nothing', async () => {
    const admin = await signIn(t, t.admin.email, t.admin.password);
    const missing = await admin.call('PUT', `/projects/${t.projectId}/settings/custom-data`, { body: { enabled: false, endpointUrl: 'https://example.com/x', headers: [] }, csrf: false });
    assert.equal(missing.status, 403);
    assert.match(missing.body.message, /x-csrf-token/);
    const wrong = await admin.call('PUT', `/projects/${t.projectId}/settings/custom-data`, {
      body: { enabled: false, endpointUrl: 'https://example.com/x', headers: [] },
      csrf: false,
      headers: { 'x-csrf-token': 'A'.repeat(43) },
    });
    assert.equal(wrong.status, 403);
    const { rows } = await t.server.db.query('SELECT * FROM custom_data_settings');
    assert.equal(rows.length, 0);
    const signOut = await admin.call('DELETE', '/session', { csrf: false });
    assert.equal(signOut.status, 403);
    assert.equal((await admin.call('GET', '/session')).status, 200, 'the session is still open');
    const ok = await admin.call('PUT', `/projects/${t.projectId}/settings/custom-data`, { body: { enabled: false, endpointUrl: 'https://example.com/x', headers: [] } });
    assert.equal(ok.status, 200);
  });

  test('a signed-out session cookie is refused everywhere', async () => {
    const admin = await signIn(t, t.admin.email, t.admin.password);
    assert.equal((await admin.call('GET', `/projects/${t.projectId}/queues`)).status, 200);
    const out = await admin.call('DELETE', '/session');
    assert.equal(out.status, 200);
    assert.match(out.headers.get('set-cookie') ?? '', /om_session=; .*Max-Age=0/);
    for (const [method, path] of [['GET', '/session'], ['GET', `/projects/${t.projectId}/queues`], ['DELETE', '/session']] as const) {
      const replay = await admin.call(method, path);
      assert.equal(replay.status, 401, `${method} ${path}`);
      assert.match(replay.body.message, /session has ended/);
    }
  });

  test('an idle or past-its-end session is refused', async () => {
    const admin = await signIn(t, t.admin.email, t.admin.password);
    await t.server.db.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id = $1', [admin.session.session.id, Date.now() - 9 * 3_600_000]);
    assert.equal((await admin.call('GET', '/session')).status, 401, 'idle for 9 hours (limit 8)');
    const other = await signIn(t, t.admin.email, t.admin.password);
    await t.server.db.query('UPDATE dashboard_sessions SET expires_at = $2 WHERE id = $1', [other.session.session.id, Date.now() - 1]);
    assert.equal((await other.call('GET', '/session')).status, 401, 'past the absolute end');
  });

  test('API keys never open dashboard routes; a session cookie never opens /v1', async () => {
    const byKey = await fetch(`${t.url}/dashboard/api/projects/${t.projectId}/queues`, { headers: { authorization: `Bearer ${t.apiKey}` } });
    assert.equal(byKey.status, 401);
    assert.match(((await byKey.json()) as any).message, /API keys open \/v1 only/);
    const session = await fetch(`${t.url}/dashboard/api/session`, { headers: { authorization: `Bearer ${t.apiKey}` } });
    assert.equal(session.status, 401);
    const admin = await signIn(t, t.admin.email, t.admin.password);
    for (const [method, path] of [['GET', '/v1/queue'], ['GET', '/v1/authors'], ['POST', '/v1/moderate']] as const) {
      const r = await fetch(`${t.url}${path}`, {
        method,
        headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrfToken, 'content-type': 'application/json' },
        body: method === 'POST' ? JSON.stringify({ content: { type: 'text', text: 'hi' } }) : undefined,
      });
      assert.equal(r.status, 401, `${method} ${path}`);
    }
  });

  test('login throttling: the 10th failure within 15 minutes locks the account, right password included, with a clear 429', async () => {
    const { user } = await createUser(t.server.db, { email: 'throttle@example.test', password: 'the right password' });
    await setMembership(t.server.db, user.id, t.projectId, 'moderator');
    const attempt = (password: string) =>
      fetch(`${t.url}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'throttle@example.test', password }) });
    for (let i = 1; i <= 9; i++) assert.equal((await attempt(`wrong guess ${i}`)).status, 401, `failure ${i}`);
    const tenth = await attempt('wrong guess 10');
    assert.equal(tenth.status, 429);
    const body = (await tenth.json()) as any;
    assert.equal(body.code, 'TOO_MANY_REQUESTS');
    assert.match(body.message, /Too many failed sign-ins for this account \(10 within 15 minutes\)/);
    assert.ok(Number(tenth.headers.get('retry-after')) > 800);
    const right = await attempt('the right password');
    assert.equal(right.status, 429, 'locked even with the right password');
    // Other accounts are not affected.
    assert.equal((await signIn(t, t.admin.email, t.admin.password)).session.user.email, t.admin.email);
    // Once the failures are older than the window, the right password works again.
    await t.server.db.query("UPDATE dashboard_login_failures SET failed_at = failed_at - 16 * 60000 WHERE email = 'throttle@example.test'");
    assert.equal((await attempt('the right password')).status, 200);
  });

  test('changing the password: wrong current refused; others sessions end; the new one works', async () => {
    const { user } = await createUser(t.server.db, { email: 'changer@example.test', password: 'first password 1' });
    await setMembership(t.server.db, user.id, t.projectId, 'developer');
    const first = await signIn(t, 'changer@example.test', 'first password 1');
    const second = await signIn(t, 'changer@example.test', 'first password 1');
    const wrong = await first.call('POST', '/session/password', { body: { currentPassword: 'not it at all', newPassword: 'second password 2' } });
    assert.equal(wrong.status, 400);
    const short = await first.call('POST', '/session/password', { body: { currentPassword: 'first password 1', newPassword: 'short' } });
    assert.equal(short.status, 400);
    const ok = await first.call('POST', '/session/password', { body: { currentPassword: 'first password 1', newPassword: 'second password 2' } });
    assert.equal(ok.status, 200);
    assert.equal((await first.call('GET', '/session')).status, 200, 'the session that changed it stays');
    assert.equal((await second.call('GET', '/session')).status, 401, 'other sessions end');
    await assert.rejects(signIn(t, 'changer@example.test', 'first password 1'));
    await signIn(t, 'changer@example.test', 'second password 2');
  });

  test('a one-time password must be changed before any project route opens', async () => {
    const { user, oneTimePassword } = await createUser(t.server.db, { email: 'fresh@example.test' });
    await setMembership(t.server.db, user.id, t.projectId, 'moderator');
    const fresh = await signIn(t, 'fresh@example.test', oneTimePassword!);
    assert.equal(fresh.session.user.mustChangePassword, true);
    const blocked = await fresh.call('GET', `/projects/${t.projectId}/queues`);
    assert.equal(blocked.status, 403);
    assert.match(blocked.body.message, /one-time password/);
    assert.equal((await fresh.call('POST', '/session/password', { body: { currentPassword: oneTimePassword, newPassword: 'my own password' } })).status, 200);
    assert.equal((await fresh.call('GET', `/projects/${t.projectId}/queues`)).status, 200);
  });

  test('a forged cookie is refused', async () => {
    const forged = clientFor(t, 'om_session=' + 'x'.repeat(43), 'y');
    assert.equal((await forged.call('GET', '/session')).status, 401);
  });
});
