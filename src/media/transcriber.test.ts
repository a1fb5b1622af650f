import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaBackendConfig } from '../config.ts';
import { readWavInfo, toWav16kMono } from './audio.ts';
import { parseMultipart, startFakeBackend, type FakeBackend, type RecordedRequest } from './fake-backends.ts';
import { SPOKEN_SENTENCE, testVideo } from './test-media.ts';
import { createTranscriber } from './transcriber.ts';
import { MediaError } from './types.ts';
import { extractVideo } from './video-frames.ts';

/**
 * The fake speaks the real protocol: it reads the multipart upload, checks the model field and
 * that the file is a 16 kHz mono WAV, and answers {text}. It cannot recognise speech, so its
 * text is the sentence espeak-ng was given, plus what it measured about the upload.
 */
function transcriptionServer(request: RecordedRequest) {
  if (request.method !== 'POST' || request.url !== '/v1/audio/transcriptions') return { status: 404, json: { error: { message: 'no such route' } } };
  if (request.headers.authorization !== 'Bearer sk-test-transcribe') return { status: 401, json: { error: { message: 'bad key' } } };
  const parts = parseMultipart(request.body, String(request.headers['content-type']));
  const model = parts.find((p) => p.name === 'model')?.data.toString('utf8');
  const file = parts.find((p) => p.name === 'file');
  if (!model || !file || !file.filename) return { status: 400, json: { error: { message: 'model and file are required' } } };
  const wav = readWavInfo(file.data);
  if (!wav) return { status: 400, json: { error: { message: 'not a WAV file' } } };
  if (model === 'slow') return { json: { text: 'late' }, delayMs: 2_000 };
  if (model === 'broken') return { status: 500, text: 'out of GPU memory' };
  if (model === 'nonsense') return { json: { transcript: 'wrong field' } };
  return { json: { text: ` ${SPOKEN_SENTENCE} [${model}, ${wav.sampleRate} Hz, ${wav.channels} channel, ${Math.round(wav.durationMs / 100) / 10} s]`, language: 'english' } };
}

describe('transcription backend (OpenAI-compatible, multipart)', () => {
  let server: FakeBackend;
  let wav: Buffer;
  const backend = (model = 'whisper-1', timeoutMs = 10_000): MediaBackendConfig => ({ url: server.url, apiKey: 'sk-test-transcribe', model, timeoutMs, trusted: true });
  before(async () => {
    server = await startFakeBackend(transcriptionServer);
    // The spoken track of a generated video, as the video stage hands it on.
    const video = await extractVideo(await testVideo({ parts: [1, 1, 2] }), { maxFrames: 2, timeoutMs: 30_000 });
    wav = video.audio!;
  });
  after(() => server.close());

  test('the audio of a video goes up as a 16 kHz mono WAV with the model, and the text comes back', async () => {
    const transcript = await createTranscriber(backend()).transcribe(wav);
    const seconds = Math.round(readWavInfo(wav)!.durationMs / 100) / 10;
    assert.equal(transcript.text, `${SPOKEN_SENTENCE} [whisper-1, 16000 Hz, 1 channel, ${seconds} s]`);
    assert.equal(transcript.language, 'english');
    const [part] = parseMultipart(server.requests.at(-1)!.body, String(server.requests.at(-1)!.headers['content-type'])).filter((p) => p.name === 'file');
    assert.equal(part!.contentType, 'audio/wav');
    assert.deepEqual(part!.data, wav);
  });

  test('a full endpoint URL is used as given; audio converted from any file works the same', async () => {
    const converted = await toWav16kMono(wav, { timeoutMs: 30_000, maxSeconds: 60 });
    const transcript = await createTranscriber({ ...backend('large-v3'), url: `${server.url}/audio/transcriptions` }).transcribe(converted);
    assert.match(transcript.text, /\[large-v3, 16000 Hz, 1 channel/);
  });

  test('no backend: not configured, never an empty transcript', async () => {
    await assert.rejects(createTranscriber(null).transcribe(wav), (error: unknown) => error instanceof MediaError && error.code === 'not_configured' && /not scanned/.test(error.message));
  });

  test('failures are clear errors: slow, broken, wrong answer, wrong key, upload too large, unreachable, private address without trust', async () => {
    const expect = (code: string, pattern: RegExp) => (error: unknown) => {
      assert.ok(error instanceof MediaError, String(error));
      assert.equal(error.code, code);
      assert.match(error.message, pattern);
      return true;
    };
    const started = Date.now();
    await assert.rejects(createTranscriber(backend('slow', 300)).transcribe(wav), expect('timed_out', /300 ms/));
    assert.ok(Date.now() - started < 1_500);
    await assert.rejects(createTranscriber(backend('broken')).transcribe(wav), expect('backend_failed', /HTTP 500: out of GPU memory/));
    await assert.rejects(createTranscriber(backend('nonsense')).transcribe(wav), expect('backend_failed', /"text"/));
    await assert.rejects(createTranscriber({ ...backend(), apiKey: 'wrong' }).transcribe(wav), expect('backend_failed', /HTTP 401/));
    await assert.rejects(createTranscriber(backend(), { maxUploadBytes: 1000 }).transcribe(wav), expect('too_large', /at most 1000/));
    await assert.rejects(createTranscriber({ ...backend(), url: 'http://127.0.0.1:1/v1' }).transcribe(wav), expect('backend_failed', /could not be reached/));
    await assert.rejects(createTranscriber({ ...backend(), url: server.url.replace('http:', 'https:'), trusted: false }).transcribe(wav), expect('backend_failed', /blocked_address/));
  });
});
