import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { ensureDashboardBuilt } from '../../dashboard/build.mjs';
import { startTestServer, type TestServer } from '../helpers.ts';

describe('the dashboard is served by the API process', () => {
  let t: TestServer;
  let script: string;
  before(async () => {
    await ensureDashboardBuilt({ quiet: true });
    t = await startTestServer();
    script = readdirSync(new URL('../../dashboard/dist/assets/', import.meta.url)).find((name) => name.endsWith('.js'))!;
  });
  after(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers });

  test('/ answers the page, never cached, with a strict content security policy', async () => {
    const response = await get('/', { accept: 'text/html' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^text\/html/);
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    assert.match(response.headers.get('content-security-policy')!, /script-src 'self'/);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    const html = await response.text();
    assert.match(html, new RegExp(`/assets/${script.replace('.', '\\.')}`));
  });

  test('hashed assets are cached for a year and sent gzipped when asked', async () => {
    const response = await get(`/assets/${script}`, { 'accept-encoding': 'gzip' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(response.headers.get('content-type')!, /javascript/);
    assert.equal(response.headers.get('content-encoding'), 'gzip');
    assert.ok((await response.text()).length > 1000, 'fetch decodes the gzipped body');
  });

  test('a dashboard route loaded directly gets the page (single-page fallback)', async () => {
    for (const path of ['/queues', '/authors/alice%20b', '/queues/q1/items/i1?x=1', '/sign-in']) {
      const response = await get(path, { accept: 'text/html,application/xhtml+xml' });
      assert.equal(response.status, 200, path);
      assert.match(await response.text(), /<div id="root">/, path);
    }
  });

  test('the API keeps its JSON 404s, and a missing asset is not answered with the page', async () => {
    for (const path of ['/v1/nope', '/v1', '/dashboard/api/nope', '/assets/missing-abc.js']) {
      const response = await get(path, { accept: 'text/html' });
      assert.equal(response.status, 404, path);
      assert.equal(((await response.json()) as { code: string }).code, 'NOT_FOUND', path);
    }
    const noHtml = await get('/queues', { accept: 'application/json' });
    assert.equal(noHtml.status, 404);
    const v1 = await t.request('GET', '/v1/authors');
    assert.equal(v1.status, 200, 'the API with a key works as before');
  });
});
