/**
 * Stills and sound from a video, for the image and audio stages: keyframes and scene changes,
 * spread over the whole video and capped at a frame budget, plus the audio track as 16 kHz mono
 * WAV. One ffprobe and one ffmpeg process, killed at the time cap.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ffprobeBeside, firstLine, INPUT_SAFETY_ARGS, probeMedia, runProcess, withInputFile } from './ffmpeg.ts';
import { MediaError, type SampledVideo, type VideoFrame, type VideoSampler } from './types.ts';

export interface VideoLimits {
  /** Most stills returned. */
  maxFrames: number;
  /** Whole budget: probing, decoding, encoding stills and audio. */
  timeoutMs: number;
  /** Larger inputs are refused before ffmpeg starts. */
  maxBytes?: number;
  /** Longer videos are refused (`too_large`), or with `cutLonger` only their first `maxSeconds` are sampled. */
  maxSeconds?: number;
  /** Sample the first `maxSeconds` of a longer video instead of refusing it; the result says `truncated`. */
  cutLonger?: boolean;
  /** Videos whose frames have more pixels are refused before decoding (a 30000×30000 stream); default 40 000 000. */
  maxPixels?: number;
  /** Scene-change score (0..1) above which a frame counts as a new scene; default 0.3. */
  sceneThreshold?: number;
  /** Stills are fitted inside this many pixels a side (never enlarged); default 1024. */
  maxFrameSide?: number;
  /** Default jpeg (quality 2 of 31): text on a frame stays readable for OCR. */
  frameFormat?: 'jpeg' | 'png';
}

export interface ExtractedVideo extends SampledVideo {
  width: number | null;
  height: number | null;
  /** Candidate stills written (keyframes and scene changes, spaced out) before the budget chose among them. */
  selectedFrames: number;
  /** True when only the first `maxSeconds` were sampled (`cutLonger`): the caller must say so. */
  truncated: boolean;
}

export interface VideoToolOptions {
  /** Default "ffmpeg" on the PATH; ffprobe is looked for beside it. */
  ffmpegPath?: string;
  signal?: AbortSignal;
}

const DEFAULT_SCENE_THRESHOLD = 0.3;
const DEFAULT_MAX_FRAME_SIDE = 1024;
// 8K UHD is 33 megapixels.
const DEFAULT_MAX_PIXELS = 40_000_000;
const AUDIO_FILE = 'audio.wav';

// Scene changes may come this many times closer together than the stills of the budget.
const SCENE_OVERSAMPLE = 3;

/**
 * Candidate stills: the first frame; scene changes no closer than duration / (3 × maxFrames) to
 * the previous candidate; keyframes no closer than duration / maxFrames (they only fill the
 * stretches without cuts). So the candidates cover the whole video — at most about 4 × maxFrames
 * of them, however often it cuts — and a cut shortly after a keyframe is still a candidate.
 * ffmpeg prints each candidate's time and scene score (metadata filter); chooseStills keeps the best.
 */
function selectExpression(durationMs: number | null, maxFrames: number, sceneThreshold: number): string {
  const seconds = durationMs !== null && durationMs > 0 ? durationMs / 1000 : 0;
  const spacedBy = (gap: number) => (gap > 0 ? `*(isnan(prev_selected_t)+gte(t-prev_selected_t\\,${gap.toFixed(3)}))` : '');
  const scene = `gt(scene\\,${sceneThreshold})${spacedBy(seconds / (maxFrames * SCENE_OVERSAMPLE))}`;
  const keyframe = `eq(pict_type\\,I)${spacedBy(seconds / maxFrames)}`;
  return `select='eq(n\\,0)+${scene}+${keyframe}'`;
}

/** Most candidate stills written: the spacing above keeps real videos under it; a video of unknown length is cut off there. */
const maxCandidates = (maxFrames: number) => maxFrames * (SCENE_OVERSAMPLE + 1) + 2;

export interface StillCandidate {
  timestampMs: number;
  /** ffmpeg's scene-change score, 0..1 (1: a cut to something entirely different). */
  sceneScore: number;
}

/**
 * Which candidates to keep (indices, in time order): the video is cut into `maxFrames` equal
 * spans and each span keeps its strongest scene change (or its first candidate), so a text card
 * shown between two keyframes is kept and the whole video stays covered; spans without a
 * candidate leave their share to the strongest remaining scene changes.
 */
export function chooseStills(candidates: readonly StillCandidate[], maxFrames: number, durationMs: number | null): number[] {
  if (candidates.length <= maxFrames) return candidates.map((_, index) => index);
  const end = Math.max(durationMs ?? 0, candidates[candidates.length - 1]!.timestampMs + 1);
  const span = end / maxFrames;
  const chosen = new Set<number>();
  for (let slot = 0; slot < maxFrames; slot++) {
    let best = -1;
    candidates.forEach((candidate, index) => {
      const inSlot = candidate.timestampMs >= slot * span && (candidate.timestampMs < (slot + 1) * span || slot === maxFrames - 1);
      if (inSlot && (best < 0 || candidate.sceneScore > candidates[best]!.sceneScore)) best = index;
    });
    if (best >= 0) chosen.add(best);
  }
  const rest = candidates.map((_, index) => index).filter((index) => !chosen.has(index));
  rest.sort((a, b) => candidates[b]!.sceneScore - candidates[a]!.sceneScore || a - b);
  for (const index of rest) {
    if (chosen.size >= maxFrames) break;
    chosen.add(index);
  }
  return [...chosen].sort((a, b) => a - b);
}

/** The candidates ffmpeg's metadata filter printed, in output order: a frame line, then its scene score. */
function parseCandidates(stderr: string): StillCandidate[] {
  const candidates: StillCandidate[] = [];
  for (const line of stderr.split(/[\r\n]+/)) {
    if (!line.includes('Parsed_metadata')) continue;
    const frame = /\bpts_time:\s*(-?[\d.eE+-]+)/.exec(line);
    if (frame) {
      candidates.push({ timestampMs: Math.max(0, Math.round(Number(frame[1]) * 1000)), sceneScore: 0 });
      continue;
    }
    const score = /lavfi\.scene_score=([\d.eE+-]+)/.exec(line);
    if (score && candidates.length > 0) candidates[candidates.length - 1]!.sceneScore = Math.min(1, Math.max(0, Number(score[1]) || 0));
  }
  return candidates;
}

/** Stills (timestamp + encoded bytes) and the audio track of a video given as a file path or bytes. */
export async function extractVideo(input: string | Uint8Array, limits: VideoLimits, options: VideoToolOptions = {}): Promise<ExtractedVideo> {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  const deadline = Date.now() + limits.timeoutMs;
  const maxFrames = Math.max(1, Math.floor(limits.maxFrames));
  const format = limits.frameFormat ?? 'jpeg';
  const side = limits.maxFrameSide ?? DEFAULT_MAX_FRAME_SIDE;
  return withInputFile(input, limits.maxBytes, async (file, folder) => {
    const probed = await probeMedia(ffprobeBeside(ffmpegPath), file, deadline, options.signal);
    if (!probed.hasVideo) throw new MediaError('wrong_type', probed.hasAudio ? 'The file holds audio but no video' : 'The file holds no video stream');
    const maxPixels = limits.maxPixels ?? DEFAULT_MAX_PIXELS;
    if (probed.width !== null && probed.height !== null && probed.width * probed.height > maxPixels) {
      throw new MediaError('too_large', `The video's frames are ${probed.width}×${probed.height}, more than ${maxPixels} pixels`);
    }
    const tooLong = limits.maxSeconds !== undefined && probed.durationMs !== null && probed.durationMs > limits.maxSeconds * 1000;
    if (tooLong && !limits.cutLonger) {
      throw new MediaError('too_large', `The video lasts ${Math.round(probed.durationMs! / 1000)} s; the limit is ${limits.maxSeconds} s`);
    }
    const sampledMs = tooLong ? limits.maxSeconds! * 1000 : probed.durationMs;
    const extension = format === 'png' ? 'png' : 'jpg';
    const filters = [
      selectExpression(sampledMs, maxFrames, limits.sceneThreshold ?? DEFAULT_SCENE_THRESHOLD),
      'metadata=mode=print:key=lavfi.scene_score',
      `scale='min(${side},iw)':'min(${side},ih)':force_original_aspect_ratio=decrease`,
    ].join(',');
    // -max_pixels as well: the decoder refuses a frame larger than the container declared.
    const args = ['-nostdin', '-nostats', '-hide_banner', '-loglevel', 'info', '-threads', '1', '-max_pixels', String(maxPixels), ...INPUT_SAFETY_ARGS];
    // -t before -i: the input is read no further, for the stills and the audio alike.
    if (limits.maxSeconds !== undefined) args.push('-t', String(limits.maxSeconds));
    args.push('-i', file);
    args.push('-map', '0:v:0', '-an', '-vf', filters, '-fps_mode', 'vfr', '-frames:v', String(maxCandidates(maxFrames)));
    if (format === 'jpeg') args.push('-q:v', '2');
    args.push(path.join(folder, `frame-%04d.${extension}`));
    if (probed.hasAudio) args.push('-map', '0:a:0', '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', path.join(folder, AUDIO_FILE));
    const result = await runProcess(ffmpegPath, args, { deadline, signal: options.signal, maxStdoutBytes: 65_536, what: 'Sampling the video' });
    if (result.code !== 0) throw new MediaError('undecodable', `The video could not be decoded (${lastError(result.stderr)})`);

    const names = (await readdir(folder)).filter((name) => name.startsWith('frame-')).sort();
    // The filter may pass a frame or two more than the encoder wrote before -frames:v stopped it.
    const candidates = parseCandidates(result.stderr).slice(0, names.length);
    if (candidates.length < names.length) throw new MediaError('undecodable', 'ffmpeg did not report the time of every still');
    const frames: VideoFrame[] = [];
    for (const index of chooseStills(candidates, maxFrames, sampledMs)) {
      frames.push({ timestampMs: candidates[index]!.timestampMs, image: await readFile(path.join(folder, names[index]!)) });
    }
    if (frames.length === 0) throw new MediaError('undecodable', 'No frame of the video could be decoded');
    const audio = probed.hasAudio ? await readFile(path.join(folder, AUDIO_FILE)).catch(() => null) : null;
    return {
      frames,
      audio: audio && audio.length > 44 ? audio : null,
      durationMs: probed.durationMs,
      width: probed.width,
      height: probed.height,
      selectedFrames: candidates.length,
      truncated: tooLong,
    };
  });
}

/** The most telling error line of an ffmpeg run (its last "error"-ish line, else its last line). */
function lastError(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.includes('Parsed_metadata'));
  const telling = [...lines].reverse().find((l) => /error|invalid|corrupt|not found|failed/i.test(l)) ?? lines[lines.length - 1] ?? '';
  return firstLine(telling) || 'ffmpeg failed';
}

/** The media stage's `VideoSampler` (src/media/types.ts). */
export function createVideoSampler(options: { ffmpegPath?: string; maxBytes?: number; maxSeconds?: number; cutLonger?: boolean; maxPixels?: number } = {}): VideoSampler {
  return {
    sample(bytes, limits, signal) {
      return extractVideo(
        bytes,
        {
          maxFrames: limits.maxFrames,
          timeoutMs: limits.timeoutMs,
          ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
          ...(options.maxSeconds !== undefined ? { maxSeconds: options.maxSeconds } : {}),
          ...(options.cutLonger !== undefined ? { cutLonger: options.cutLonger } : {}),
          ...(options.maxPixels !== undefined ? { maxPixels: options.maxPixels } : {}),
        },
        { ...(options.ffmpegPath !== undefined ? { ffmpegPath: options.ffmpegPath } : {}), ...(signal ? { signal } : {}) },
      );
    },
  };
}
