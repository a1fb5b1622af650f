import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

describe('channels API', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('a new project has its default channel', async () => {
    const r = await t.request('GET', '/v1/channels');
    assert.equal(r.status, 200);
    assert.equal(r.body.channels.length, 1);
    const channel = r.body.channels[0];
    assert.equal(channel.key, 'default');
    assert.equal(channel.isDefault, true);
    assert.equal(channel.unicodeNormalization, true);
    assert.ok(channel.policies.some((p: { id: string }) => p.id === 'profanity'));
  });

  test('create, read by id and by key, update, delete', async () => {
    const created = await t.request('POST', '/v1/channels', {
      body: { key: 'chat', name: 'Chat', policies: [{ id: 'profanity', flag: true, threshold: 0.7 }], triage: { review: 0.4, reject: 0.8 } },
    });
    assert.equal(created.status, 201);
    assert.match(created.body.id, /^ch_/);
    assert.equal(created.body.policies[0].threshold, 0.7);
    assert.equal(created.body.unicodeNormalization, true);

    const byKey = await t.request('GET', '/v1/channels/chat');
    assert.equal(byKey.body.id, created.body.id);
    const byId = await t.request('GET', `/v1/channels/${created.body.id}`);
    assert.equal(byId.body.key, 'chat');

    const updated = await t.request('PUT', '/v1/channels/chat', { body: { name: 'Chat room', unicodeNormalization: false } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, 'Chat room');
    assert.equal(updated.body.unicodeNormalization, false);
    assert.equal(updated.body.policies[0].threshold, 0.7);

    const moderated = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hello' }, channel: 'chat' } });
    assert.equal(moderated.body.meta.channel_key, 'chat');

    const deleted = await t.request('DELETE', `/v1/channels/${created.body.id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await t.request('GET', '/v1/channels/chat')).status, 404);
  });

  test('insights answer per channel: sentiment and language where enabled, none elsewhere', async () => {
    const created = await t.request('POST', '/v1/channels', { body: { key: 'insightful', name: 'Insightful', insights: ['sentiment', 'language'] } });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.insights, ['sentiment', 'language']);
    const insightsOf = async (text: string, channel?: string) => {
      const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, doNotStore: true, ...(channel ? { channel } : {}) } });
      assert.equal(r.status, 200);
      return new Map((r.body.insights as Array<{ id: string; type: string; value: string | null; probability: number }>).map((i) => [i.id, i]));
    };
    const happy = await insightsOf('I absolutely love this community, thank you all for the warm welcome!', 'insightful');
    assert.equal(happy.get('sentiment')?.value, 'positive');
    assert.equal(happy.get('sentiment')?.type, 'insight');
    assert.equal(happy.get('language')?.value, 'en');
    assert.ok(happy.get('language')!.probability > 0.5);
    const angry = await insightsOf('This is terrible, I hate it and I am so angry at the seller.', 'insightful');
    assert.equal(angry.get('sentiment')?.value, 'negative');
    // Sentiment is English only; the language insight still answers.
    const german = await insightsOf('Das Wetter ist heute sehr schön und ich gehe mit meinen Freunden spazieren.', 'insightful');
    assert.equal(german.get('sentiment')?.value, null);
    assert.equal(german.get('language')?.value, 'de');
    // Too little text for a language.
    assert.equal((await insightsOf('ok', 'insightful')).get('language')?.value, null);
    assert.equal((await insightsOf('I absolutely love this community!')).size, 0);
    const refused = await t.request('POST', '/v1/channels', { body: { key: 'bad-insight', name: 'Bad', insights: ['horoscope'] } });
    assert.equal(refused.status, 400);
    assert.equal((await t.request('GET', '/v1/channels/bad-insight')).status, 404);
  });

  test('channel edits take effect on the next submission', async () => {
    await t.request('POST', '/v1/channels', { body: { key: 'live', name: 'Live' } });
    const first = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'fuck' }, channel: 'live' } });
    assert.equal(first.body.evaluation.flagged, true);
    await t.request('PUT', '/v1/channels/live', { body: { policies: [{ id: 'profanity', flag: false }] } });
    const second = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'fuck' }, channel: 'live' } });
    assert.equal(second.body.evaluation.flagged, false);
  });

  test('invalid settings and duplicate keys are refused', async () => {
    const unknownPolicy = await t.request('POST', '/v1/channels', { body: { key: 'x1', name: 'X', policies: [{ id: 'astrology', flag: true }] } });
    assert.equal(unknownPolicy.status, 400);
    assert.equal(unknownPolicy.body.issues[0].path, '/policies/0/id');
    const badThreshold = await t.request('POST', '/v1/channels', { body: { key: 'x2', name: 'X', policies: [{ id: 'profanity', flag: true, threshold: 2 }] } });
    assert.equal(badThreshold.status, 400);
    const badTriage = await t.request('POST', '/v1/channels', { body: { key: 'x3', name: 'X', triage: { review: 0.9, reject: 0.5 } } });
    assert.equal(badTriage.status, 400);
    const badKey = await t.request('POST', '/v1/channels', { body: { key: 'has space', name: 'X' } });
    assert.equal(badKey.status, 400);
    const dup = await t.request('POST', '/v1/channels', { body: { key: 'default', name: 'Again' } });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'CONFLICT');
    const delDefault = await t.request('DELETE', '/v1/channels/default');
    assert.equal(delDefault.status, 400);
    const list = await t.request('GET', '/v1/channels');
    assert.ok(!list.body.channels.some((c: { key: string }) => ['x1', 'x2', 'x3', 'has space'].includes(c.key)));
  });
});

describe('operations', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('health and readiness', async () => {
    assert.deepEqual((await t.request('GET', '/healthz', { key: null })).body, { status: 'ok' });
    assert.deepEqual((await t.request('GET', '/readyz', { key: null })).body, { status: 'ready' });
  });

  test('the OpenAPI document lists every /v1 route with its schemas', async () => {
    const r = await t.request('GET', '/v1/openapi.json');
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, '3.0.3');
    for (const path of ['/v1/moderate', '/v1/channels', '/v1/channels/{idOrKey}']) assert.ok(r.body.paths[path], path);
    const moderate = r.body.paths['/v1/moderate'].post;
    assert.ok(moderate.requestBody.content['application/json'].schema);
    assert.ok(moderate.responses['200']);
  });

  test('unknown routes answer 404 with the error body', async () => {
    const r = await t.request('GET', '/v1/nothing-here');
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'NOT_FOUND');
  });

  test('a request id is echoed back, on errors too', async () => {
    const r = await t.request('GET', '/healthz', { key: null, headers: { 'x-request-id': 'abc-123' } });
    assert.equal(r.headers.get('x-request-id'), 'abc-123');
    const unauthorized = await t.request('GET', '/v1/channels', { key: null, headers: { 'x-request-id': 'abc-401' } });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers.get('x-request-id'), 'abc-401');
    const missing = await t.request('GET', '/no/such/route', { key: null, headers: { 'x-request-id': 'abc-404' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('x-request-id'), 'abc-404');
    const invalid = await t.request('POST', '/v1/moderate', { headers: { 'x-request-id': 'abc-400' }, body: { content: { type: 'text' } } });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.headers.get('x-request-id'), 'abc-400');
  });
});
