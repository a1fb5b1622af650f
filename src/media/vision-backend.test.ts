import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { MediaBackendConfig } from '../config.ts';
import { startFakeBackend, type FakeBackend, type RecordedRequest } from './fake-backends.ts';
import { MediaError, type DecodedImage } from './types.ts';
import { createVisionBackend, parseVisionAnswer } from './vision-backend.ts';

/**
 * A chat-completions server that looks at the image it is sent: it decodes the data: URL and
 * scores "gore" by the share of strongly red pixels, everything else 0.05. The model name picks
 * a failure to play.
 */
async function visionServer(request: RecordedRequest) {
  if (request.url !== '/v1/chat/completions') return { status: 404, json: { error: { message: 'no such route' } } };
  const body = JSON.parse(request.body.toString('utf8'));
  const system = body.messages.find((m: { role: string }) => m.role === 'system').content as string;
  const user = body.messages.find((m: { role: string }) => m.role === 'user').content as Array<{ type: string; image_url?: { url: string } }>;
  const url = user.find((part) => part.type === 'image_url')!.image_url!.url;
  const match = /^data:image\/jpeg;base64,(.+)$/.exec(url);
  if (!match) return { status: 400, json: { error: { message: 'image must be a JPEG data URL' } } };
  const { data, info } = await sharp(Buffer.from(match[1]!, 'base64')).raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 150 && data[i + 1]! < 80 && data[i + 2]! < 80) red++;
  const labels = [...system.matchAll(/^- (\w+):/gm)].map((m) => m[1]!);
  const scores = Object.fromEntries(labels.map((label) => [label, label === 'gore' ? Math.round((red / (info.width * info.height)) * 100) / 100 : 0.05]));
  const content =
    body.model === 'fenced' ? `Here you go:\n\`\`\`json\n${JSON.stringify({ labels: scores })}\n\`\`\`` :
    body.model === 'percent' ? JSON.stringify(Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, v * 100]))) :
    body.model === 'lazy' ? JSON.stringify({ gore: 0.5 }) :
    body.model === 'chatty' ? 'I cannot help with that.' :
    JSON.stringify(scores);
  if (body.model === 'broken') return { status: 503, text: 'model loading' };
  if (body.model === 'slow') return { json: {}, delayMs: 2_000 };
  return { json: { id: 'chatcmpl-test', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] } };
}

async function decoded(colour: string, width = 1600, height = 900): Promise<DecodedImage> {
  const { data, info } = await sharp({ create: { width, height, channels: 3, background: colour } })
    .resize(1024, 1024, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const preview = { data, width: info.width, height: info.height, channels: 3 as const };
  return { width, height, format: 'png', preview, classifierInput: preview };
}

describe('vision backend (OpenAI-compatible chat completions with image input)', () => {
  let server: FakeBackend;
  const backend = (model = 'vision-test', timeoutMs = 10_000): MediaBackendConfig => ({ url: server.url, apiKey: 'sk-vision', model, timeoutMs, trusted: true });
  before(async () => {
    server = await startFakeBackend(visionServer);
  });
  after(() => server.close());

  test('the image goes up as JPEG and each label comes back with its probability', async () => {
    const vision = createVisionBackend(backend());
    assert.deepEqual(vision.labels, ['violence', 'weapon', 'gore', 'drugs', 'hate']);
    const red = await vision.classify(await decoded('#d01010'));
    assert.deepEqual(red, [
      { id: 'violence', probability: 0.05 },
      { id: 'weapon', probability: 0.05 },
      { id: 'gore', probability: 1 },
      { id: 'drugs', probability: 0.05 },
      { id: 'hate', probability: 0.05 },
    ]);
    const blue = await vision.classify(await decoded('#1020d0'));
    assert.equal(blue.find((l) => l.id === 'gore')!.probability, 0);
    const sent = JSON.parse(server.requests.at(-1)!.body.toString('utf8'));
    assert.equal(sent.model, 'vision-test');
    assert.equal(server.requests.at(-1)!.headers.authorization, 'Bearer sk-vision');
    const jpeg = Buffer.from(sent.messages[1].content[1].image_url.url.split(',')[1], 'base64');
    const meta = await sharp(jpeg).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.equal(Math.max(meta.width!, meta.height!), 768);
  });

  test('answers in a code fence, nested or in percent are read; a subset of labels can be asked', async () => {
    const fenced = await createVisionBackend(backend('fenced'), { labels: ['gore', 'weapon'] }).classify(await decoded('#d01010'));
    assert.deepEqual(fenced, [{ id: 'gore', probability: 1 }, { id: 'weapon', probability: 0.05 }]);
    const percent = await createVisionBackend(backend('percent')).classify(await decoded('#d01010'));
    assert.equal(percent.find((l) => l.id === 'gore')!.probability, 1);
    assert.equal(percent.find((l) => l.id === 'hate')!.probability, 0.05);
  });

  test('no backend, missing labels, prose, errors and slowness are clear errors, never zeros', async () => {
    const image = await decoded('#d01010', 64, 64);
    const expect = (code: string, pattern: RegExp) => (error: unknown) => {
      assert.ok(error instanceof MediaError, String(error));
      assert.equal(error.code, code);
      assert.match(error.message, pattern);
      return true;
    };
    await assert.rejects(createVisionBackend(null).classify(image), expect('not_configured', /violence, weapon, gore, drugs, hate were not checked/));
    await assert.rejects(createVisionBackend(backend('lazy')).classify(image), expect('backend_failed', /lacks a score for violence, weapon, drugs, hate/));
    await assert.rejects(createVisionBackend(backend('chatty')).classify(image), expect('backend_failed', /did not answer with JSON/));
    await assert.rejects(createVisionBackend(backend('broken')).classify(image), expect('backend_failed', /HTTP 503: model loading/));
    await assert.rejects(createVisionBackend(backend('slow', 300)).classify(image), expect('timed_out', /300 ms/));
    assert.throws(() => parseVisionAnswer({ choices: [] }, ['gore']), expect('backend_failed', /no message content/));
  });
});
