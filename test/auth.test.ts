import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countRows, startTestServer, type TestServer } from './helpers.ts';
import { revokeApiKey, listApiKeys } from '../src/services/api-keys.ts';

describe('authentication and tenant isolation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('every /v1 route needs a key: missing or invalid → 401 with the error body', async () => {
    for (const [method, path] of [['POST', '/v1/moderate'], ['GET', '/v1/channels'], ['GET', '/v1/openapi.json'], ['GET', '/v1/channels/default']]) {
      const missing = await t.request(method!, path!, { key: null, body: method === 'POST' ? { content: { type: 'text', text: 'x' } } : undefined });
      assert.equal(missing.status, 401, `${method} ${path}`);
      assert.equal(missing.body.code, 'UNAUTHORIZED');
      assert.ok(Array.isArray(missing.body.issues));
      const wrong = await t.request(method!, path!, { key: 'om_wrong' });
      assert.equal(wrong.status, 401);
    }
  });

  test('keys are stored hashed; only a prefix is kept in clear', async () => {
    const { rows } = await t.server.db.query<{ prefix: string; key_hash: string }>('SELECT prefix, key_hash FROM api_keys WHERE project_id = $1', [t.projectId]);
    assert.ok(rows.length >= 1);
    for (const row of rows) {
      assert.notEqual(row.key_hash, t.apiKey);
      assert.ok(!row.key_hash.includes(t.apiKey));
      assert.ok(row.prefix.length < t.apiKey.length);
    }
  });

  test('a revoked key stops working at once', async () => {
    const other = await t.newProject();
    const ok = await t.request('GET', '/v1/channels', { key: other.apiKey });
    assert.equal(ok.status, 200);
    const key = (await listApiKeys(t.server.db, other.projectId))[0]!;
    await revokeApiKey(t.server.db, key.id);
    const denied = await t.request('GET', '/v1/channels', { key: other.apiKey });
    assert.equal(denied.status, 401);
  });

  test("another project's ids answer 404, never its data", async () => {
    const other = await t.newProject();
    const created = await t.request('POST', '/v1/channels', { key: other.apiKey, body: { key: 'secret-channel', name: 'Secret' } });
    assert.equal(created.status, 201);
    const byId = await t.request('GET', `/v1/channels/${created.body.id}`);
    assert.equal(byId.status, 404);
    assert.equal(byId.body.code, 'NOT_FOUND');
    const byKey = await t.request('GET', '/v1/channels/secret-channel');
    assert.equal(byKey.status, 404);
    const put = await t.request('PUT', `/v1/channels/${created.body.id}`, { body: { name: 'hijacked' } });
    assert.equal(put.status, 404);
    const del = await t.request('DELETE', `/v1/channels/${created.body.id}`);
    assert.equal(del.status, 404);
    const before = await countRows(t, 'content_items');
    const moderate = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'x' }, channel: created.body.id } });
    assert.equal(moderate.status, 404);
    assert.equal(await countRows(t, 'content_items'), before);
    const mine = await t.request('GET', `/v1/channels/${created.body.id}`, { key: other.apiKey });
    assert.equal(mine.body.name, 'Secret');
  });

  test('the same contentId in two projects are two items', async () => {
    const other = await t.newProject();
    await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'mine' }, contentId: 'shared-id' } });
    await t.request('POST', '/v1/moderate', { key: other.apiKey, body: { content: { type: 'text', text: 'theirs' }, contentId: 'shared-id' } });
    const { rows } = await t.server.db.query<{ text: string }>(
      "SELECT content->>'text' AS text FROM content_items WHERE project_id = $1 AND external_id = 'shared-id'",
      [t.projectId],
    );
    assert.deepEqual(rows.map((r) => r.text), ['mine']);
  });
});
