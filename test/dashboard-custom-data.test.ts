import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { signIn, type DashboardClient } from './support/dashboard-client.ts';
import { startHttpsEndpoint, type HttpsEndpoint } from './support/https-endpoint.ts';
import { fetchCustomData } from '../src/services/custom-data.ts';
import { getSigningSecrets } from '../src/services/webhooks.ts';
import { outboundFetch } from '../src/net/outbound.ts';

// Long enough for a TLS handshake on a busy test machine, short enough to keep the test quick.
const TIMEOUT_MS = 5_000;

const ALL_SIX = [
  { type: 'heading', label: 'Billing' },
  { type: 'field', label: 'Plan', value: 'Pro', tooltip: 'since 2024' },
  { type: 'status', label: 'Account', value: 'Good standing', variant: 'success' },
  { type: 'metric', label: 'Lifetime value', value: 1234 },
  { type: 'separator' },
  { type: 'link', label: 'Open in CRM', url: 'https://crm.example.com/u/1', variant: 'outline' },
];

describe('custom data: settings and the outbound call', () => {
  let t: TestServer;
  let endpoint: HttpsEndpoint;
  let admin: DashboardClient;
  const P = () => `/projects/${t.projectId}`;
  let counter = 0;
  const freshAuthor = async (email?: string) => {
    const authorId = `cd-author-${++counter}`;
    const r = await t.request('POST', '/v1/authors', { body: { external_id: authorId, ...(email ? { email } : {}) } });
    assert.equal(r.status, 200);
    return authorId;
  };

  before(async () => {
    endpoint = await startHttpsEndpoint();
    t = await startTestServer({ ALLOW_PRIVATE_OUTBOUND: 'true', OUTBOUND_CA_FILE: endpoint.certFile, CUSTOM_DATA_TIMEOUT_MS: String(TIMEOUT_MS), CUSTOM_DATA_CACHE_SECONDS: '60' });
    admin = await signIn(t, t.admin.email, t.admin.password);
  });
  after(async () => {
    await t.close();
    await endpoint.close();
  });

  test('settings: https only, header values are write-only and kept when re-saved without a value', async () => {
    const plain = await admin.call('PUT', `${P()}/settings/custom-data`, { body: { enabled: true, endpointUrl: 'http://crm.example.com/x', headers: [] } });
    assert.equal(plain.status, 400);
    assert.match(plain.body.message, /https/);
    const reserved = await admin.call('PUT', `${P()}/settings/custom-data`, { body: { enabled: true, endpointUrl: `${endpoint.url}/om`, headers: [{ name: 'X-Webhook-Secret', value: 'x' }] } });
    assert.equal(reserved.status, 400);
    const broken = await admin.call('PUT', `${P()}/settings/custom-data`, { body: { enabled: true, endpointUrl: `${endpoint.url}/om`, headers: [{ name: 'X-Key', value: 'a\r\nInjected: 1' }] } });
    assert.equal(broken.status, 400);
    const noValue = await admin.call('PUT', `${P()}/settings/custom-data`, { body: { enabled: true, endpointUrl: `${endpoint.url}/om`, headers: [{ name: 'X-New' }] } });
    assert.equal(noValue.status, 400, 'a new header needs a value');
    assert.equal((await admin.call('GET', `${P()}/settings/custom-data`)).body.enabled, false, 'refused saves changed nothing');

    const saved = await admin.call('PUT', `${P()}/settings/custom-data`, { body: { enabled: true, endpointUrl: `${endpoint.url}/om`, headers: [{ name: 'X-Api-Key', value: 'crm-secret-1' }] } });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body.headers, [{ name: 'X-Api-Key', hasValue: true }]);
    assert.ok(!JSON.stringify(saved.body).includes('crm-secret-1'));
    const read = await admin.call('GET', `${P()}/settings/custom-data`);
    assert.ok(!JSON.stringify(read.body).includes('crm-secret-1'));
    // Saved again without the value (as the form does after saving): the value stays.
    const resaved = await admin.call('PUT', `${P()}/settings/custom-data`, { body: { enabled: true, endpointUrl: `${endpoint.url}/om`, headers: [{ name: 'X-Api-Key' }] } });
    assert.equal(resaved.status, 200);
    const audit = await admin.call('GET', `${P()}/audit?kind=config`);
    assert.ok(audit.body.entries.length >= 2);
    assert.equal(audit.body.entries[0].actor.email, t.admin.email);
  });

  test('the call: signed with the project secret, custom headers, the contract body; all six kinds rendered, bad items skipped and counted', async () => {
    endpoint.respond = () => ({
      status: 200,
      body: JSON.stringify({
        version: 1,
        items: [
          ...ALL_SIX,
          { type: 'hologram', label: 'unknown kind' },
          { type: 'link', label: 'Plain http', url: 'http://crm.example.com/' },
          { type: 'field', label: 'no value' },
          { type: 'status', value: 'x', variant: 'neon' },
          'not an object',
        ],
      }),
    });
    const authorId = await freshAuthor('someone@example.com');
    endpoint.requests.length = 0;
    const started = Date.now();
    const answer = await admin.call('GET', `${P()}/authors/${authorId}/custom-data`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'ok');
    assert.deepEqual(answer.body.items, ALL_SIX.map((i) => (i.type === 'metric' ? { ...i, value: '1234' } : i)));
    assert.deepEqual(answer.body.skipped, { unknownKind: 1, invalid: 4 });
    assert.equal(answer.body.cached, false);
    assert.ok(Date.now() - started < 5_000);

    assert.equal(endpoint.requests.length, 1);
    const sent = endpoint.requests[0]!;
    assert.equal(sent.path, '/om');
    assert.equal(sent.headers['x-webhook-secret'], (await getSigningSecrets(t.server.db, t.projectId)).current);
    assert.equal(sent.headers['x-api-key'], 'crm-secret-1', 'the value kept from the first save');
    assert.match(String(sent.headers['content-type']), /application\/json/);
    assert.deepEqual(JSON.parse(sent.body), { version: 1, projectId: t.projectId, author: { externalId: authorId, email: 'someone@example.com' } });

    // Cached per author: the second open does not call again.
    const again = await admin.call('GET', `${P()}/authors/${authorId}/custom-data`);
    assert.equal(again.body.cached, true);
    assert.equal(endpoint.requests.length, 1);
  });

  test('a slow endpoint gives a quiet "unavailable" within the timeout; garbled and failing ones too', async () => {
    endpoint.respond = () => ({ status: 200, body: '{"version":1,"items":[]}', delayMs: 15_000 });
    const slowAuthor = await freshAuthor();
    const started = Date.now();
    const slow = await admin.call('GET', `${P()}/authors/${slowAuthor}/custom-data`);
    const took = Date.now() - started;
    assert.equal(slow.status, 200);
    assert.deepEqual(slow.body, { status: 'unavailable', reason: 'timeout' });
    assert.ok(took >= TIMEOUT_MS - 100 && took < TIMEOUT_MS + 2_500, `answered in ${took} ms (timeout ${TIMEOUT_MS} ms)`);

    for (const [respond, reason] of [
      [() => ({ status: 200, body: 'this is not json' }), 'invalid_response'],
      [() => ({ status: 200, body: JSON.stringify({ version: 2, items: [] }) }), 'invalid_response'],
      [() => ({ status: 200, body: JSON.stringify({ items: 'nope' }) }), 'invalid_response'],
      [() => ({ status: 500, body: 'boom' }), 'error'],
      [() => ({ status: 200, body: JSON.stringify({ version: 1, items: [{ type: 'field', value: 'x'.repeat(300_000) }] }) }), 'error'],
    ] as const) {
      endpoint.respond = respond;
      const r = await admin.call('GET', `${P()}/authors/${await freshAuthor()}/custom-data`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { status: 'unavailable', reason });
    }
    // The author page itself never waits on the endpoint.
    endpoint.respond = () => ({ status: 200, body: '{}', delayMs: 15_000 });
    const pageStarted = Date.now();
    const page = await admin.call('GET', `${P()}/authors/${await freshAuthor()}`);
    assert.equal(page.status, 200);
    assert.equal(page.body.customData.enabled, true);
    assert.ok(Date.now() - pageStarted < TIMEOUT_MS, 'the author page does not wait for the endpoint');
  });

  test('SSRF rules: without the explicit test setting a loopback endpoint is never called; the test certificate is trusted only where configured', async () => {
    endpoint.respond = () => ({ status: 200, body: JSON.stringify({ version: 1, items: ALL_SIX }) });
    endpoint.requests.length = 0;
    const answer = await fetchCustomData(t.server.db, t.projectId, { externalId: 'ssrf-check', email: null }, {
      timeoutMs: TIMEOUT_MS, maxResponseBytes: 10_000, cacheMs: 0, allowPrivate: false, ca: endpoint.cert,
    });
    assert.deepEqual(answer, { status: 'unavailable', reason: 'error' });
    assert.equal(endpoint.requests.length, 0);
    await assert.rejects(outboundFetch(`${endpoint.url}/om`, { method: 'POST', body: '{}', timeoutMs: 2_000, maxBytes: 1000, allowPrivate: true }), /self-signed|certificate/i);
  });

  test('disabled integration: no call, status disabled', async () => {
    assert.equal((await admin.call('PUT', `${P()}/settings/custom-data`, { body: { enabled: false, endpointUrl: `${endpoint.url}/om`, headers: [{ name: 'X-Api-Key' }] } })).status, 200);
    endpoint.requests.length = 0;
    const r = await admin.call('GET', `${P()}/authors/${await freshAuthor()}/custom-data`);
    assert.deepEqual(r.body, { status: 'disabled' });
    assert.equal(endpoint.requests.length, 0);
  });
});
