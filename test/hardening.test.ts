import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { authenticate, cachedPrincipal } from '../src/services/api-keys.ts';
import { countRows, startTestServer, type TestServer } from './helpers.ts';

/** Opens a connection, sends `bytes`, and resolves with what the server wrote and when it closed. */
function rawExchange(url: string, bytes: string, giveUpMs: number): Promise<{ received: string; closedAfterMs: number | null }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received, closedAfterMs: null });
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, closedAfterMs: Date.now() - started });
    });
  });
}

describe('hardening findings of the operator probe', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ REQUEST_TIMEOUT_MS: '1000' });
  });
  after(() => t.close());

  test('a timestamp the store cannot hold as bigint is refused by the schema, and stores nothing', async () => {
    const before = await countRows(t, 'content_items');
    for (const timestamp of [1.5, 1e-300, -1, 1e20]) {
      const answer = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hi' }, timestamp } });
      assert.equal(answer.status, 400, `timestamp ${timestamp}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, 'BAD_REQUEST');
      assert.ok(Array.isArray(answer.body.issues) && answer.body.issues.some((i: { path?: string }) => i.path === '/timestamp'));
    }
    assert.equal(await countRows(t, 'content_items'), before);
    const valid = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hi' }, timestamp: 1_700_000_000_000 } });
    assert.equal(valid.status, 200, JSON.stringify(valid.body));
  });

  test('a body that stops short of its Content-Length is answered 408 and closed', async () => {
    const request =
      `POST /v1/moderate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"content":';
    const { received, closedAfterMs } = await rawExchange(t.url, request, 15_000);
    assert.notEqual(closedAfterMs, null, 'the connection stayed open');
    assert.ok(closedAfterMs! < 10_000, `closed after ${closedAfterMs} ms`);
    assert.match(received, /^HTTP\/1\.1 408/);
    assert.match(received, /"code":"REQUEST_TIMEOUT"/);
  });
  test('unknown settings in a per-request policy entry are refused, for every kind of policy', async () => {
    for (const entry of [
      { id: 'toxicity', surprise: 1 },
      { id: 'pii', entities: {}, surprise: true },
      { id: 'url', maskAll: true },
    ]) {
      const answer = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hello' }, policies: [entry] } });
      assert.equal(answer.status, 400, `${JSON.stringify(entry)}: ${JSON.stringify(answer.body)}`);
      const unknown = Object.keys(entry).find((k) => !['id', 'entities'].includes(k));
      assert.ok(answer.body.issues.some((i: { path?: string }) => i.path === `/policies/0/${unknown}`), JSON.stringify(answer.body));
    }
    const fine = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hello' }, policies: [{ id: 'toxicity', flag: true, threshold: 0.4 }] } });
    assert.equal(fine.status, 200, JSON.stringify(fine.body));
  });

  test('a webhook URL holding CR, LF, a tab or a control character is refused and nothing is stored', async () => {
    const before = await t.request('GET', '/v1/webhooks');
    for (const url of ['https://example.com/hook\r\nX-Injected: 1', 'https://example.com/a\nb', 'https://exa\tmple.com/', 'https://example.com/\u0001']) {
      const answer = await t.request('POST', '/v1/webhooks', { body: { name: 'hook', url } });
      assert.equal(answer.status, 400, `${JSON.stringify(url)}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.issues[0].path, '/url');
    }
    const afterwards = await t.request('GET', '/v1/webhooks');
    assert.deepEqual(afterwards.body, before.body);
  });
  test('re-submitting one contentId counts the item once, and again only when its verdict changes', async () => {
    const metrics = async (author: string) => (await t.request('GET', `/v1/authors/${author}`)).body.metrics;
    const submit = (text: string, author = 'retrier') =>
      t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, contentId: 'retried-item', authorId: author } });
    // Sequential retries, then a burst of concurrent ones sharing group-commit batches.
    for (let i = 0; i < 10; i++) assert.equal((await submit('Have a lovely day')).status, 200);
    const burst = await Promise.all(Array.from({ length: 40 }, () => submit('Have a lovely day')));
    assert.ok(burst.every((answer) => answer.status === 200));
    let m = await metrics('retrier');
    assert.equal(m.total_content, 1);
    assert.equal(m.flagged_content, 0);

    const rude = 'What the fuck is wrong with you, you worthless idiot';
    const flaggedAnswer = await submit(rude);
    assert.equal(flaggedAnswer.body.evaluation.flagged, true);
    await Promise.all(Array.from({ length: 20 }, () => submit(rude)));
    m = await metrics('retrier');
    assert.deepEqual([m.total_content, m.flagged_content], [1, 1]);

    await submit('Have a lovely day');
    m = await metrics('retrier');
    assert.deepEqual([m.total_content, m.flagged_content], [1, 0]);

    // The same item sent under another author is that author's first sighting of it.
    await submit('Have a lovely day', 'someone-else');
    assert.equal((await metrics('someone-else')).total_content, 1);
    assert.equal(await countRows(t, 'content_items') > 0, true);
  });
  test('a flood of made-up keys does not push a real key out of the cache', async (context) => {
    // The clock stands still, so that the real key's entry cannot simply expire while the flood runs.
    context.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    assert.ok(await authenticate(t.server.db, t.apiKey));
    const flood = Array.from({ length: 12_000 }, () => `om_${randomBytes(24).toString('base64url')}`);
    for (let i = 0; i < flood.length; i += 500) {
      const answers = await Promise.all(flood.slice(i, i + 500).map((key) => authenticate(t.server.db, key)));
      assert.ok(answers.every((principal) => principal === null));
    }
    const cached = cachedPrincipal(t.apiKey);
    assert.ok(cached, 'the real key must still answer from the cache');
    assert.equal(cached.projectId, t.projectId);
  });
});
