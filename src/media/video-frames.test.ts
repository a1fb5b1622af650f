import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { createAudioConverter, readWavInfo, toWav16kMono } from './audio.ts';
import { spokenWav, testVideo } from './test-media.ts';
import { MediaError } from './types.ts';
import { chooseStills, createVideoSampler, extractVideo } from './video-frames.ts';

const isMediaError = (code: string) => (error: unknown) => {
  assert.ok(error instanceof MediaError, String(error));
  assert.equal(error.code, code, error.message);
  assert.ok(error.message.length > 10);
  return true;
};

const run = promisify(execFile);

const mediaFolders = async () => (await readdir(os.tmpdir())).filter((name) => name.startsWith('om-media-')).length;

describe('video sampling and audio conversion with ffmpeg', () => {
  let video: Buffer;
  let silentVideo: Buffer;
  let speech: Buffer;
  let folder: string;
  before(async () => {
    [video, silentVideo, speech] = await Promise.all([testVideo(), testVideo({ withSpeech: false, parts: [1, 1, 1] }), spokenWav()]);
    folder = await mkdtemp(path.join(os.tmpdir(), 'om-video-test-'));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  test('keyframes and scene changes: the frame with text is among the stills, with its timestamp; the speech comes out as 16 kHz mono WAV', async () => {
    const before = await mediaFolders();
    const sampled = await extractVideo(video, { maxFrames: 16, timeoutMs: 30_000 });
    assert.equal(sampled.durationMs, 7000);
    assert.equal(sampled.width, 640);
    assert.ok(sampled.frames.length >= 3 && sampled.frames.length <= 16, `${sampled.frames.length} frames`);
    assert.equal(sampled.frames[0]!.timestampMs, 0);
    const stamps = sampled.frames.map((f) => f.timestampMs);
    assert.deepEqual(stamps, [...stamps].sort((a, b) => a - b));
    // The white text card runs from 3 s to 5 s: a still from it is mostly white, the pattern is not.
    const brightness = await Promise.all(sampled.frames.map(async (f) => (await sharp(f.image).greyscale().stats()).channels[0]!.mean));
    const cards = sampled.frames.filter((_, i) => brightness[i]! > 200);
    assert.ok(cards.length >= 1, `brightness ${brightness.map(Math.round).join(',')} at ${stamps.join(',')}`);
    for (const card of cards) assert.ok(card.timestampMs >= 3000 && card.timestampMs < 5000, `card at ${card.timestampMs}`);
    const [card] = cards;
    const meta = await sharp(card!.image).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.equal(meta.width, 640);
    // The drawn text leaves dark pixels on the card.
    const { data } = await sharp(card!.image).greyscale().raw().toBuffer({ resolveWithObject: true });
    assert.ok(data.filter((v) => v < 80).length > 2000, 'the card carries dark text');

    const wav = readWavInfo(sampled.audio!);
    assert.ok(wav);
    assert.deepEqual({ rate: wav.sampleRate, channels: wav.channels, bits: wav.bitsPerSample }, { rate: 16_000, channels: 1, bits: 16 });
    const spoken = readWavInfo(speech)!;
    assert.ok(Math.abs(wav.durationMs - spoken.durationMs) < 250, `audio ${wav.durationMs} ms, speech ${spoken.durationMs} ms`);
    assert.equal(await mediaFolders(), before, 'the temporary folder is removed');
  });

  test('the frame budget is spread over the whole video and keeps scene changes: the text card survives a budget of 6 and of 2', async () => {
    const brightest = async (frames: Array<{ image: Buffer }>) =>
      Math.max(...(await Promise.all(frames.map(async (f) => (await sharp(f.image).greyscale().stats()).channels[0]!.mean))));
    const six = await extractVideo(video, { maxFrames: 6, timeoutMs: 30_000 });
    assert.ok(six.frames.length <= 6);
    assert.ok(six.frames.some((f) => f.timestampMs >= 3000 && f.timestampMs < 5000), six.frames.map((f) => f.timestampMs).join(','));
    assert.ok((await brightest(six.frames)) > 200, 'the white text card is among the stills');
    const two = await extractVideo(video, { maxFrames: 2, timeoutMs: 30_000, frameFormat: 'png', maxFrameSide: 320 });
    assert.equal(two.frames.length, 2);
    assert.ok(two.frames[0]!.timestampMs < 3500 && two.frames[1]!.timestampMs >= 3500, two.frames.map((f) => f.timestampMs).join(','));
    assert.ok(two.selectedFrames > 2, `${two.selectedFrames} candidates`);
    assert.ok((await brightest(two.frames)) > 200, 'the white text card is among the two stills');
    const meta = await sharp(two.frames[1]!.image).metadata();
    assert.equal(meta.format, 'png');
    assert.equal(meta.width, 320);
  });

  test('a video that cuts every half second: the candidates and the stills still cover it to the end', async () => {
    const file = path.join(folder, 'cuts.mp4');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', "color=c=black:s=320x180:r=10:d=20,format=gray,geq=lum='mod(floor(T*2)\\,2)*200+20'", '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '100', '-pix_fmt', 'yuv420p', '-y', file]);
    const sampled = await extractVideo(file, { maxFrames: 4, timeoutMs: 30_000 });
    assert.equal(sampled.frames.length, 4);
    assert.ok(sampled.selectedFrames <= 4 * 4 + 2, `${sampled.selectedFrames} candidates`);
    const stamps = sampled.frames.map((f) => f.timestampMs);
    assert.ok(stamps[0]! < 5000 && stamps[3]! >= 15_000, stamps.join(','));
  });

  test('choosing stills: one per span, the strongest scene change first, spare budget to the strongest rest', () => {
    const at = (timestampMs: number, sceneScore: number) => ({ timestampMs, sceneScore });
    const candidates = [at(0, 0), at(1000, 0.01), at(1500, 0.9), at(2000, 0.02), at(6000, 0.4), at(6500, 0.8), at(9000, 0.05)];
    // Spans of 2.5 s: [0, 2.5) → 1500 (0.9); [2.5, 5) → none; [5, 7.5) → 6500 (0.8); [7.5, 10) → 9000; spare → 6000 (0.4).
    assert.deepEqual(chooseStills(candidates, 4, 10_000), [2, 4, 5, 6]);
    assert.deepEqual(chooseStills(candidates, 7, 10_000), [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(chooseStills(candidates, 1, 10_000), [2]);
    // Unknown duration: the last candidate bounds the spans.
    assert.deepEqual(chooseStills(candidates, 2, null), [2, 5]);
  });

  test('a longer video is refused, or with cutLonger only its first seconds are sampled and the result says so', async () => {
    await assert.rejects(extractVideo(video, { maxFrames: 8, timeoutMs: 30_000, maxSeconds: 2 }), isMediaError('too_large'));
    const cut = await extractVideo(video, { maxFrames: 8, timeoutMs: 30_000, maxSeconds: 2, cutLonger: true });
    assert.equal(cut.truncated, true);
    assert.ok(cut.frames.every((f) => f.timestampMs < 2000), cut.frames.map((f) => f.timestampMs).join(','));
    assert.ok(Math.abs(readWavInfo(cut.audio!)!.durationMs - 2000) < 100);
    assert.equal((await extractVideo(video, { maxFrames: 8, timeoutMs: 30_000, maxSeconds: 60 })).truncated, false);
  });

  test('a video without sound has no audio; the sampler interface and a file path work too', async () => {
    const file = path.join(folder, 'silent.mp4');
    await writeFile(file, silentVideo);
    const fromFile = await extractVideo(file, { maxFrames: 4, timeoutMs: 30_000 });
    assert.equal(fromFile.audio, null);
    assert.ok(fromFile.frames.length >= 1);
    const sampler = createVideoSampler({ maxSeconds: 60 });
    const viaInterface = await sampler.sample(video, { maxFrames: 4, timeoutMs: 30_000 });
    assert.ok(viaInterface.frames.length >= 2 && viaInterface.frames.length <= 4);
    assert.ok(viaInterface.audio);
    await assert.rejects(createAudioConverter().toWav16kMono(silentVideo, { timeoutMs: 30_000, maxSeconds: 60 }), isMediaError('wrong_type'));
  });

  test('audio of any kind to 16 kHz mono WAV', async () => {
    const wav = await toWav16kMono(speech, { timeoutMs: 30_000, maxSeconds: 60 });
    const info = readWavInfo(wav)!;
    assert.deepEqual({ rate: info.sampleRate, channels: info.channels, bits: info.bitsPerSample }, { rate: 16_000, channels: 1, bits: 16 });
    assert.ok(Math.abs(info.durationMs - readWavInfo(speech)!.durationMs) < 100);
    // Speech, not silence.
    const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - ((wav.length - 44) % 2)));
    const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
    assert.ok(rms > 500, `rms ${rms}`);
    await assert.rejects(toWav16kMono(speech, { timeoutMs: 30_000, maxSeconds: 1 }), isMediaError('too_large'));
  });

  test('refusals: not a video, audio only, playlists, empty, over the byte, length and time caps', async () => {
    await assert.rejects(extractVideo(Buffer.from('definitely not a video file'), { maxFrames: 4, timeoutMs: 30_000 }), isMediaError('wrong_type'));
    await assert.rejects(extractVideo(speech, { maxFrames: 4, timeoutMs: 30_000 }), isMediaError('wrong_type'));
    await assert.rejects(extractVideo(Buffer.alloc(0), { maxFrames: 4, timeoutMs: 30_000 }), isMediaError('undecodable'));
    await assert.rejects(extractVideo(video.subarray(0, 5000), { maxFrames: 4, timeoutMs: 30_000 }), (error: unknown) => error instanceof MediaError && ['wrong_type', 'undecodable'].includes(error.code));
    await assert.rejects(extractVideo(video, { maxFrames: 4, timeoutMs: 30_000, maxBytes: 1000 }), isMediaError('too_large'));
    await assert.rejects(extractVideo(video, { maxFrames: 4, timeoutMs: 30_000, maxSeconds: 5 }), isMediaError('too_large'));
    await assert.rejects(extractVideo(video, { maxFrames: 4, timeoutMs: 30_000, maxPixels: 640 * 360 - 1 }), isMediaError('too_large'));
    // An HLS playlist pointing at a local file: ffmpeg must not follow it.
    const target = path.join(folder, 'target.mp4');
    await writeFile(target, video);
    const playlist = path.join(folder, 'list.m3u8');
    await writeFile(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:7,\nfile://${target}\n#EXT-X-ENDLIST\n`);
    await assert.rejects(extractVideo(playlist, { maxFrames: 4, timeoutMs: 30_000 }), isMediaError('wrong_type'));
    const before = await mediaFolders();
    await assert.rejects(extractVideo(video, { maxFrames: 16, timeoutMs: 40 }), isMediaError('timed_out'));
    assert.equal(await mediaFolders(), before);
    const controller = new AbortController();
    const pending = extractVideo(video, { maxFrames: 16, timeoutMs: 30_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new MediaError('timed_out', 'the request was cancelled')), 20);
    await assert.rejects(pending, isMediaError('timed_out'));
    await assert.rejects(extractVideo(video, { maxFrames: 4, timeoutMs: 30_000 }, { ffmpegPath: '/nonexistent/ffmpeg' }), isMediaError('not_configured'));
  });
});
