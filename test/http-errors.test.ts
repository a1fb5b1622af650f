import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestServer, type TestServer } from './helpers.ts';

/** Sends raw bytes and resolves with everything the server wrote before closing the connection. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

function parseRawResponse(raw: string): { status: number; contentType: string | undefined; body: unknown } {
  const [head, body] = raw.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)?.[1]);
  const contentType = /\r\ncontent-type: ([^\r]+)/i.exec(head!)?.[1];
  return { status, contentType, body: JSON.parse(body!) };
}

describe('answers Fastify and Node give before routing use the error catalog', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('authors with the longest external ids the API accepts are found by them', async () => {
    // 200 characters is the schema's limit; percent-encoded, the Cyrillic one is 1,200 characters of path.
    for (const externalId of ['a'.repeat(150), 'ж'.repeat(200)]) {
      const submitted = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hello' }, authorId: externalId } });
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
      const found = await t.request('GET', `/v1/authors/${encodeURIComponent(externalId)}`);
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.equal(found.body.external_id, externalId);
    }
  });

  test('a path parameter beyond any id, and a malformed percent-encoding, are 400 with the error body', async () => {
    const tooLong = await t.request('GET', `/v1/authors/${'x'.repeat(2001)}`);
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.code, 'BAD_REQUEST');
    assert.match(tooLong.body.message, /longer than 2000 characters/);
    assert.deepEqual(tooLong.body.issues, [{ message: 'Path parameter too long', path: '/params' }]);

    const malformed = await t.request('GET', '/v1/authors/%E0%A4%A');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'BAD_REQUEST');
    assert.match(malformed.body.message, /percent-encoding/);
    assert.equal(malformed.body.issues[0].path, '/params');
  });

  test('a request the HTTP parser rejects gets 400 with the error body', async () => {
    for (const bytes of ['NOT AN HTTP REQUEST\r\n\r\n', 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: twelve\r\n\r\n']) {
      const answer = parseRawResponse(await rawExchange(t.url, bytes));
      assert.equal(answer.status, 400);
      assert.equal(answer.contentType, 'application/json; charset=utf-8');
      assert.deepEqual(answer.body, { code: 'BAD_REQUEST', message: 'Malformed HTTP request', issues: [] });
    }
  });

  test('headers larger than the server accepts get 431 with the error body', async () => {
    const bytes = `GET /v1/channels?filler=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n\r\n`;
    const answer = parseRawResponse(await rawExchange(t.url, bytes));
    assert.equal(answer.status, 431);
    assert.deepEqual(answer.body, {
      code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      message: 'The request line and headers are larger than the server accepts',
      issues: [],
    });
  });
});
