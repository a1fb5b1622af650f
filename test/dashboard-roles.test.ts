import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { signIn, type DashboardClient } from './support/dashboard-client.ts';
import { createUser, setMembership } from '../src/services/dashboard/users.ts';
import { bootstrapAdmin } from '../src/services/dashboard/users.ts';
import { createWebhook } from '../src/services/webhooks.ts';
import { createApiKey } from '../src/services/api-keys.ts';

/**
 * The role table: every dashboard API route, called by every kind of caller, with the expected
 * outcome per cell. "ok" means the guard let the call through and the handler succeeded
 * (or, where noted, answered its own 4xx); otherwise the exact refusal.
 */

type Persona = 'none' | 'otherProject' | 'moderator' | 'moderatorOfOtherQueue' | 'developer' | 'admin';
const PERSONAS: Persona[] = ['none', 'otherProject', 'moderator', 'moderatorOfOtherQueue', 'developer', 'admin'];
type Rule = 'public' | 'session' | 'read' | 'moderate' | 'configure' | 'members';
type Outcome = 'ok' | 401 | 403 | 404;

/** What each rule means per persona (the documented role table). */
const TABLE: Record<Rule, Record<Persona, Outcome>> = {
  public: { none: 'ok', otherProject: 'ok', moderator: 'ok', moderatorOfOtherQueue: 'ok', developer: 'ok', admin: 'ok' },
  session: { none: 401, otherProject: 'ok', moderator: 'ok', moderatorOfOtherQueue: 'ok', developer: 'ok', admin: 'ok' },
  read: { none: 401, otherProject: 404, moderator: 'ok', moderatorOfOtherQueue: 'ok', developer: 'ok', admin: 'ok' },
  moderate: { none: 401, otherProject: 404, moderator: 'ok', moderatorOfOtherQueue: 'ok', developer: 'ok', admin: 'ok' },
  configure: { none: 401, otherProject: 404, moderator: 403, moderatorOfOtherQueue: 403, developer: 'ok', admin: 'ok' },
  members: { none: 401, otherProject: 404, moderator: 403, moderatorOfOtherQueue: 403, developer: 403, admin: 'ok' },
};

interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** Call as this client instead of the persona's own (routes that end the session). */
  as?: DashboardClient;
}

interface RouteCase {
  method: string;
  /** The route as registered. */
  url: string;
  rule: Rule;
  /** Builds a fresh call for one cell (fresh items, authors, members where the call changes them). */
  call(persona: Persona, client: DashboardClient | null): Promise<Call>;
  /** The status the handler answers when the guard lets the call through (default 2xx). */
  okStatus?: number;
  /** The route works on the queue the limited moderator may not see: 404 for them. */
  queueScoped?: boolean;
}

describe('dashboard role table: every route × every caller', () => {
  let t: TestServer;
  let queueId: string;
  let otherQueueId: string;
  let otherProjectId: string;
  const clients = new Map<Persona, DashboardClient | null>();
  const passwords = new Map<Persona, { email: string; password: string }>();
  let counter = 0;
  const unique = (prefix: string) => `${prefix}-${++counter}-${Date.now()}`;

  /** A fresh flagged item in project A, with a fresh author; returns its contentId and authorId. */
  const freshItem = async () => {
    const contentId = unique('item');
    const authorId = unique('author');
    const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: `you are an idiot ${contentId}` }, contentId, authorId } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return { contentId, authorId };
  };
  const P = () => `/projects/${t.projectId}`;
  const freshWordlist = async () => {
    const key = unique('list');
    assert.equal((await t.request('POST', '/v1/wordlist', { body: { name: 'List', key, words: ['alpha', 'beta'] } })).status, 201);
    return key;
  };
  const freshQueue = async () => (await t.request('POST', '/v1/queue', { body: { name: unique('Queue') } })).body.queue.id as string;
  const freshAction = async () => (await t.request('POST', '/v1/actions', { body: { name: 'Custom', key: unique('action') } })).body.id as string;
  /** A disabled project webhook (nothing is sent to it). */
  const freshWebhook = async () => (await createWebhook(t.server.db, t.projectId, { name: unique('hook'), url: 'https://hooks.example.com/om', enabled: false }, false)).id;
  /** A logged delivery attempt of a fresh webhook, to redeliver. */
  const freshDelivery = async () => {
    const webhookId = await freshWebhook();
    const eventId = unique('evt');
    const deliveryId = unique('whd');
    await t.server.db.query("INSERT INTO webhook_events (id, project_id, type, body, created_at) VALUES ($1, $2, 'AUTHOR_UPDATED', '{}', $3)", [eventId, t.projectId, Date.now()]);
    await t.server.db.query(
      `INSERT INTO webhook_deliveries (id, project_id, webhook_id, event_id, event_type, attempt, manual, status_code, success, error, duration_ms, created_at)
       VALUES ($1, $2, $3, $4, 'AUTHOR_UPDATED', 1, false, 500, false, 'HTTP 500', 3, $5)`,
      [deliveryId, t.projectId, webhookId, eventId, Date.now()],
    );
    return deliveryId;
  };

  before(async () => {
    t = await startTestServer();
    const q = await t.request('POST', '/v1/queue', { body: { name: 'Everything' } });
    queueId = q.body.queue.id;
    const q2 = await t.request('POST', '/v1/queue', { body: { name: 'Other queue' } });
    otherQueueId = q2.body.queue.id;
    const other = await t.newProject();
    otherProjectId = other.projectId;
    const db = t.server.db;
    passwords.set('admin', t.admin);
    for (const [persona, role, queues] of [
      ['moderator', 'moderator', null],
      ['moderatorOfOtherQueue', 'moderator', [otherQueueId]],
      ['developer', 'developer', null],
    ] as const) {
      const email = `${persona.toLowerCase()}@example.test`;
      const password = `${persona} password`;
      const { user } = await createUser(db, { email, password });
      await setMembership(db, user.id, t.projectId, role, queues === null ? null : [...queues]);
      passwords.set(persona, { email, password });
    }
    const { user: outsider } = await createUser(db, { email: 'outsider@example.test', password: 'outsider password' });
    await setMembership(db, outsider.id, otherProjectId, 'admin');
    passwords.set('otherProject', { email: 'outsider@example.test', password: 'outsider password' });
    clients.set('none', null);
    for (const persona of PERSONAS.filter((p) => p !== 'none')) {
      const { email, password } = passwords.get(persona)!;
      clients.set(persona, await signIn(t, email, password));
    }
    assert.equal(await bootstrapAdmin(db, { email: null, password: null }), null, 'users exist: no second bootstrap admin');
  });
  after(() => t.close());

  const CASES: RouteCase[] = [
    {
      method: 'POST', url: '/dashboard/api/session', rule: 'public',
      call: async (persona) => {
        const creds = passwords.get(persona) ?? t.admin;
        return { method: 'POST', path: '/session', body: { email: creds.email, password: creds.password } };
      },
    },
    { method: 'GET', url: '/dashboard/api/session', rule: 'session', call: async () => ({ method: 'GET', path: '/session' }) },
    {
      method: 'DELETE', url: '/dashboard/api/session', rule: 'session',
      // Signs out a second session of the same person, so the persona's own stays open.
      call: async (persona) => {
        if (persona === 'none') return { method: 'DELETE', path: '/session' };
        const { email, password } = passwords.get(persona)!;
        return { method: 'DELETE', path: '/session', as: await signIn(t, email, password) };
      },
    },
    {
      method: 'POST', url: '/dashboard/api/session/password', rule: 'session', okStatus: 400,
      // A wrong current password: the guard let it through when the handler answers 400.
      call: async () => ({ method: 'POST', path: '/session/password', body: { currentPassword: 'not the password', newPassword: 'whatever new password' } }),
    },
    { method: 'GET', url: '/dashboard/api/projects/:projectId', rule: 'read', call: async () => ({ method: 'GET', path: P() }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/queues', rule: 'read', call: async () => ({ method: 'GET', path: `${P()}/queues` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/queues/:queueId', rule: 'read', queueScoped: true, call: async () => ({ method: 'GET', path: `${P()}/queues/${queueId}` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/queues/:queueId/items', rule: 'read', queueScoped: true, call: async () => ({ method: 'GET', path: `${P()}/queues/${queueId}/items?pageSize=5` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/queues/:queueId/actions', rule: 'read', queueScoped: true, call: async () => ({ method: 'GET', path: `${P()}/queues/${queueId}/actions` }) },
    {
      method: 'POST', url: '/dashboard/api/projects/:projectId/queues/:queueId/items/:itemId/resolve', rule: 'moderate', queueScoped: true,
      call: async () => ({ method: 'POST', path: `${P()}/queues/${queueId}/items/${(await freshItem()).contentId}/resolve`, body: { comment: 'done' } }),
    },
    {
      method: 'POST', url: '/dashboard/api/projects/:projectId/queues/:queueId/items/:itemId/unresolve', rule: 'moderate', queueScoped: true,
      call: async () => {
        const { contentId } = await freshItem();
        assert.equal((await t.request('POST', `/v1/queue/${queueId}/items/${contentId}/resolve`, { body: {} })).status, 200);
        return { method: 'POST', path: `${P()}/queues/${queueId}/items/${contentId}/unresolve`, body: { comment: 'reopened' } };
      },
    },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/items/:itemId', rule: 'read', call: async () => ({ method: 'GET', path: `${P()}/items/${(await freshItem()).contentId}` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/items/:itemId/claim', rule: 'moderate', call: async () => ({ method: 'POST', path: `${P()}/items/${(await freshItem()).contentId}/claim`, body: {} }) },
    { method: 'DELETE', url: '/dashboard/api/projects/:projectId/items/:itemId/claim', rule: 'moderate', call: async () => ({ method: 'DELETE', path: `${P()}/items/${(await freshItem()).contentId}/claim` }) },
    {
      method: 'POST', url: '/dashboard/api/projects/:projectId/actions/execute', rule: 'moderate',
      call: async () => ({ method: 'POST', path: `${P()}/actions/execute`, body: { actionId: 'warn', authorIds: [(await freshItem()).authorId], comment: 'be nice' } }),
    },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/audit', rule: 'read', call: async () => ({ method: 'GET', path: `${P()}/audit?limit=5` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/authors', rule: 'read', call: async () => ({ method: 'GET', path: `${P()}/authors?sortBy=lastActive&pageSize=5` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/authors/:authorId', rule: 'read', call: async () => ({ method: 'GET', path: `${P()}/authors/${(await freshItem()).authorId}` }) },
    {
      method: 'POST', url: '/dashboard/api/projects/:projectId/authors/:authorId/block', rule: 'moderate',
      call: async () => ({ method: 'POST', path: `${P()}/authors/${(await freshItem()).authorId}/block`, body: { reason: 'spam', durationMs: 60_000 } }),
    },
    {
      method: 'POST', url: '/dashboard/api/projects/:projectId/authors/:authorId/unblock', rule: 'moderate',
      call: async () => ({ method: 'POST', path: `${P()}/authors/${(await freshItem()).authorId}/unblock`, body: {} }),
    },
    {
      method: 'PUT', url: '/dashboard/api/projects/:projectId/authors/:authorId/trust-level', rule: 'moderate',
      call: async () => ({ method: 'PUT', path: `${P()}/authors/${(await freshItem()).authorId}/trust-level`, body: { level: 3, reason: 'known member' } }),
    },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/authors/:authorId/custom-data', rule: 'read', call: async () => ({ method: 'GET', path: `${P()}/authors/${(await freshItem()).authorId}/custom-data` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/settings/custom-data', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/settings/custom-data` }) },
    {
      method: 'PUT', url: '/dashboard/api/projects/:projectId/settings/custom-data', rule: 'configure',
      call: async () => ({ method: 'PUT', path: `${P()}/settings/custom-data`, body: { enabled: false, endpointUrl: 'https://crm.example.com/om', headers: [{ name: 'X-Api-Key', value: 'k' }] } }),
    },
    // ---- configuration (issue #29): channels, wordlists, queues, actions, playground
    { method: 'GET', url: '/dashboard/api/projects/:projectId/config/catalog', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/config/catalog` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/channels', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/channels` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/channels/:channelId', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/channels/default` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/channels', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/channels`, body: { key: unique('ch'), name: 'Channel' } }) },
    { method: 'PUT', url: '/dashboard/api/projects/:projectId/channels/:channelId', rule: 'configure', call: async () => ({ method: 'PUT', path: `${P()}/channels/default`, body: { name: unique('Default') } }) },
    {
      method: 'DELETE', url: '/dashboard/api/projects/:projectId/channels/:channelId', rule: 'configure',
      call: async () => {
        const key = unique('gone');
        assert.equal((await t.request('POST', '/v1/channels', { body: { key, name: 'Gone' } })).status, 201);
        return { method: 'DELETE', path: `${P()}/channels/${key}` };
      },
    },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/playground', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/playground`, body: { content: { type: 'text', text: 'hello there' } } }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/wordlists', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/wordlists` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/wordlists', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/wordlists`, body: { name: 'List', key: unique('wl') } }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/wordlists/:wordlistId', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/wordlists/${await freshWordlist()}` }) },
    { method: 'PUT', url: '/dashboard/api/projects/:projectId/wordlists/:wordlistId', rule: 'configure', call: async () => ({ method: 'PUT', path: `${P()}/wordlists/${await freshWordlist()}`, body: { name: 'Renamed' } }) },
    { method: 'DELETE', url: '/dashboard/api/projects/:projectId/wordlists/:wordlistId', rule: 'configure', call: async () => ({ method: 'DELETE', path: `${P()}/wordlists/${await freshWordlist()}` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/wordlists/:wordlistId/words', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/wordlists/${await freshWordlist()}/words?contains=a` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/wordlists/:wordlistId/words', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/wordlists/${await freshWordlist()}/words`, body: { words: ['added'] } }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/wordlists/:wordlistId/words/remove', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/wordlists/${await freshWordlist()}/words/remove`, body: { words: ['alpha'] } }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/wordlists/:wordlistId/import', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/wordlists/${await freshWordlist()}/import`, body: { csv: 'word\ngamma\n' } }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/wordlists/:wordlistId/export', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/wordlists/${await freshWordlist()}/export` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/queues', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/queues`, body: { name: unique('Queue') } }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/queues/preview', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/queues/preview`, body: { filter: { flagged: 'FLAGGED' } } }) },
    { method: 'PUT', url: '/dashboard/api/projects/:projectId/queues/:queueId', rule: 'configure', call: async () => ({ method: 'PUT', path: `${P()}/queues/${await freshQueue()}`, body: { description: 'edited' } }) },
    { method: 'DELETE', url: '/dashboard/api/projects/:projectId/queues/:queueId', rule: 'configure', call: async () => ({ method: 'DELETE', path: `${P()}/queues/${await freshQueue()}` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/actions', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/actions` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/actions', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/actions`, body: { name: 'Custom', key: unique('act') } }) },
    { method: 'PUT', url: '/dashboard/api/projects/:projectId/actions/:actionId', rule: 'configure', call: async () => ({ method: 'PUT', path: `${P()}/actions/${await freshAction()}`, body: { position: 'HIDDEN' } }) },
    { method: 'DELETE', url: '/dashboard/api/projects/:projectId/actions/:actionId', rule: 'configure', call: async () => ({ method: 'DELETE', path: `${P()}/actions/${await freshAction()}` }) },
    {
      method: 'PUT', url: '/dashboard/api/projects/:projectId/actions/order', rule: 'configure',
      call: async () => {
        const actions = (await t.request('GET', '/v1/actions')).body as { id: string }[];
        return { method: 'PUT', path: `${P()}/actions/order`, body: { order: actions.map((a) => a.id).reverse() } };
      },
    },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/members', rule: 'members', call: async () => ({ method: 'GET', path: `${P()}/members` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/members', rule: 'members', call: async () => ({ method: 'POST', path: `${P()}/members`, body: { email: `${unique('new')}@example.test`, role: 'moderator' } }) },
    {
      method: 'PUT', url: '/dashboard/api/projects/:projectId/members/:userId', rule: 'members',
      call: async () => {
        const { user } = await createUser(t.server.db, { email: `${unique('member')}@example.test` });
        await setMembership(t.server.db, user.id, t.projectId, 'moderator');
        return { method: 'PUT', path: `${P()}/members/${user.id}`, body: { queueIds: [queueId] } };
      },
    },
    {
      method: 'DELETE', url: '/dashboard/api/projects/:projectId/members/:userId', rule: 'members',
      call: async () => {
        const { user } = await createUser(t.server.db, { email: `${unique('leaver')}@example.test` });
        await setMembership(t.server.db, user.id, t.projectId, 'developer');
        return { method: 'DELETE', path: `${P()}/members/${user.id}` };
      },
    },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/overview', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/overview` }) },
    // Webhooks and API keys (routes/dashboard-api/developers.ts).
    { method: 'GET', url: '/dashboard/api/projects/:projectId/webhooks', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/webhooks` }) },
    {
      method: 'POST', url: '/dashboard/api/projects/:projectId/webhooks', rule: 'configure',
      call: async () => ({ method: 'POST', path: `${P()}/webhooks`, body: { name: unique('hook'), url: 'https://hooks.example.com/om', enabled: false } }),
    },
    { method: 'PUT', url: '/dashboard/api/projects/:projectId/webhooks/:webhookId', rule: 'configure', call: async () => ({ method: 'PUT', path: `${P()}/webhooks/${await freshWebhook()}`, body: { name: unique('renamed') } }) },
    { method: 'DELETE', url: '/dashboard/api/projects/:projectId/webhooks/:webhookId', rule: 'configure', call: async () => ({ method: 'DELETE', path: `${P()}/webhooks/${await freshWebhook()}` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/webhooks/:webhookId/deliveries', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/webhooks/${await freshWebhook()}/deliveries` }) },
    {
      method: 'POST', url: '/dashboard/api/projects/:projectId/webhook-deliveries/:deliveryId/redeliver', rule: 'configure', okStatus: 202,
      call: async () => ({ method: 'POST', path: `${P()}/webhook-deliveries/${await freshDelivery()}/redeliver` }),
    },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/webhook-secret', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/webhook-secret` }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/webhook-secret/status', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/webhook-secret/status` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/webhook-secret/rotate', rule: 'configure', call: async () => ({ method: 'POST', path: `${P()}/webhook-secret/rotate`, body: { confirm: true } }) },
    { method: 'GET', url: '/dashboard/api/projects/:projectId/api-keys', rule: 'configure', call: async () => ({ method: 'GET', path: `${P()}/api-keys` }) },
    { method: 'POST', url: '/dashboard/api/projects/:projectId/api-keys', rule: 'configure', okStatus: 201, call: async () => ({ method: 'POST', path: `${P()}/api-keys`, body: { name: unique('key') } }) },
    {
      method: 'DELETE', url: '/dashboard/api/projects/:projectId/api-keys/:keyId', rule: 'configure',
      call: async () => ({ method: 'DELETE', path: `${P()}/api-keys/${(await createApiKey(t.server.db, t.projectId, unique('doomed'))).info.id}` }),
    },
  ];

  test('the table covers every registered dashboard route, and each route declares the rule the table expects', () => {
    const registered = t.server.app.deps.dashboardRoutes.map((r) => `${r.method} ${r.url}`).sort();
    const tabled = CASES.map((c) => `${c.method} ${c.url}`).sort();
    assert.deepEqual(tabled, registered);
    const ruleOf = (access: string) => (access === 'manage_members' ? 'members' : access);
    for (const route of t.server.app.deps.dashboardRoutes) {
      const expected = CASES.find((c) => c.method === route.method && c.url === route.url)!;
      assert.equal(ruleOf(route.access), expected.rule, `${route.method} ${route.url}`);
    }
  });

  for (const persona of PERSONAS) {
    test(`every route as ${persona}`, async () => {
      const failures: string[] = [];
      for (const route of CASES) {
        let expected: Outcome = TABLE[route.rule][persona];
        if (route.queueScoped && persona === 'moderatorOfOtherQueue') expected = 404;
        const call = await route.call(persona, clients.get(persona) ?? null);
        const client = call.as ?? clients.get(persona) ?? null;
        let status: number;
        let body: any;
        if (client) ({ status, body } = await client.call(call.method, call.path, call.body === undefined ? {} : { body: call.body }));
        else {
          const r = await fetch(`${t.url}/dashboard/api${call.path}`, {
            method: call.method,
            headers: call.body === undefined ? {} : { 'content-type': 'application/json' },
            body: call.body === undefined ? undefined : JSON.stringify(call.body),
          });
          status = r.status;
          body = await r.json().catch(() => null);
        }
        const ok = route.okStatus !== undefined ? status === route.okStatus : status >= 200 && status < 300;
        const pass = expected === 'ok' ? ok : status === expected;
        if (!pass) failures.push(`${route.method} ${route.url}: expected ${expected}, got ${status} ${JSON.stringify(body).slice(0, 200)}`);
      }
      assert.deepEqual(failures, []);
    });
  }

  test('a user of another project sees their own project, never this one', async () => {
    const outsider = clients.get('otherProject')!;
    assert.equal((await outsider.call('GET', `/projects/${otherProjectId}/queues`)).status, 200);
    const session = await outsider.call('GET', '/session');
    assert.deepEqual(session.body.memberships.map((m: any) => m.projectId), [otherProjectId]);
    const denied = await outsider.call('GET', `/projects/${t.projectId}/queues`);
    assert.equal(denied.status, 404);
    assert.equal(denied.body.code, 'NOT_FOUND');
    // The admin of A cannot reach B's queue through A's path either.
    const { body } = await t.request('POST', '/v1/queue', { key: (await t.newProject()).apiKey, body: { name: 'foreign' } });
    const admin = clients.get('admin')!;
    assert.equal((await admin.call('GET', `/projects/${t.projectId}/queues/${body.queue.id}`)).status, 404);
  });

  test('a moderator limited to a queue lists only that queue', async () => {
    const limited = clients.get('moderatorOfOtherQueue')!;
    const { body } = await limited.call('GET', `/projects/${t.projectId}/queues`);
    assert.deepEqual(body.queues.map((q: any) => q.id), [otherQueueId]);
    const all = await clients.get('moderator')!.call('GET', `/projects/${t.projectId}/queues`);
    // Every queue of the project (the configuration routes above created more than these two).
    const every = (await t.request('GET', '/v1/queue')).body.queues.map((q: any) => q.id).sort();
    assert.ok(every.includes(queueId) && every.includes(otherQueueId));
    assert.deepEqual(all.body.queues.map((q: any) => q.id).sort(), every);
    const { contentId } = await freshItem();
    const noQueue = await limited.call('POST', `/projects/${t.projectId}/actions/execute`, { body: { actionId: 'allow', contentIds: [contentId] } });
    assert.equal(noQueue.status, 400);
    assert.match(noQueue.body.message, /only from your queues/);
  });
});
