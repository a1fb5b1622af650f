import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startTestServer, type TestServer } from './helpers.ts';
import { dataUrl, startFixtureServer, textImage } from './support/media-fixtures.ts';
import { parseMultipart, startFakeBackend, type FakeBackend } from '../src/media/fake-backends.ts';
import { FRAME_TEXT, spokenWav, testVideo } from '../src/media/test-media.ts';
import { scenePng } from '../src/media/test-images.ts';

type Label = { id: string; probability: number; flagged: boolean };
type Result = { id: string; flagged: boolean; probability: number; labels?: Label[]; flagged_fields?: string[]; matches?: Array<{ match: string }>; data?: any };
type Body = { policies: Result[]; errors?: Array<{ id: string; message: string }>; meta: { status: string }; recommendation: { action: string; reason_codes: string[] } };

const SPOKEN_INSULT = 'you are a pathetic idiot and everyone knows it';

/**
 * Video, audio, web pages, hash lists and the vision backend through POST /v1/moderate. The
 * transcription and vision backends are a fake speaking their real protocols on a local port (no
 * speech or vision model installs offline); ffmpeg, OCR, nsfwjs and the hash lists are the real ones.
 */
describe('media kinds through the pipeline: video, audio, web pages, hash lists, vision backend', () => {
  let t: TestServer;
  let backend: FakeBackend;
  let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
  const transcribed: Array<{ sampleRate: number }> = [];
  let gore = 0;

  before(async () => {
    backend = await startFakeBackend((request) => {
      if (request.url === '/v1/audio/transcriptions') {
        const parts = parseMultipart(request.body, String(request.headers['content-type']));
        const file = parts.find((p) => p.name === 'file')!;
        assert.equal(file.data.subarray(0, 4).toString('ascii'), 'RIFF');
        transcribed.push({ sampleRate: file.data.readUInt32LE(24) });
        return { json: { text: SPOKEN_INSULT } };
      }
      if (request.url === '/v1/chat/completions') {
        const body = JSON.parse(request.body.toString('utf8'));
        const system = body.messages.find((m: { role: string }) => m.role === 'system').content as string;
        const labels = [...system.matchAll(/^- (\w+):/gm)].map((m) => m[1]!);
        const scores = Object.fromEntries(labels.map((label) => [label, label === 'gore' ? gore : 0.02]));
        return { json: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(scores) }, finish_reason: 'stop' }] } };
      }
      return { status: 404, json: { error: { message: 'no such route' } } };
    });
    const insultImage = await textImage(['you are a pathetic idiot']);
    const page = `<!doctype html><html><head><title>Community prize draw</title></head><body>
      <nav><a href="/">Home</a> <a href="/news">News</a> <a href="/shop">Shop</a> <a href="/login">Log in</a></nav>
      <aside>Related: <a href="/a">Ten garden tips</a> <a href="/b">Weekend markets</a></aside>
      <article><h1>Community prize draw</h1>
        <p>Our neighbourhood association runs its yearly draw this month, and the committee thanks every volunteer.</p>
        <p>Congratulations, your number was picked! To release the prize, send a 50 dollar handling fee by gift card and
        message our agent on WhatsApp at +1 415 555 0134 today, before the offer expires.</p>
        <p>Tickets are on sale at the library desk every Saturday morning until the end of the month.</p>
        <img src="/page-meme.png" alt="">
      </article>
      <footer>Copyright the association. <a href="/privacy">Privacy</a></footer></body></html>`;
    fixtures = await startFixtureServer({
      '/clip.mp4': { headers: { 'content-type': 'video/mp4' }, body: await testVideo() },
      '/voice.wav': { headers: { 'content-type': 'audio/wav' }, body: await spokenWav() },
      '/article.html': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: page },
      '/page-meme.png': { headers: { 'content-type': 'image/png' }, body: insultImage },
      '/not-a-video.mp4': { headers: { 'content-type': 'video/mp4' }, body: insultImage },
    });
    t = await startTestServer({
      MEDIA_ALLOW_LOOPBACK_FOR_TESTS: 'true',
      BODY_LIMIT_BYTES: '8000000',
      MEDIA_VIDEO_MAX_FRAMES: '16',
      TRANSCRIPTION_BACKEND_URL: backend.url,
      TRANSCRIPTION_BACKEND_TRUSTED: 'true',
      VISION_BACKEND_URL: backend.url,
      VISION_BACKEND_TRUSTED: 'true',
    });
  });
  after(async () => {
    await t.close();
    await fixtures.close();
    await backend.close();
  });

  const moderate = async (content: unknown, policies?: unknown[]): Promise<Body> => {
    const response = await t.request('POST', '/v1/moderate', { body: { content, ...(policies ? { policies } : {}), doNotStore: true } });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as Body;
  };
  const policy = (body: Body, id: string) => body.policies.find((p) => p.id === id);

  test('video: frames through the image stage (text on a frame read), the audio track transcribed and moderated, per field', async () => {
    const before = transcribed.length;
    const body = await moderate({ type: 'object', data: { title: { type: 'text', text: 'Our trip' }, clip: { type: 'video', url: `${fixtures.url}/clip.mp4` } } });
    assert.equal(transcribed.length, before + 1);
    assert.equal(transcribed.at(-1)!.sampleRate, 16_000);
    assert.deepEqual(policy(body, 'toxicity')!.flagged_fields, ['clip'], JSON.stringify(body));
    const field = policy(body, 'image')!.data.fields.find((f: { field: string }) => f.field === 'clip');
    assert.equal(field.kind, 'video');
    assert.ok(field.images >= 2, `frames: ${field.images}`);
    assert.ok(field.text.some((line: string) => line.replace(/\s/g, '') === FRAME_TEXT.replace(/\s/g, '')), `read: ${JSON.stringify(field.text)}`);
    assert.deepEqual(field.flagged_timestamps_ms, []);
    assert.equal(body.errors?.some((e) => e.id === 'video_analysis' || e.id === 'audio_analysis') ?? false, false, JSON.stringify(body.errors));
    assert.notDeepEqual(body.recommendation.reason_codes, ['media_not_analysed']);
  });

  test('a video field holding an image is refused as not a video', async () => {
    const body = await moderate({ type: 'video', url: `${fixtures.url}/not-a-video.mp4` });
    assert.match(body.errors!.find((e) => e.id === 'video_analysis')!.message, /not a video.*\(wrong_type\)/);
    assert.deepEqual(body.recommendation, { action: 'review', reason_codes: ['media_not_analysed'] });
  });

  test('audio: converted to 16 kHz mono, transcribed by the backend, the transcript through the text policies', async () => {
    const body = await moderate({ type: 'audio', url: `${fixtures.url}/voice.wav` });
    assert.equal(policy(body, 'toxicity')!.flagged, true, JSON.stringify(body));
    assert.equal(body.errors?.some((e) => e.id === "audio_analysis") ?? false, false);
    assert.equal(transcribed.at(-1)!.sampleRate, 16_000);
  });

  test('web page: title and main text through the text policies, its image through the image stage', async () => {
    const body = await moderate({ type: 'url', url: `${fixtures.url}/article.html` }, [{ id: 'toxicity' }, { id: 'pii', entities: { phone: { enable: true, flag: true } } }]);
    const pii = policy(body, 'pii')!;
    assert.equal(pii.flagged, true, JSON.stringify(body));
    assert.match(pii.matches![0]!.match, /415 555 0134/);
    // the insult is only in the page's image: read by OCR
    assert.equal(policy(body, 'toxicity')!.flagged, true);
    const field = policy(body, 'image')!.data.fields[0];
    assert.equal(field.kind, 'url');
    assert.equal(field.images, 1);
    assert.ok(fixtures.hits.includes('/page-meme.png'));
  });

  test('hash lists: a resized, re-encoded, slightly cropped copy of a listed picture is flagged with the list id', async () => {
    const original = await scenePng(7);
    const created = await t.request('POST', '/v1/image-hashlist', { body: { name: 'known scams', key: 'scams' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const added = await t.request('POST', `/v1/image-hashlist/${created.body.id}/hashes`, { body: { images: [{ data: dataUrl(original) }] } });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const meta = await sharp(original).metadata();
    const copy = await sharp(original)
      .extract({ left: 10, top: 8, width: meta.width! - 20, height: meta.height! - 16 })
      .resize(Math.round(meta.width! * 0.6))
      .jpeg({ quality: 60 })
      .toBuffer();
    const body = await moderate({ type: 'object', data: { caption: { type: 'text', text: 'look at this' }, photo: { type: 'image', url: dataUrl(copy, 'image/jpeg') } } });
    const listed = policy(body, 'image_hash_list')!;
    assert.equal(listed.flagged, true, JSON.stringify(body.policies));
    assert.deepEqual(listed.labels!.map((l) => l.id), [created.body.id]);
    assert.deepEqual(listed.flagged_fields, ['photo']);
    assert.equal(listed.data.matches[0].field, 'photo');
    assert.notEqual(body.recommendation.action, 'allow');

    const unrelated = await moderate({ type: 'image', url: dataUrl(await textImage(['a different picture altogether'])) });
    assert.equal(policy(unrelated, 'image_hash_list'), undefined);
  });

  test('vision backend configured: its labels join the image result and nothing is reported as not covered', async () => {
    gore = 0.93;
    try {
      const body = await moderate({ type: 'image', url: dataUrl(await scenePng(3)) });
      const labels = policy(body, 'image')!.labels!;
      assert.deepEqual(labels.find((l) => l.id === 'gore'), { id: 'gore', probability: 0.93, flagged: true });
      for (const id of ['violence', 'weapon', 'drugs', 'hate']) assert.ok(labels.some((l) => l.id === id), id);
      assert.equal(body.errors?.some((e) => e.id === 'image_labels_not_covered') ?? false, false);
      assert.equal(policy(body, 'image')!.flagged, true);

      // the `image` entry of the policies sets the labels' threshold and flag, like any policy's
      const picture = { type: 'image', url: dataUrl(await scenePng(3)) };
      const higher = await moderate(picture, [{ id: 'image', threshold: 0.95 }]);
      assert.deepEqual(policy(higher, 'image')!.labels!.find((l) => l.id === 'gore'), { id: 'gore', probability: 0.93, flagged: false });
      const observed = await moderate(picture, [{ id: 'image', flag: false }, { id: 'toxicity' }]);
      assert.equal(policy(observed, 'image')!.flagged, false);
      assert.equal(policy(observed, 'image')!.probability, 0.93);
      assert.equal(observed.recommendation.action, 'allow');
      const refused = await t.request('POST', '/v1/moderate', { body: { content: picture, policies: [{ id: 'image', surprise: 1 }] } });
      assert.equal(refused.status, 400);
      const channel = await t.request('POST', '/v1/channels', { body: { key: 'strict-images', name: 'Strict images', policies: [{ id: 'image', threshold: 0.3 }], alwaysReject: ['image'] } });
      assert.equal(channel.status, 201, JSON.stringify(channel.body));
      const rejected = (await t.request('POST', '/v1/moderate', { body: { content: picture, channel: 'strict-images', doNotStore: true } })).body as Body;
      assert.deepEqual(rejected.recommendation, { action: 'reject', reason_codes: ['severity_reject'] });
    } finally {
      gore = 0;
    }
  });
});

describe('media kinds without their backends', () => {
  let t: TestServer;
  let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
  before(async () => {
    fixtures = await startFixtureServer({ '/voice.wav': { headers: { 'content-type': 'audio/wav' }, body: await spokenWav() } });
    t = await startTestServer({ MEDIA_ALLOW_LOOPBACK_FOR_TESTS: 'true', MEDIA_WORKERS: '0' });
  });
  after(async () => {
    await t.close();
    await fixtures.close();
  });

  test('audio without a transcription backend is not analysed (never clean) and goes to review', async () => {
    const response = await t.request('POST', '/v1/moderate', { body: { content: { type: 'audio', url: `${fixtures.url}/voice.wav` }, doNotStore: true } });
    const body = response.body as Body;
    assert.match(body.errors!.find((e) => e.id === 'audio_analysis')!.message, /TRANSCRIPTION_BACKEND_URL/);
    assert.equal(body.meta.status, 'partial_success');
    assert.deepEqual(body.recommendation, { action: 'review', reason_codes: ['media_not_analysed'] });
  });
});
