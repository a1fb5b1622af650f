import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMediaStage, separateDigitRuns, type MediaParts } from './stage.ts';
import { sniffMime } from './sniff.ts';
import { MediaError, type DecodedImage, type FetchedMedia, type ImageLabel } from './types.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const MP4 = Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0]);
const HTML = Buffer.from('<!doctype html><title>x</title><p>hello</p>');
const raster = { data: new Uint8Array(3), width: 1, height: 1, channels: 3 as const };
const decoded: DecodedImage = { width: 10, height: 10, format: 'png', preview: raster, classifierInput: raster };

function parts(overrides: Partial<MediaParts> = {}, files: Record<string, Buffer | Error> = {}): MediaParts {
  return {
    fetcher: {
      async fetch(url): Promise<FetchedMedia> {
        const file = files[url];
        if (file instanceof Error) throw file;
        if (!file) throw new MediaError('http_error', 'HTTP 404');
        return { bytes: file, mime: sniffMime(file), finalUrl: url };
      },
    },
    decoder: { decode: async () => decoded },
    classifier: { labels: ['nudity', 'suggestive'], classify: async () => [{ id: 'nudity', probability: 0.1 }, { id: 'suggestive', probability: 0.2 }] },
    reader: { read: async () => ['hello there'] },
    pool: null,
    limits: { video: { maxFrames: 4, timeoutMs: 1000, maxSeconds: 60, ffmpegPath: 'ffmpeg' }, pageMaxImages: 1 },
    ...overrides,
  };
}

test('an image: labels, text read, analysed; uncovered labels named', async () => {
  const result = await createMediaStage(parts({}, { 'https://a/x.png': PNG })).run('p', [{ key: null, type: 'image', url: 'https://a/x.png' }]);
  const [field] = result.fields;
  assert.equal(field!.analysed, true);
  assert.deepEqual(field!.labels, [{ id: 'nudity', probability: 0.1 }, { id: 'suggestive', probability: 0.2 }]);
  assert.deepEqual(field!.texts, [{ source: 'image_text', text: 'hello there' }]);
  assert.deepEqual(result.notCovered, ['violence', 'weapon', 'gore', 'drugs', 'hate']);
});

test('the classifier failing leaves the image not analysed; OCR failing is noted but the image counts', async () => {
  const failingClassifier = parts({ classifier: { labels: ['nudity'], classify: async () => Promise.reject(new MediaError('backend_failed', 'model crashed')) } }, { u: PNG });
  const a = await createMediaStage(failingClassifier).run('p', [{ key: 'pic', type: 'image', url: 'u' }]);
  assert.equal(a.fields[0]!.analysed, false);
  assert.match(a.fields[0]!.errors[0]!.message, /^image in field "pic" was not analysed: model crashed \(backend_failed\)/);

  const failingReader = parts({ reader: { read: async () => Promise.reject(new Error('onnx')) } }, { u: PNG });
  const b = await createMediaStage(failingReader).run('p', [{ key: 'pic', type: 'image', url: 'u' }]);
  assert.equal(b.fields[0]!.analysed, true);
  assert.match(b.fields[0]!.errors[0]!.message, /text in the image not read/);
});

test('a field of the wrong kind, a fetch failure, and a kind without its part: not analysed, each with its reason', async () => {
  const stage = createMediaStage(parts({}, { html: HTML, down: new MediaError('unreachable', 'host down') }));
  const result = await stage.run('p', [
    { key: 'a', type: 'image', url: 'html' },
    { key: 'b', type: 'image', url: 'down' },
    { key: 'c', type: 'video', url: 'html' },
    { key: 'd', type: 'audio', url: 'html' },
    { key: 'e', type: 'url', url: 'html' },
  ]);
  assert.deepEqual(result.fields.map((f) => f.analysed), [false, false, false, false, false]);
  assert.match(result.fields[0]!.errors[0]!.message, /not an image.*text\/html.*\(wrong_type\)/);
  assert.match(result.fields[1]!.errors[0]!.message, /host down \(unreachable\)/);
  assert.match(result.fields[2]!.errors[0]!.message, /video analysis is not available/);
  assert.match(result.fields[3]!.errors[0]!.message, /audio analysis is not available/);
  assert.match(result.fields[4]!.errors[0]!.message, /web page analysis is not available/);
  assert.deepEqual(result.notCovered, [], 'no image was analysed: nothing to say about its labels');
});

test('video: the worst frame decides, flagged frames keep their timestamps, a missing transcriber leaves it not analysed', async () => {
  const scores: ImageLabel[][] = [[{ id: 'nudity', probability: 0.1 }], [{ id: 'nudity', probability: 0.8 }], [{ id: 'nudity', probability: 0.3 }]];
  let call = 0;
  const video = {
    sample: async () => ({ frames: [0, 1500, 3000].map((timestampMs) => ({ timestampMs, image: PNG })), audio: Buffer.from('RIFF'), durationMs: 4000 }),
  };
  const stage = (transcriber: MediaParts['transcriber']) =>
    createMediaStage(parts({ video, transcriber, reader: null, classifier: { labels: ['nudity'], classify: async () => scores[call++ % 3]! } }, { v: MP4 }));
  const without = await stage(null).run('p', [{ key: null, type: 'video', url: 'v' }]);
  const field = without.fields[0]!;
  assert.deepEqual(field.labels, [{ id: 'nudity', probability: 0.8 }]);
  assert.deepEqual(field.flaggedTimestampsMs, [1500]);
  assert.equal(field.images, 3);
  assert.equal(field.analysed, false);
  assert.match(field.errors[0]!.message, /audio track .* not analysed: no transcription backend/);

  call = 0;
  const withTranscript = await stage({ transcribe: async () => ({ text: 'spoken words' }) }).run('p', [{ key: null, type: 'video', url: 'v' }]);
  assert.equal(withTranscript.fields[0]!.analysed, true);
  assert.deepEqual(withTranscript.fields[0]!.texts, [{ source: 'transcript', text: 'spoken words' }]);
});

test('a page: its text, its images up to the cap, a failing page image noted while the page counts', async () => {
  const pages = { extract: () => ({ title: 'Title', text: 'Body text', imageUrls: ['missing.png', 'second.png'] }) };
  const result = await createMediaStage(parts({ pages }, { page: HTML })).run('p', [{ key: 'link', type: 'url', url: 'page' }]);
  const field = result.fields[0]!;
  assert.equal(field.analysed, true);
  assert.deepEqual(field.texts[0], { source: 'page', text: 'Title\n\nBody text' });
  assert.equal(field.errors.length, 2);
  assert.match(field.errors[0]!.message, /an image of the page in field "link" .*HTTP 404/);
  assert.match(field.errors[1]!.message, /has 2 images; the first 1 were analysed/);
});

test('admission asks the pool for two jobs per image field with OCR, none for audio', () => {
  const asked: number[] = [];
  const pool = { admit: (jobs: number) => (asked.push(jobs), () => {}) } as unknown as MediaParts['pool'];
  const stage = createMediaStage(parts({ pool }));
  stage.admit([{ key: 'a', type: 'image', url: 'x' }, { key: 'b', type: 'audio', url: 'y' }, { key: 'c', type: 'video', url: 'z' }]);
  stage.admit([{ key: 'b', type: 'audio', url: 'y' }]);
  assert.deepEqual(asked, [4]);
});

test('OCR text gets a space between letters and digits for the entity matchers', () => {
  assert.equal(separateDigitRuns('Callmeat4155550134'), 'Callmeat 4155550134');
  assert.equal(separateDigitRuns('Room 12b, 3rd floor'), 'Room 12 b, 3 rd floor');
  assert.equal(separateDigitRuns('no digits here'), 'no digits here');
});

test('types are sniffed from the bytes', () => {
  assert.equal(sniffMime(PNG), 'image/png');
  assert.equal(sniffMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
  assert.equal(sniffMime(Buffer.from('GIF89a....')), 'image/gif');
  assert.equal(sniffMime(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  assert.equal(sniffMime(Buffer.from('RIFF\0\0\0\0WAVEfmt ')), 'audio/wav');
  assert.equal(sniffMime(MP4), 'video/mp4');
  assert.equal(sniffMime(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0])), 'video/webm');
  assert.equal(sniffMime(Buffer.from('OggS\0')), 'audio/ogg');
  assert.equal(sniffMime(Buffer.from('ID3\x04')), 'audio/mpeg');
  assert.equal(sniffMime(HTML), 'text/html');
  assert.equal(sniffMime(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'image/svg+xml');
  assert.equal(sniffMime(Buffer.from('plain words')), 'application/octet-stream');
  assert.equal(sniffMime(Buffer.alloc(0)), 'application/octet-stream');
});

test('a page read only in part says so, and still counts as analysed', async () => {
  const pages = { extract: () => ({ title: 'Long', text: 'Beginning', imageUrls: [], truncated: true }) };
  const result = await createMediaStage(parts({ pages }, { page: HTML })).run('p', [{ key: null, type: 'url', url: 'page' }]);
  assert.equal(result.fields[0]!.analysed, true);
  assert.match(result.fields[0]!.errors[0]!.message, /only its beginning was analysed/);
});
