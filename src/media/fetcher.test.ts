import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMediaFetcher } from './fetcher.ts';
import { MediaError, type MediaErrorCode } from './types.ts';

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const caps = {
  maxBytes: { image: 1000, video: 1000, audio: 1000, url: 1000 },
  fetchTimeoutMs: { image: 800, video: 800, audio: 800, url: 800 },
};

async function rejectsWith(promise: Promise<unknown>, code: MediaErrorCode): Promise<MediaError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof MediaError, `expected a MediaError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected ${code}`);
}

/** A server on `host` counting the requests that reach it. */
async function listen(host: string, handler: http.RequestListener) {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, hits, port: (server.address() as AddressInfo).port };
}

describe('media fetcher: SSRF', () => {
  let target: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    target = await listen('127.0.0.1', (_request, response) => response.end(PNG_HEAD));
  });
  after(() => target.server.close());

  test('loopback, private, link-local and IP-literal forms are refused without the test setting, and nothing is reached', async () => {
    const fetcher = createMediaFetcher({ ...caps, allowLoopbackForTests: false });
    const port = target.port;
    const forms = [
      `https://127.0.0.1:${port}/a`,
      `https://localhost:${port}/a`,
      `https://2130706433:${port}/a`,
      `https://0x7f000001:${port}/a`,
      `https://0x7f.1:${port}/a`,
      `https://0177.0.0.1:${port}/a`,
      `https://127.1:${port}/a`,
      `https://[::ffff:127.0.0.1]:${port}/a`,
      `https://[::ffff:7f00:1]:${port}/a`,
      `https://[::1]:${port}/a`,
      `https://[::]:${port}/a`,
      `https://0.0.0.0:${port}/a`,
      `https://0:${port}/a`,
      'https://169.254.169.254/latest/meta-data/',
      'https://[fe80::1]/a',
      'https://10.0.0.1/a',
      'https://172.16.5.4/a',
      'https://192.168.1.1/a',
      'https://100.64.0.1/a',
      'https://[fc00::1]/a',
      'https://[::127.0.0.1]/a',
      'https://224.0.0.1/a',
      'https://255.255.255.255/a',
    ];
    for (const url of forms) {
      const error = await rejectsWith(fetcher.fetch(url, 'image'), 'blocked_address');
      assert.match(error.message, /not a public address/, url);
    }
    assert.deepEqual(target.hits, []);
  });

  test('plain http, other schemes and credentials are refused in production', async () => {
    const fetcher = createMediaFetcher({ ...caps, allowLoopbackForTests: false });
    await rejectsWith(fetcher.fetch('http://example.com/a.png', 'image'), 'bad_url');
    await rejectsWith(fetcher.fetch('file:///etc/passwd', 'image'), 'bad_url');
    await rejectsWith(fetcher.fetch('ftp://example.com/a.png', 'image'), 'bad_url');
    await rejectsWith(fetcher.fetch('gopher://127.0.0.1:70/', 'image'), 'bad_url');
    await rejectsWith(fetcher.fetch('https://user:pw@example.com/a.png', 'image'), 'bad_url');
  });

  test('a host name that resolves to a private address is refused', async () => {
    const fetcher = createMediaFetcher({ ...caps, allowLoopbackForTests: false }, { resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }] });
    await rejectsWith(fetcher.fetch('https://mixed.example/a.png', 'image'), 'blocked_address');
  });

  test('a redirect from an allowed host to a loopback address is refused, and the loopback server is never reached', async () => {
    // 127.0.0.2 stands in for a public host (the only address this test calls public).
    const front = await listen('127.0.0.2', (_request, response) => response.writeHead(302, { location: `http://127.0.0.1:${target.port}/secret` }).end());
    const viaName = await listen('127.0.0.2', (_request, response) => response.writeHead(301, { location: `http://localhost:${target.port}/secret` }).end());
    try {
      const fetcher = createMediaFetcher({ ...caps, allowLoopbackForTests: false }, { isPublicAddress: (address) => address === '127.0.0.2', allowInsecureHttp: true });
      await rejectsWith(fetcher.fetch(`http://127.0.0.2:${front.port}/image.png`, 'image'), 'blocked_address');
      await rejectsWith(fetcher.fetch(`http://127.0.0.2:${viaName.port}/image.png`, 'image'), 'blocked_address');
      assert.equal(front.hits.length, 1);
      assert.deepEqual(target.hits, []);
    } finally {
      front.server.close();
      viaName.server.close();
    }
  });

  test('the test setting opens loopback only: private and link-local stay refused, also through redirects', async () => {
    const redirector = await listen('127.0.0.1', (_request, response) => response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
    try {
      const fetcher = createMediaFetcher({ ...caps, allowLoopbackForTests: true });
      const fetched = await fetcher.fetch(`http://127.0.0.1:${target.port}/ok.png`, 'image');
      assert.equal(fetched.mime, 'image/png');
      await rejectsWith(fetcher.fetch(`http://127.0.0.1:${redirector.port}/go`, 'image'), 'blocked_address');
      await rejectsWith(fetcher.fetch('http://10.0.0.1/a.png', 'image'), 'blocked_address');
      await rejectsWith(fetcher.fetch('http://[fe80::1]/a.png', 'image'), 'blocked_address');
    } finally {
      redirector.server.close();
    }
  });
});

describe('media fetcher: caps, types and data: URLs', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    server = await listen('127.0.0.1', (request, response) => {
      if (request.url === '/big') return response.end(Buffer.alloc(5000, 1));
      if (request.url === '/big-chunked') {
        response.write(Buffer.alloc(600, 1));
        return response.end(Buffer.alloc(600, 1));
      }
      if (request.url === '/slow') return void setTimeout(() => response.end(PNG_HEAD), 3000);
      if (request.url === '/html-as-png') return response.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><p>hi</p>');
      if (request.url === '/missing') return response.writeHead(404).end('gone');
      response.end(PNG_HEAD);
    });
  });
  after(() => {
    server.server.closeAllConnections();
    server.server.close();
  });
  const fetcher = () => createMediaFetcher({ ...caps, allowLoopbackForTests: true });
  const at = (path: string) => `http://127.0.0.1:${server.port}${path}`;

  test('bodies over the byte cap are refused, declared or counted', async () => {
    await rejectsWith(fetcher().fetch(at('/big'), 'image'), 'too_large');
    await rejectsWith(fetcher().fetch(at('/big-chunked'), 'image'), 'too_large');
  });

  test('a server slower than the time cap is a timeout', async () => {
    const started = Date.now();
    await rejectsWith(fetcher().fetch(at('/slow'), 'image'), 'timed_out');
    assert.ok(Date.now() - started < 2500);
  });

  test('the type comes from the bytes, not the header; HTTP errors and closed ports are named', async () => {
    assert.equal((await fetcher().fetch(at('/html-as-png'), 'image')).mime, 'text/html');
    await rejectsWith(fetcher().fetch(at('/missing'), 'image'), 'http_error');
    const closed = await listen('127.0.0.1', () => {});
    closed.server.close();
    await rejectsWith(fetcher().fetch(`http://127.0.0.1:${closed.port}/x`, 'image'), 'unreachable');
  });

  test('data: URLs are decoded in place, within the cap', async () => {
    const fetched = await fetcher().fetch(`data:image/png;base64,${PNG_HEAD.toString('base64')}`, 'image');
    assert.equal(fetched.mime, 'image/png');
    assert.deepEqual(fetched.bytes, PNG_HEAD);
    await rejectsWith(fetcher().fetch(`data:image/png;base64,${Buffer.alloc(2000).toString('base64')}`, 'image'), 'too_large');
    await rejectsWith(fetcher().fetch('data:image/png,rawtext', 'image'), 'bad_url');
    await rejectsWith(fetcher().fetch('data:image/png;base64,@@@@', 'image'), 'bad_url');
  });
});
