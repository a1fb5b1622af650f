import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI from '@moderation-api/sdk';
import { startTestServer, type TestServer } from './helpers.ts';

const moderate = (t: TestServer, key?: string) =>
  t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hello' }, doNotStore: true }, ...(key ? { key } : {}) });

describe('rate limits per key and per project, on the store-backed counters', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ RATE_LIMIT_PER_KEY: '20', RATE_LIMIT_PER_PROJECT: '30', RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_SYNC_MS: '50' });
  });
  after(() => t.close());

  test('the 21st request of a key within its window is refused with 429, Retry-After and the hosted body; other keys go on', async () => {
    const first = await moderate(t);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-ratelimit-limit'), '20');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '19');
    for (let i = 1; i < 20; i++) assert.equal((await moderate(t)).status, 200, `request ${i + 1}`);
    const refused = await moderate(t);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'TOO_MANY_REQUESTS');
    assert.match(refused.body.message, /^Rate limit exceeded\. Try again in \d+ seconds\.$/);
    assert.equal(refused.body.error, refused.body.message);
    assert.deepEqual(refused.body.issues, []);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 86_400, `Retry-After ${retryAfter}`);
    // Every /v1 route counts, not only moderation.
    assert.equal((await t.request('GET', '/v1/authors')).status, 429);

    // A second key of the same project has its own 20, until the project's 30 run out.
    const other = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'x' } } });
    assert.equal(other.status, 429);
    const { createApiKey } = await import('../src/services/api-keys.ts');
    const { key } = await createApiKey(t.server.db, t.projectId, 'second');
    let admitted = 0;
    for (let i = 0; i < 20; i++) if ((await moderate(t, key)).status === 200) admitted++;
    // 21 requests of the first key were counted (20 admitted and the refused /v1/authors is not), so 30 − 20 = 10 remain.
    assert.equal(admitted, 10);
    const projectRefusal = await moderate(t, key);
    assert.equal(projectRefusal.status, 429);

    // Another project is not affected.
    const elsewhere = await t.newProject();
    assert.equal((await moderate(t, elsewhere.apiKey)).status, 200);
  });

  test('the counts reach the shared counter, so another node would see them', async () => {
    await t.server.app.deps.rateLimiter.sync();
    const { rows } = await t.server.db.query<{ scope_key: string; count: number }>("SELECT scope_key, count FROM rate_counters WHERE scope_key LIKE 'project:%'");
    const mine = rows.find((row) => row.scope_key === `project:${t.projectId}`);
    assert.ok(mine && Number(mine.count) >= 30, JSON.stringify(rows));
  });

  test('the official SDK surfaces the 429 as its RateLimitError', async () => {
    const client = new ModerationAPI({ secretKey: t.apiKey, baseURL: t.baseURL, maxRetries: 0 });
    await assert.rejects(client.content.submit({ content: { type: 'text', text: 'hi' } }), (error: Error & { status?: number }) => {
      assert.equal(error.status, 429);
      assert.equal(error.constructor.name, 'RateLimitError');
      return true;
    });
  });
});

describe('monthly quota of moderation requests', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ QUOTA_PER_PROJECT_PER_MONTH: '5', RATE_LIMIT_PER_KEY: '0' });
  });
  after(() => t.close());

  test('counts POST /v1/moderate only, and refuses past the quota until the month ends', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await moderate(t)).status, 200);
    assert.equal((await t.request('GET', '/v1/authors')).status, 200, 'other routes do not use the quota');
    await t.server.app.deps.rateLimiter.sync();
    const account = await t.request('GET', '/v1/account');
    assert.deepEqual([account.body.text_api_quota, account.body.remaining_quota], [5, 0]);
    const refused = await moderate(t);
    assert.equal(refused.status, 429);
    assert.match(refused.body.message, /^Monthly quota exceeded/);
    const now = new Date();
    const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    assert.equal(Number(refused.headers.get('x-ratelimit-reset')), Math.ceil(monthEnd / 1000));
  });
});

describe('rate limits with Redis as the shared counter', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ RATE_LIMIT_PER_KEY: '10', RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_SYNC_MS: '50', REDIS_URL: 'redis://127.0.0.1:6379/0' });
  });
  after(() => t.close());

  test('limits hold and the counts are in Redis', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await moderate(t)).status, 200);
    assert.equal((await moderate(t)).status, 429);
    await t.server.app.deps.rateLimiter.sync();
    assert.equal(t.server.app.deps.rateLimiter.sharedReachable, true);
  });
});

describe('rate limits while Redis is unreachable', () => {
  let t: TestServer;
  before(async () => {
    // Nothing listens on port 1: every command fails at once.
    t = await startTestServer({ RATE_LIMIT_PER_KEY: '10', RATE_LIMIT_WINDOW_SECONDS: '86400', RATE_LIMIT_SYNC_MS: '50', REDIS_URL: 'redis://127.0.0.1:1/0' });
  });
  after(() => t.close());

  test('the node keeps limiting on its own counts and says the counter is unreachable', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await moderate(t)).status, 200);
    assert.equal((await moderate(t)).status, 429);
    await t.server.app.deps.rateLimiter.sync();
    assert.equal(t.server.app.deps.rateLimiter.sharedReachable, false);
  });
});
