/**
 * Any audio (or the sound of a video) to 16 kHz mono 16-bit PCM WAV, the input speech models
 * expect, with ffmpeg in a child process under a time cap.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ffprobeBeside, firstLine, INPUT_SAFETY_ARGS, probeMedia, runProcess, withInputFile } from './ffmpeg.ts';
import { MediaError, type AudioConverter } from './types.ts';

export interface AudioLimits {
  timeoutMs: number;
  /** Longer recordings are refused (`too_large`) rather than transcribed in part. */
  maxSeconds: number;
  maxBytes?: number;
}

export const WAV_SAMPLE_RATE = 16_000;

/** 16 kHz mono WAV of the first audio track of `input` (a file path or bytes). */
export async function toWav16kMono(input: string | Uint8Array, limits: AudioLimits, options: { ffmpegPath?: string; signal?: AbortSignal } = {}): Promise<Buffer> {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  const deadline = Date.now() + limits.timeoutMs;
  return withInputFile(input, limits.maxBytes, async (file, folder) => {
    const probed = await probeMedia(ffprobeBeside(ffmpegPath), file, deadline, options.signal);
    if (!probed.hasAudio) throw new MediaError('wrong_type', probed.hasVideo ? 'The file holds video but no sound' : 'The file holds no audio stream');
    if (probed.durationMs !== null && probed.durationMs > limits.maxSeconds * 1000) {
      throw new MediaError('too_large', `The recording lasts ${Math.round(probed.durationMs / 1000)} s; the limit is ${limits.maxSeconds} s`);
    }
    const output = path.join(folder, 'audio.wav');
    // -t as well: a container that does not state its duration still stops at the limit.
    const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-threads', '1', ...INPUT_SAFETY_ARGS, '-i', file];
    args.push('-map', '0:a:0', '-vn', '-t', String(limits.maxSeconds), '-ac', '1', '-ar', String(WAV_SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 'wav', output);
    const result = await runProcess(ffmpegPath, args, { deadline, signal: options.signal, maxStdoutBytes: 65_536, what: 'Converting the audio' });
    if (result.code !== 0) throw new MediaError('undecodable', `The audio could not be decoded (${firstLine(result.stderr) || `ffmpeg exited with ${result.code}`})`);
    const wav = await readFile(output);
    if (wav.length <= 44) throw new MediaError('undecodable', 'The audio track holds no sound samples');
    return wav;
  });
}

/** The media stage's `AudioConverter` (src/media/types.ts). */
export function createAudioConverter(options: { ffmpegPath?: string; maxBytes?: number } = {}): AudioConverter {
  return {
    toWav16kMono(bytes, limits, signal) {
      return toWav16kMono(bytes, { ...limits, ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}) }, {
        ...(options.ffmpegPath !== undefined ? { ffmpegPath: options.ffmpegPath } : {}),
        ...(signal ? { signal } : {}),
      });
    },
  };
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  durationMs: number;
}

/** Reads a PCM WAV header (RIFF, fmt and data chunks); null when the bytes are not one. */
export function readWavInfo(wav: Buffer): WavInfo | null {
  if (wav.length < 44 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') return null;
  let offset = 12;
  let format: Omit<WavInfo, 'durationMs'> | null = null;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('latin1', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 24 <= wav.length) {
      format = { channels: wav.readUInt16LE(offset + 10), sampleRate: wav.readUInt32LE(offset + 12), bitsPerSample: wav.readUInt16LE(offset + 22) };
    }
    if (id === 'data' && format) {
      const bytes = Math.min(size, wav.length - offset - 8);
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
      return { ...format, durationMs: Math.round((bytes / bytesPerSecond) * 1000) };
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}
