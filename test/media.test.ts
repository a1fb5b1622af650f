import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { dataUrl, pngBomb, plainImage, startFixtureServer, textImage } from './support/media-fixtures.ts';

type Label = { id: string; probability: number; flagged: boolean };
type Result = { id: string; flagged: boolean; probability: number; labels?: Label[]; flagged_fields?: string[]; matches?: Array<{ match: string }>; data?: any };
type Body = { policies: Result[]; errors?: Array<{ id: string; message: string }>; meta: { status: string }; recommendation: { action: string; reason_codes: string[] }; evaluation: { flagged: boolean } };

const INSULT = 'you are a pathetic idiot';
const PHONE = 'Call me at 415 555 0134';
const WORD = 'Buy zorblax pills today';

describe('media: images through the media stage (OCR, nudity model, failures)', () => {
  let t: TestServer;
  let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
  let insultPng: Buffer;
  before(async () => {
    t = await startTestServer({
      MEDIA_ALLOW_LOOPBACK_FOR_TESTS: 'true',
      BODY_LIMIT_BYTES: '4000000',
      MEDIA_MAX_IMAGE_BYTES: '300000',
      MEDIA_IMAGE_FETCH_TIMEOUT_MS: '1500',
      MEDIA_MAX_IMAGE_PIXELS: '30000000',
    });
    insultPng = await textImage([INSULT]);
    const phoneJpeg = await textImage(['Cheap flat near the station', PHONE], { format: 'jpeg' });
    const clean = await plainImage();
    fixtures = await startFixtureServer({
      '/phone.jpg': { headers: { 'content-type': 'image/jpeg' }, body: phoneJpeg },
      '/clean.jpg': { headers: { 'content-type': 'image/jpeg' }, body: clean },
      '/truncated.png': { headers: { 'content-type': 'image/png' }, body: insultPng.subarray(0, Math.floor(insultPng.length / 3)) },
      '/empty.png': { headers: { 'content-type': 'image/png' }, body: Buffer.alloc(0) },
      '/page-as-png.png': { headers: { 'content-type': 'image/png' }, body: '<!doctype html><html><body>not a picture</body></html>' },
      '/huge.png': { headers: { 'content-type': 'image/png' }, body: Buffer.concat([insultPng, Buffer.alloc(400_000)]) },
      '/slow.png': { headers: { 'content-type': 'image/png' }, body: insultPng, delayMs: 4000 },
      '/stalled.png': { headers: { 'content-type': 'image/png' }, body: insultPng, stallBodyMs: 4000 },
      '/bomb.png': { headers: { 'content-type': 'image/png' }, body: pngBomb() },
      '/redirect-private': { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      '/redirect-ok': { status: 301, headers: { location: '/phone.jpg' } },
    });
  });
  after(async () => {
    await fixtures.close();
    await t.close();
  });

  const moderate = async (content: unknown, policies?: unknown[]): Promise<Body> => {
    const response = await t.request('POST', '/v1/moderate', { body: { content, ...(policies ? { policies } : {}), doNotStore: true } });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as Body;
  };
  const policy = (body: Body, id: string) => body.policies.find((p) => p.id === id);
  const image = (url: string) => ({ type: 'image', url });

  test('an insult written on an image (data: URL) is read and flagged by the text policies', async () => {
    const body = await moderate(image(dataUrl(insultPng)));
    const toxicity = policy(body, 'toxicity')!;
    assert.equal(toxicity.flagged, true, JSON.stringify(body.policies));
    const img = policy(body, 'image')!;
    assert.deepEqual(img.data.fields[0].text, [INSULT]);
    assert.equal(img.labels!.find((l) => l.id === 'text')!.probability, 1);
    assert.notEqual(body.recommendation.action, 'allow');
  });

  test('a phone number on an image fetched over http (redirected) is found by the pii matcher', async () => {
    const body = await moderate(image(`${fixtures.url}/redirect-ok`), [{ id: 'pii', entities: { phone: { enable: true, flag: true } } }]);
    const pii = policy(body, 'pii')!;
    assert.equal(pii.flagged, true, JSON.stringify(body));
    assert.match(pii.matches![0]!.match.replace(/\s/g, ""), /4155550134/);
  });

  test("a word of the project's wordlist on an image is matched", async () => {
    const created = await t.request('POST', '/v1/wordlist', { body: { name: 'pills', key: 'pills', words: ['zorblax'] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const body = await moderate(image(dataUrl(await textImage([WORD])) ), [{ id: 'wordlist_pills' }]);
    assert.equal(policy(body, 'wordlist_pills')!.flagged, true, JSON.stringify(body));
  });

  test('object content: each media field is judged on its own, with flagged_fields naming the image field', async () => {
    const body = await moderate({
      type: 'object',
      data: {
        title: { type: 'text', text: 'My holiday pictures' },
        cover: image(`${fixtures.url}/clean.jpg`),
        meme: image(dataUrl(insultPng)),
      },
    });
    assert.deepEqual(policy(body, 'toxicity')!.flagged_fields, ['meme']);
    const img = policy(body, 'image')!;
    assert.deepEqual(img.flagged_fields, []);
    assert.deepEqual(img.data.fields.map((f: { field: string }) => f.field).sort(), ['cover', 'meme']);
    assert.equal(body.evaluation.flagged, true);
  });

  test('a clean picture is analysed and allowed; the labels no offline model covers are said to be missing', async () => {
    const body = await moderate(image(`${fixtures.url}/clean.jpg`));
    const img = policy(body, 'image')!;
    assert.equal(img.flagged, false);
    assert.ok(img.labels!.find((l) => l.id === 'nudity')!.probability < 0.5);
    assert.ok(img.labels!.some((l) => l.id === 'suggestive'));
    assert.equal(img.labels!.some((l) => l.id === 'violence'), false, 'an uncovered label is absent, not 0');
    const notCovered = body.errors!.find((e) => e.id === 'image_labels_not_covered')!;
    assert.match(notCovered.message, /violence, weapon, gore, drugs, hate/);
    assert.equal(body.meta.status, 'partial_success');
    assert.equal(body.recommendation.action, 'allow');
  });

  const failures: Array<[string, string, RegExp]> = [
    ['a truncated image', '/truncated.png', /cannot be decoded.*\(undecodable\)/],
    ['a 0-byte body', '/empty.png', /empty.*\(undecodable\)/],
    ['a web page served as image/png', '/page-as-png.png', /not an image.*\(wrong_type\)/],
    ['a file over the byte cap', '/huge.png', /limit.*\(too_large\)/],
    ['a server slower than the time cap', '/slow.png', /within 1500 ms \(timed_out\)/],
    ['a body that stalls', '/stalled.png', /within 1500 ms \(timed_out\)/],
    ['a decompression bomb (100,000² pixels declared in a few hundred bytes)', '/bomb.png', /100000×100000.*\(too_large\)/],
    ['a redirect to the metadata address', '/redirect-private', /not a public address \(blocked_address\)/],
    ['a missing file', '/nothing-here.png', /HTTP 404 .*\(http_error\)/],
  ];
  for (const [name, path, message] of failures) {
    test(`${name}: a clear errors entry, partial_success, sent to review`, async () => {
      const before = process.memoryUsage().rss;
      const body = await moderate(image(`${fixtures.url}${path}`));
      const entry = body.errors!.find((e) => e.id === 'image_analysis');
      assert.ok(entry, JSON.stringify(body.errors));
      assert.match(entry.message, /^image was not analysed: /);
      assert.match(entry.message, message);
      assert.equal(body.meta.status, 'partial_success');
      assert.equal(policy(body, 'image'), undefined, 'no image scores for an image nothing looked at');
      assert.deepEqual(body.recommendation, { action: 'review', reason_codes: ['media_not_analysed'] });
      assert.ok(process.memoryUsage().rss - before < 200 * 1_048_576, 'memory stays bounded');
    });
  }

  test('the server is unharmed afterwards: text and images still work', async () => {
    const text = await moderate({ type: 'text', text: 'Have a lovely day' });
    assert.equal(text.recommendation.action, 'allow');
    const body = await moderate(image(`${fixtures.url}/phone.jpg`));
    assert.ok(policy(body, 'image'));
  });

  test('a stored item keeps the verdict but not the inline image bytes', async () => {
    const response = await t.request('POST', '/v1/moderate', {
      body: { content: { type: 'object', data: { caption: { type: 'text', text: 'hi' }, meme: image(dataUrl(insultPng)) } }, contentId: 'inline-1' },
    });
    assert.equal(response.status, 200);
    const { rows } = await t.server.db.query<{ content: { data: { meme: { url: string } } }; flagged: boolean }>(
      'SELECT content, flagged FROM content_items WHERE project_id = $1 AND external_id = $2',
      [t.projectId, 'inline-1'],
    );
    assert.equal(rows[0]!.content.data.meme.url, 'data:image/png;base64,');
    assert.equal(rows[0]!.flagged, true);
  });

  test('URLs the schema refuses are a 400 before anything is fetched', async () => {
    for (const url of ['ftp://example.com/a.png', 'javascript:alert(1)', 'data:text/plain,hello', 'data:image/png;base64']) {
      const response = await t.request('POST', '/v1/moderate', { body: { content: image(url) } });
      assert.equal(response.status, 400, url);
    }
  });
});

describe('media: loopback refused without the test setting', () => {
  let t: TestServer;
  let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
  before(async () => {
    t = await startTestServer({ MEDIA_WORKERS: '0' });
    fixtures = await startFixtureServer({ '/a.png': { body: await textImage(['x']) } });
  });
  after(async () => {
    await fixtures.close();
    await t.close();
  });

  test('every loopback form is refused and the local server never sees a request', async () => {
    // Image analysis off (MEDIA_WORKERS=0): a URL is still vetted the same way (hash lists, pages), and the answer says why nothing ran.
    const body = (await t.request('POST', '/v1/moderate', { body: { content: { type: 'image', url: `${fixtures.url}/a.png` }, doNotStore: true } })).body as Body;
    assert.match(body.errors![0]!.message, /MEDIA_WORKERS=0/);
    assert.deepEqual(body.recommendation, { action: 'review', reason_codes: ['media_not_analysed'] });
    assert.deepEqual(fixtures.hits, []);
  });
});

describe('media: a full image queue answers 503 and never blocks text', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ MEDIA_WORKERS: '1', MEDIA_QUEUE: '1', BODY_LIMIT_BYTES: '4000000' });
  });
  after(() => t.close());

  test('requests past the bounded queue get 503 SERVICE_UNAVAILABLE with Retry-After; text-only requests are answered meanwhile', async () => {
    const picture = dataUrl(await textImage(['queue test line one', 'queue test line two']));
    const images = Array.from({ length: 5 }, () => t.request('POST', '/v1/moderate', { body: { content: { type: 'image', url: picture }, doNotStore: true } }));
    const textStarted = performance.now();
    const text = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'Have a lovely day' }, doNotStore: true } });
    const textMs = performance.now() - textStarted;
    const answers = await Promise.all(images);
    assert.equal(text.status, 200);
    assert.ok(textMs < 2000, `text waited ${textMs} ms behind images`);
    const refused = answers.filter((a) => a.status === 503);
    const served = answers.filter((a) => a.status === 200);
    assert.ok(served.length >= 1, 'the first image is analysed');
    assert.ok(refused.length >= 1, `statuses: ${answers.map((a) => a.status)}`);
    assert.equal(refused[0]!.body.code, 'SERVICE_UNAVAILABLE');
    assert.match(refused[0]!.headers.get('retry-after') ?? '', /^\d+$/);
    assert.ok(served.every((a) => a.body.policies.some((p: { id: string }) => p.id === 'image')));
    // once the queue drains, images are accepted again
    const later = await t.request('POST', '/v1/moderate', { body: { content: { type: 'image', url: picture }, doNotStore: true } });
    assert.equal(later.status, 200);
  });
});
