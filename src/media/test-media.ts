/**
 * Generated audio and video for tests, made by the real tools: espeak-ng speaks a sentence and
 * ffmpeg builds a video from its `testsrc2` pattern with a frame of drawn text in the middle.
 * Nothing here runs in production.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SPOKEN_SENTENCE = 'Send me your bank password and I will double your money.';
export const FRAME_TEXT = 'SEND MONEY NOW';

async function inTempFolder<T>(work: (folder: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'om-test-media-'));
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A WAV of espeak-ng saying `sentence` (22 050 Hz mono, espeak's own format). */
export function spokenWav(sentence = SPOKEN_SENTENCE): Promise<Buffer> {
  return inTempFolder(async (folder) => {
    const file = path.join(folder, 'speech.wav');
    await run('espeak-ng', ['-v', 'en', '-s', '150', '-w', file, sentence]);
    return readFile(file);
  });
}

export interface TestVideoOptions {
  /** Seconds of pattern before the text frame, of text, and of pattern after; default 3, 2, 2. */
  parts?: [number, number, number];
  withSpeech?: boolean;
  container?: 'mp4' | 'webm';
  size?: string;
}

/**
 * testsrc2, then a white card reading FRAME_TEXT, then testsrc2 again; with espeak-ng's speech
 * as the audio track unless `withSpeech` is false.
 */
export function testVideo(options: TestVideoOptions = {}): Promise<Buffer> {
  const [before, text, after] = options.parts ?? [3, 2, 2];
  const size = options.size ?? '640x360';
  const container = options.container ?? 'mp4';
  return inTempFolder(async (folder) => {
    const args = ['-hide_banner', '-loglevel', 'error'];
    args.push('-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=${before}`);
    args.push('-f', 'lavfi', '-i', `color=c=white:size=${size}:rate=25:duration=${text}`);
    args.push('-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=${after}`);
    if (options.withSpeech !== false) {
      const speech = path.join(folder, 'speech.wav');
      await run('espeak-ng', ['-v', 'en', '-s', '150', '-w', speech, SPOKEN_SENTENCE]);
      args.push('-i', speech);
    }
    args.push(
      '-filter_complex',
      `[1:v]drawtext=text='${FRAME_TEXT}':fontsize=56:fontcolor=black:x=(w-text_w)/2:y=(h-text_h)/2[card];[0:v][card][2:v]concat=n=3:v=1:a=0[v]`,
      '-map',
      '[v]',
    );
    if (options.withSpeech !== false) args.push('-map', '3:a');
    if (container === 'mp4') args.push('-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '50', '-c:a', 'aac');
    else args.push('-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '500k', '-c:a', 'libopus');
    const file = path.join(folder, `video.${container}`);
    args.push('-y', file);
    await run('ffmpeg', args);
    return readFile(file);
  });
}
