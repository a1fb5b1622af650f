import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOutboundFetch, expectOk, isPublicAddress, outboundFetch, OutboundError, type OutboundErrorCode } from './outbound.ts';

let server: http.Server;
let base: string;
let port: number;
const seenHosts: string[] = [];

before(async () => {
  server = http.createServer((request, response) => {
    seenHosts.push(request.headers.host ?? '');
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/ok') {
      response.setHeader('content-type', 'text/plain');
      response.end(`hello ${request.method}`);
    } else if (url.pathname === '/big') {
      response.write(Buffer.alloc(64 * 1024, 'a'));
      response.end(Buffer.alloc(64 * 1024, 'b'));
    } else if (url.pathname === '/declared-big') {
      response.setHeader('content-length', String(10_000_000));
      response.write('x');
    } else if (url.pathname === '/slow') {
      setTimeout(() => response.end('late'), 2_000).unref();
    } else if (url.pathname === '/redirect') {
      response.statusCode = 302;
      response.setHeader('location', url.searchParams.get('to') ?? '/ok');
      response.end();
    } else if (url.pathname === '/loop') {
      response.statusCode = 301;
      response.setHeader('location', '/loop');
      response.end();
    } else if (url.pathname === '/echo-auth') {
      response.end(request.headers.authorization ?? 'none');
    } else {
      response.statusCode = 404;
      response.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

const limits = { timeoutMs: 1_000, maxBytes: 10_000 };

async function rejectsWith(promise: Promise<unknown>, code: OutboundErrorCode): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof OutboundError, `expected OutboundError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return true;
  });
}

test('private, loopback, link-local and mapped addresses are blocked', async () => {
  for (const url of [
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://10.1.2.3/',
    'https://192.168.0.10/',
    'https://172.16.5.4/',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.1.1/',
    'https://0.0.0.0/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::127.0.0.1]/',
    'https://[::a9fe:a9fe]/',
    'https://[::7f00:1]/',
    'https://[0:0:0:0:0:0:10.0.0.1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[2002:7f00:1::]/',
    'https://[fc00::1]/',
    'https://[fe80::1]/',
    'https://224.0.0.1/',
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://0x7f000001/',
    'https://localhost/',
  ]) {
    await rejectsWith(outboundFetch(url, limits), 'blocked_address');
  }
});

test('a host is blocked when any of its addresses is private', async () => {
  const fetchWithDns = createOutboundFetch({
    resolve: async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ],
  });
  await rejectsWith(fetchWithDns('https://mixed.example/', limits), 'blocked_address');
});

test('address classification', () => {
  assert.equal(isPublicAddress('93.184.216.34'), true);
  assert.equal(isPublicAddress('2606:4700:4700::1111'), true);
  for (const address of ['127.0.0.1', '::1', '10.0.0.1', '169.254.169.254', '::ffff:10.0.0.1', '100.100.100.100', 'fd12::1', '::', 'not-an-ip', '::127.0.0.1', '::a9fe:a9fe', '::7f00:1', '::ffff:0:7f00:1', '64:ff9b::a00:1']) {
    assert.equal(isPublicAddress(address), false, address);
  }
});

test('only https, and http only with allowPrivate', async () => {
  await rejectsWith(outboundFetch('ftp://example.com/file', limits), 'bad_scheme');
  await rejectsWith(outboundFetch('http://example.com/', limits), 'bad_scheme');
  await rejectsWith(outboundFetch('file:///etc/passwd', limits), 'bad_scheme');
  await rejectsWith(outboundFetch('not a url', limits), 'bad_url');
  const response = await outboundFetch(`${base}/ok`, { ...limits, allowPrivate: true });
  assert.equal(response.status, 200);
  assert.equal(response.body.toString(), 'hello GET');
});

test('trusted skips the address check but keeps the caps', async () => {
  const response = await outboundFetch(`${base}/ok`, { ...limits, trusted: true, method: 'POST', body: '{}' });
  assert.equal(response.body.toString(), 'hello POST');
  await rejectsWith(outboundFetch(`${base}/big`, { ...limits, trusted: true }), 'too_large');
});

test('response size cap, streamed and declared', async () => {
  await rejectsWith(outboundFetch(`${base}/big`, { ...limits, allowPrivate: true }), 'too_large');
  await rejectsWith(outboundFetch(`${base}/declared-big`, { ...limits, allowPrivate: true }), 'too_large');
  const roomy = await outboundFetch(`${base}/big`, { timeoutMs: 2_000, maxBytes: 200_000, allowPrivate: true });
  assert.equal(roomy.body.length, 128 * 1024);
});

test('total timeout and caller abort', async () => {
  await rejectsWith(outboundFetch(`${base}/slow`, { timeoutMs: 100, maxBytes: 1_000, allowPrivate: true }), 'timeout');
  const controller = new AbortController();
  const pending = outboundFetch(`${base}/slow`, { timeoutMs: 5_000, maxBytes: 1_000, allowPrivate: true, signal: controller.signal });
  setTimeout(() => controller.abort(), 20);
  await rejectsWith(pending, 'aborted');
});

// The test server listens on loopback; this fetch treats exactly that address as
// public so redirect vetting can be exercised without leaving the machine.
const loopbackIsPublic = createOutboundFetch({
  isPublicAddress: (address) => address === '127.0.0.1' || isPublicAddress(address),
  resolve: async (hostname) => {
    if (hostname === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
    if (hostname === 'internal.test') return [{ address: '10.0.0.7', family: 4 }];
    throw new Error(`unknown host ${hostname}`);
  },
  allowInsecureHttp: true,
});

test('redirects are followed and every hop is re-vetted', async () => {
  const followed = await loopbackIsPublic(`${base}/redirect?to=/ok`, limits);
  assert.equal(followed.body.toString(), 'hello GET');
  assert.equal(followed.url, `${base}/ok`);
  for (const target of ['http://10.0.0.1/', 'http://[::1]/', 'http://169.254.169.254/', 'http://internal.test/', 'http://0xa000001/x', 'http://167772161/']) {
    await rejectsWith(loopbackIsPublic(`${base}/redirect?to=${encodeURIComponent(target)}`, limits), 'blocked_address');
  }
  await rejectsWith(loopbackIsPublic(`${base}/loop`, limits), 'too_many_redirects');
});

test('the connection goes to the vetted address, not a fresh DNS answer', async () => {
  seenHosts.length = 0;
  const response = await loopbackIsPublic(`http://rebind.test:${port}/ok`, limits);
  assert.equal(response.status, 200);
  assert.deepEqual(seenHosts, [`rebind.test:${port}`]);
});

test('credentials are dropped on a cross-origin redirect', async () => {
  const sameOrigin = await loopbackIsPublic(`${base}/redirect?to=/echo-auth`, { ...limits, headers: { Authorization: 'Bearer s3cret' } });
  assert.equal(sameOrigin.body.toString(), 'Bearer s3cret');
  const crossOrigin = await loopbackIsPublic(`${base}/redirect?to=${encodeURIComponent(`http://rebind.test:${port}/echo-auth`)}`, {
    ...limits,
    headers: { Authorization: 'Bearer s3cret' },
  });
  assert.equal(crossOrigin.body.toString(), 'none');
});

test('expectOk turns an error status into http_error', async () => {
  const missing = await outboundFetch(`${base}/nope`, { ...limits, allowPrivate: true });
  assert.equal(missing.status, 404);
  assert.throws(() => expectOk(missing), (error: unknown) => error instanceof OutboundError && error.code === 'http_error' && error.status === 404);
});
