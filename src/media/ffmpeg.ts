/**
 * Debian's ffmpeg and ffprobe as child processes: the decoding happens in another process, never
 * on the event loop, and a process that outlives its time is killed. Inputs are limited to local
 * files and pipes (`-protocol_whitelist file,pipe`) and to ordinary audio and video containers
 * (`-format_whitelist`): a playlist (HLS, concat) that would make ffmpeg open other files or URLs
 * is refused as a format, before any of its entries is read.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MediaError } from './types.ts';

/** Demuxers allowed to read uploads. No playlists (hls, concat), no image sequences, no devices. */
export const ALLOWED_DEMUXERS = ['mov', 'matroska', 'avi', 'flv', 'mpegts', 'ogg', 'asf', 'mpeg', 'mp3', 'wav', 'flac', 'aac', 'caf', 'amr', 'gif'];

export const INPUT_SAFETY_ARGS = ['-protocol_whitelist', 'file,pipe', '-format_whitelist', ALLOWED_DEMUXERS.join(',')];

const MAX_STDERR_BYTES = 1_048_576;

/**
 * ffmpeg and ffprobe processes running at once on this node, and runs allowed to wait for one.
 * Each decodes with one thread: without a bound, fifty videos arriving together would start fifty
 * decoders on a two-core machine. A run waits within its own time cap; past the queue it fails.
 */
export const processLimits = { running: 2, waiting: 32 };
let running = 0;
const waiting: Array<() => void> = [];

async function acquireSlot(deadline: number, signal: AbortSignal | undefined, what: string): Promise<() => void> {
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  if (running < processLimits.running) {
    running++;
    return release;
  }
  if (waiting.length >= processLimits.waiting) throw new MediaError('timed_out', `${what} was not started: too many audio and video files are being processed; try again shortly`);
  return new Promise((resolve, reject) => {
    const grant = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(release);
    };
    const giveUp = (error: Error) => {
      const index = waiting.indexOf(grant);
      if (index >= 0) waiting.splice(index, 1);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const timer = setTimeout(() => giveUp(new MediaError('timed_out', `${what} waited for a free decoder past its time cap`)), Math.max(0, deadline - Date.now()));
    const onAbort = () => {
      clearTimeout(timer);
      giveUp(abortError(signal!, what));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    waiting.push(grant);
  });
}

export interface ProcessResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a program to completion or kills it: at `deadline` (epoch ms) with SIGKILL and
 * `timed_out`, or when `signal` aborts. Waits for one of `processLimits.running` slots first. stdout is kept up to `maxStdoutBytes`, beyond which the
 * process is killed and `too_large` thrown.
 */
export async function runProcess(
  program: string,
  args: readonly string[],
  options: { deadline: number; signal?: AbortSignal | undefined; maxStdoutBytes?: number; what: string },
): Promise<ProcessResult> {
  if (options.signal?.aborted) throw abortError(options.signal, options.what);
  const release = await acquireSlot(options.deadline, options.signal, options.what);
  try {
    return await spawnToCompletion(program, args, options);
  } finally {
    release();
  }
}

function spawnToCompletion(
  program: string,
  args: readonly string[],
  options: { deadline: number; signal?: AbortSignal | undefined; maxStdoutBytes?: number; what: string },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) return reject(new MediaError('timed_out', `${options.what} ran out of time before it started`));
    if (options.signal?.aborted) return reject(abortError(options.signal, options.what));
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let failure: MediaError | Error | null = null;
    const kill = (error: MediaError | Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill(new MediaError('timed_out', `${options.what} took longer than ${Math.round(remaining)} ms and was stopped`)), remaining);
    const onAbort = () => kill(abortError(options.signal!, options.what));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (options.maxStdoutBytes !== undefined && stdoutBytes > options.maxStdoutBytes) {
        kill(new MediaError('too_large', `${options.what} produced more than ${options.maxStdoutBytes} bytes`));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      failure ??=
        error.code === 'ENOENT'
          ? new MediaError('not_configured', `${program} is not installed (install Debian's ffmpeg package, or set FFMPEG_PATH)`, { cause: error })
          : error;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else resolve({ code, stdout: Buffer.concat(stdout), stderr });
    });
  });
}

function abortError(signal: AbortSignal, what: string): Error {
  return signal.reason instanceof Error ? signal.reason : new MediaError('timed_out', `${what} was cancelled`);
}

/** The ffprobe next to a given ffmpeg ("ffmpeg" → "ffprobe", "/opt/x/ffmpeg" → "/opt/x/ffprobe"). */
export function ffprobeBeside(ffmpegPath: string): string {
  const base = path.basename(ffmpegPath);
  return base.startsWith('ffmpeg') ? path.join(path.dirname(ffmpegPath), `ffprobe${base.slice('ffmpeg'.length)}`) : 'ffprobe';
}

export interface ProbedMedia {
  formatName: string;
  durationMs: number | null;
  hasVideo: boolean;
  hasAudio: boolean;
  width: number | null;
  height: number | null;
}

/** What a file holds, from ffprobe. Throws `wrong_type` for what no allowed demuxer reads. */
export async function probeMedia(ffprobePath: string, file: string, deadline: number, signal?: AbortSignal): Promise<ProbedMedia> {
  const result = await runProcess(
    ffprobePath,
    ['-v', 'error', ...INPUT_SAFETY_ARGS, '-show_entries', 'format=format_name,duration:stream=codec_type,width,height,disposition', '-of', 'json', file],
    { deadline, signal, maxStdoutBytes: 1_048_576, what: 'Reading the media container' },
  );
  if (result.code !== 0) {
    throw new MediaError('wrong_type', `Not a readable audio or video file (${firstLine(result.stderr) || `ffprobe exited with ${result.code}`})`);
  }
  let parsed: { format?: { format_name?: string; duration?: string }; streams?: Array<{ codec_type?: string; width?: number; height?: number; disposition?: { attached_pic?: number } }> };
  try {
    parsed = JSON.parse(result.stdout.toString('utf8'));
  } catch (error) {
    throw new MediaError('undecodable', 'ffprobe answered with unreadable output', { cause: error });
  }
  const streams = parsed.streams ?? [];
  // Cover art in an audio file is a "video" stream of one picture: not a video.
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const duration = Number(parsed.format?.duration);
  return {
    formatName: parsed.format?.format_name ?? '',
    durationMs: Number.isFinite(duration) && duration >= 0 ? Math.round(duration * 1000) : null,
    hasVideo: video !== undefined,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    width: video?.width ?? null,
    height: video?.height ?? null,
  };
}

export function firstLine(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return (line ?? '').replace(/^\[[^\]]*\]\s*/, '').slice(0, 200);
}

/** A private temporary folder, removed when `work` settles, holding the input as a file. */
export async function withInputFile<T>(
  input: string | Uint8Array,
  maxBytes: number | undefined,
  work: (file: string, folder: string) => Promise<T>,
): Promise<T> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'om-media-'));
  try {
    let file: string;
    if (typeof input === 'string') {
      const info = await stat(input).catch((error: unknown) => {
        throw new MediaError('undecodable', `Cannot read ${path.basename(input)}`, { cause: error });
      });
      if (maxBytes !== undefined && info.size > maxBytes) throw new MediaError('too_large', `The file has ${info.size} bytes; the limit is ${maxBytes}`);
      if (info.size === 0) throw new MediaError('undecodable', 'The file is empty');
      file = input;
    } else {
      if (maxBytes !== undefined && input.length > maxBytes) throw new MediaError('too_large', `The file has ${input.length} bytes; the limit is ${maxBytes}`);
      if (input.length === 0) throw new MediaError('undecodable', 'The file is empty');
      file = path.join(folder, 'input');
      await writeFile(file, input, { mode: 0o600 });
    }
    return await work(file, folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
