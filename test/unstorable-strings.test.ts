import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countRows, startTestServer, type TestServer } from './helpers.ts';

// PostgreSQL text cannot hold U+0000 and JSON columns refuse unpaired surrogates: before the
// check, such strings were accepted and then failed in the store with a 500.
describe('strings that cannot be stored', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('submitted text with U+0000 or a cut emoji is moderated (flagged illegal) and stored, with U+FFFD in their place', async () => {
    const cut = 'great party 🎉🎉'.slice(0, -1); // a client that cut the message inside the last emoji
    const submissions = [
      { contentId: 'nul-text', content: { type: 'text', text: 'hello\u0000world' } },
      { contentId: 'cut-emoji', content: { type: 'text', text: cut } },
      { contentId: 'cut-field', content: { type: 'object', data: { title: { type: 'text', text: cut }, body: { type: 'text', text: 'fine' } } } },
    ];
    for (const body of submissions) {
      const first = await t.request('POST', '/v1/moderate', { body });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.content.id, body.contentId);
      assert.equal(first.body.evaluation.unicode_spoofed, true, 'the analysis saw the character');
      // Stored: a resubmission updates the same item instead of failing.
      const again = await t.request('POST', '/v1/moderate', { body });
      assert.equal(again.status, 200);
      assert.equal(again.body.content.id, body.contentId);
    }
  });

  test('escaped surrogate pairs (as some JSON encoders write every emoji) pass unchanged', async () => {
    const r = await t.request('POST', '/v1/moderate', { rawBody: '{"content":{"type":"text","text":"party \\ud83c\\udf89"},"contentId":"escaped-pair","metadata":{"mood":"\\ud83d\\ude00"}}' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.content.modified, null, 'the text was not changed');
  });

  test('any other string, or a key, that cannot be stored is a 400 naming it, and nothing is written', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/v1/moderate', { content: { type: 'text', text: 'hi' }, contentId: 'bad-meta', metadata: { note: 'x\u0000' } }, '/metadata/note'],
      ['POST', '/v1/moderate', { content: { type: 'text', text: 'hi' }, authorId: 'user\ud800' }, '/authorId'],
      ['POST', '/v1/moderate', { content: { type: 'text', text: 'hi' }, contentId: 'id\u0000' }, '/contentId'],
      ['POST', '/v1/moderate', { content: { type: 'object', data: { 'ti\u0000tle': { type: 'text', text: 'hi' } } } }, '/content/data/ti\uFFFDtle'],
      ['POST', '/v1/authors', { external_id: 'nul-author', name: 'Ann\u0000' }, '/name'],
      ['POST', '/v1/channels', { key: 'nul-channel', name: 'chat\u0000' }, '/name'],
    ];
    for (const [method, path, body, pointer] of cases) {
      const r = await t.request(method, path, { body });
      assert.equal(r.status, 400, `${path} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'BAD_REQUEST');
      assert.equal(r.body.message, 'Strings must be well-formed Unicode without U+0000');
      assert.deepEqual(r.body.issues.map((i: { path: string }) => i.path), [pointer]);
    }
    assert.equal((await t.request('GET', '/v1/authors/nul-author')).status, 404);
    assert.equal((await t.request('GET', '/v1/channels/nul-channel')).status, 404);
    const resubmitted = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hi' }, contentId: 'bad-meta' } });
    assert.equal(resubmitted.status, 200);
  });

  test('a body nested more than 64 levels deep is a 400 on every route, so nothing too deep to read back is stored', async () => {
    const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    // Metadata 60 levels deep sits at 62 levels of the body: accepted and stored.
    const ok = await t.request('POST', '/v1/moderate', { rawBody: `{"content":{"type":"text","text":"hi"},"contentId":"deep-ok","metadata":{"m":${nested(60)}}}` });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const before = await Promise.all((['content_items', 'channels', 'authors'] as const).map((table) => countRows(t, table)));
    const tooDeep = [
      ['/v1/moderate', (levels: number) => `{"content":{"type":"text","text":"hi"},"contentId":"deep-${levels}","metadata":${nested(levels)}}`],
      ['/v1/moderate', (levels: number) => `{"content":{"type":"text","text":"hi"},"policies":[{"id":"toxicity","flag":true,"x":${nested(levels)}}]}`],
      // A channel's policy settings are free-form: 3,000 levels stored once made every later read of the embedded store's channels hang.
      ['/v1/channels', (levels: number) => `{"key":"deep-${levels}","name":"deep","policies":[{"id":"toxicity","flag":true,"x":${nested(levels)}}]}`],
      ['/v1/authors', (levels: number) => `{"external_id":"deep-${levels}","metadata":{"x":${nested(levels)}}}`],
    ] as const;
    for (const [path, body] of tooDeep) {
      for (const levels of [70, 3_000, 20_000]) {
        const r = await t.request('POST', path, { rawBody: body(levels) });
        assert.equal(r.status, 400, `${path} ${levels}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.message, 'The body nests objects and arrays more than 64 levels deep');
      }
    }
    // With a string to check as well, the depth is still what is reported.
    const r = await t.request('POST', '/v1/moderate', { rawBody: `{"content":{"type":"text","text":"hi"},"metadata":${'{"a":'.repeat(20_000)}"\\u0000"${'}'.repeat(20_000)}}` });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /more than 64 levels deep/);
    // Nothing of the refused bodies was written, and the channels still read.
    assert.deepEqual(await Promise.all((['content_items', 'channels', 'authors'] as const).map((table) => countRows(t, table))), before);
    assert.equal((await t.request('GET', '/v1/channels')).status, 200);
  });

  test('an encoded U+0000 in a path or query parameter is a 400', async () => {
    for (const path of ['/v1/authors/%00', '/v1/channels/a%00b', '/v1/authors?sortBy=%00']) {
      const r = await t.request('GET', path);
      assert.equal(r.status, 400, path);
      assert.equal(r.body.code, 'BAD_REQUEST');
      assert.match(r.body.message, /%00/);
    }
  });
});
