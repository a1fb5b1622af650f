import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countRows, startTestServer, type TestServer } from './helpers.ts';

describe('POST /v1/moderate', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ BODY_LIMIT_BYTES: '500000' });
  });
  after(() => t.close());

  const moderate = (body: unknown, key?: string) => t.request('POST', '/v1/moderate', { body, key });

  test('clean text: allowed, not flagged, stored', async () => {
    const before = await countRows(t, 'content_items');
    const r = await moderate({ content: { type: 'text', text: 'Have a lovely day, see you tomorrow!' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.evaluation.flagged, false);
    assert.equal(r.body.recommendation.action, 'allow');
    assert.deepEqual(r.body.recommendation.reason_codes, []);
    assert.equal(r.body.content.masked, false);
    assert.equal(r.body.content.modified, null);
    assert.equal(r.body.meta.status, 'success');
    assert.equal(r.body.errors, undefined);
    assert.match(r.headers.get('x-request-id') ?? '', /.+/);
    assert.equal(await countRows(t, 'content_items'), before + 1);
  });

  test('doNotStore writes nothing: no content row, no author row', async () => {
    const content = await countRows(t, 'content_items');
    const authors = await countRows(t, 'authors');
    const r = await moderate({ content: { type: 'text', text: 'fuck this' }, doNotStore: true, authorId: 'ghost', contentId: 'ghost-1' });
    assert.equal(r.status, 200);
    assert.equal(r.body.evaluation.flagged, true);
    assert.equal(r.body.content.id, 'ghost-1');
    assert.equal(r.body.author, null);
    assert.equal(await countRows(t, 'content_items'), content);
    assert.equal(await countRows(t, 'authors'), authors);
  });

  test('re-submitting a contentId updates the item instead of adding one', async () => {
    const first = await moderate({ content: { type: 'text', text: 'hello there' }, contentId: 'dup-1' });
    assert.equal(first.body.evaluation.flagged, false);
    const count = await countRows(t, 'content_items');
    const second = await moderate({ content: { type: 'text', text: 'fuck you' }, contentId: 'dup-1' });
    assert.equal(second.body.content.id, 'dup-1');
    assert.equal(await countRows(t, 'content_items'), count);
    const { rows } = await t.server.db.query<{ flagged: boolean; content: { text: string } }>(
      'SELECT flagged, content FROM content_items WHERE project_id = $1 AND external_id = $2',
      [t.projectId, 'dup-1'],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.flagged, true);
    assert.equal(rows[0]!.content.text, 'fuck you');
  });

  test('authorId creates the author once and returns it', async () => {
    const authors = await countRows(t, 'authors');
    const a = await moderate({ content: { type: 'text', text: 'one' }, authorId: 'author-x', timestamp: 1_700_000_000_000 });
    const b = await moderate({ content: { type: 'text', text: 'two' }, authorId: 'author-x' });
    assert.equal(a.body.author.id, b.body.author.id);
    assert.equal(a.body.author.external_id, 'author-x');
    assert.equal(await countRows(t, 'authors'), authors + 1);
    const { rows } = await t.server.db.query<{ first_seen: number }>('SELECT first_seen FROM authors WHERE id = $1', [a.body.author.id]);
    assert.equal(rows[0]!.first_seen, 1_700_000_000_000);
  });

  test('image content is accepted and reported as not analysed', async () => {
    const r = await moderate({ content: { type: 'image', url: 'https://example.com/cat.png' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.meta.status, 'partial_success');
    assert.equal(r.body.errors.length, 1);
    assert.equal(r.body.errors[0].id, 'image_analysis');
    assert.match(r.body.errors[0].message, /not analysed/);
  });

  test('media nothing analysed is sent to review, never allowed by default; a channel may choose allow', async () => {
    const image = { type: 'image', url: 'https://example.com/cat.png' };
    const byDefault = await moderate({ content: image, doNotStore: true });
    assert.equal(byDefault.body.recommendation.action, 'review');
    assert.deepEqual(byDefault.body.recommendation.reason_codes, ['media_not_analysed']);

    const inObject = await moderate({ content: { type: 'object', data: { title: { type: 'text', text: 'hello' }, picture: image } }, doNotStore: true });
    assert.equal(inObject.body.recommendation.action, 'review');
    assert.deepEqual(inObject.body.recommendation.reason_codes, ['media_not_analysed']);

    const created = await t.request('POST', '/v1/channels', { body: { key: 'media-allow', name: 'Media allowed', unanalysedMedia: 'allow' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.unanalysedMedia, 'allow');
    const allowed = await moderate({ content: image, channel: 'media-allow', doNotStore: true });
    assert.equal(allowed.body.recommendation.action, 'allow');
    assert.equal(allowed.body.meta.status, 'partial_success');

    const bad = await t.request('POST', '/v1/channels', { body: { key: 'media-bad', name: 'x', unanalysedMedia: 'maybe' } });
    assert.equal(bad.status, 400);

    // text alone is untouched by the setting
    const text = await moderate({ content: { type: 'text', text: 'Have a lovely day' }, doNotStore: true });
    assert.equal(text.body.recommendation.action, 'allow');
  });

  test('a per-request policies override replaces the channel policies', async () => {
    const off = await moderate({ content: { type: 'text', text: 'fuck' }, policies: [{ id: 'profanity', flag: false }] });
    assert.equal(off.status, 200);
    const profanity = off.body.policies.find((p: { id: string }) => p.id === 'profanity');
    assert.ok(profanity.probability > 0.5);
    assert.equal(profanity.flagged, false);
    assert.equal(off.body.evaluation.flagged, false);

    const strict = await moderate({ content: { type: 'text', text: 'fuck' }, policies: [{ id: 'profanity', flag: true, threshold: 0.99 }] });
    assert.equal(strict.body.policies[0].flagged, false);

    const unknown = await moderate({ content: { type: 'text', text: 'x' }, policies: [{ id: 'nonexistent', flag: true }] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.issues[0].path, '/policies/0/id');
  });

  describe('bad input gets a clear 4xx and changes nothing', () => {
    const cases: Array<[string, unknown, number]> = [
      ['wrong content type tag', { content: { type: 'txt', text: 'x' } }, 400],
      ['text is a number (no coercion)', { content: { type: 'text', text: 42 } }, 400],
      ['doNotStore is a string', { content: { type: 'text', text: 'x' }, doNotStore: 'true' }, 400],
      ['unknown top-level field', { content: { type: 'text', text: 'x' }, surprise: 1 }, 400],
      ['missing content', { channel: 'default' }, 400],
      ['bad metaType', { content: { type: 'text', text: 'x' }, metaType: 'tweet' }, 400],
      ['image URL is not a URL', { content: { type: 'image', url: 'not a url' } }, 400],
      ['text over 100,000 characters', { content: { type: 'text', text: 'a'.repeat(100_001) } }, 400],
      ['empty object content', { content: { type: 'object', data: {} } }, 400],
    ];
    for (const [name, body, status] of cases) {
      test(name, async () => {
        const before = await countRows(t, 'content_items');
        const r = await moderate(body);
        assert.equal(r.status, status);
        assert.equal(r.body.code, 'BAD_REQUEST');
        assert.equal(typeof r.body.message, 'string');
        assert.ok(Array.isArray(r.body.issues) && r.body.issues.length > 0);
        assert.equal(await countRows(t, 'content_items'), before);
      });
    }

    test('malformed JSON gives 400', async () => {
      const before = await countRows(t, 'content_items');
      const r = await t.request('POST', '/v1/moderate', { rawBody: '{"content": {"type": "text", "text": "x"' });
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'BAD_REQUEST');
      assert.deepEqual(Object.keys(r.body).sort(), ['code', 'issues', 'message']);
      assert.equal(await countRows(t, 'content_items'), before);
    });

    test('a body over the limit gives 413', async () => {
      const before = await countRows(t, 'content_items');
      const r = await moderate({ content: { type: 'text', text: 'a'.repeat(600_000) } });
      assert.equal(r.status, 413);
      assert.equal(r.body.code, 'PAYLOAD_TOO_LARGE');
      assert.equal(await countRows(t, 'content_items'), before);
    });
  });
});
