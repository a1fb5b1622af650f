import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors.ts';
import { MediaError, type DecodedImage, type ImageClassifier, type ImageLabel, type Raster, type TextReader } from './types.ts';

export interface NsfwScores {
  drawing: number;
  hentai: number;
  neutral: number;
  porn: number;
  sexy: number;
}

type RasterMessage = { data: Uint8Array; width: number; height: number };
export type MediaWorkerRequest = { id: number; task: 'classify' | 'read'; raster: RasterMessage };
export type MediaWorkerResponse = { id: number; scores: NsfwScores } | { id: number; lines: string[] } | { id: number; error: string };

export interface MediaWorkerOptions {
  /** Worker threads; each holds its own nsfwjs and OCR models (≈0.3 GB + ≈0.5 GB). */
  size: number;
  /** Jobs waiting for a worker beyond which requests with images are refused with 503. */
  maxQueue: number;
  ocr: boolean;
  /** A job running longer than this ends its worker (replaced) and fails as timed out. */
  jobTimeoutMs?: number;
}

const MAX_FAILED_STARTS = 3;
const DEFAULT_JOB_TIMEOUT_MS = 60_000;

interface Job {
  request: Omit<MediaWorkerRequest, 'id'>;
  resolve(response: MediaWorkerResponse): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The image models run in their own pool of worker threads, apart from the text workers, so a burst
 * of images never holds the event loop or the long-text workers. The queue is bounded: a request
 * that would push it past `maxQueue` gets 503 SERVICE_UNAVAILABLE with Retry-After before anything
 * is fetched, never an ever longer backlog. Workers start with the first image.
 */
export class MediaWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;
  private failedStarts = 0;
  private nextId = 1;
  /** Jobs reserved by admitted requests (see admit). */
  private admitted = 0;
  private refused = 0;

  constructor(private readonly options: MediaWorkerOptions) {}

  available(): boolean {
    return this.options.size > 0 && !this.closed && this.failedStarts < MAX_FAILED_STARTS;
  }

  queued(): number {
    return this.queue.length;
  }

  busy(): number {
    return this.slots.filter((slot) => slot.current !== null).length;
  }

  /**
   * Reserves room for `jobs` jobs at most at once (running or waiting), before a request fetches
   * anything; throws 503 with Retry-After when the workers and their queue are already that full.
   * The returned function gives the room back when the request's media is done.
   */
  admit(jobs: number): () => void {
    if (this.closed) throw new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down');
    const capacity = this.options.maxQueue + this.options.size;
    // A request alone may always run, however many images it holds (object content is capped at 100 fields).
    if (this.admitted > 0 && this.admitted + jobs > capacity) {
      this.refused++;
      throw new ApiError('SERVICE_UNAVAILABLE', 'Too many images are waiting to be analysed; try again shortly', [], { 'retry-after': '2' });
    }
    this.admitted += jobs;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.admitted -= jobs;
    };
  }

  /** Requests refused for a full queue since start (metrics). */
  refusedCount(): number {
    return this.refused;
  }

  run(request: Omit<MediaWorkerRequest, 'id'>): Promise<MediaWorkerResponse> {
    if (this.closed) return Promise.reject(new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down'));
    if (this.slots.length === 0) for (let i = 0; i < this.options.size; i++) this.slots.push(this.spawn());
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  /** Starts the workers now (the benchmark; servers start them with the first image). */
  async warmUp(): Promise<void> {
    if (this.slots.length === 0) for (let i = 0; i < this.options.size; i++) this.slots.push(this.spawn());
    while (!this.slots.every((slot) => slot.ready)) {
      if (!this.available()) throw new Error('The media workers could not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./media-worker.mjs', import.meta.url), { workerData: { ocr: this.options.ocr } });
    const slot: Slot = { worker, ready: false, current: null, timer: null };
    worker.on('message', (message: MediaWorkerResponse | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        this.failedStarts = 0;
        return this.dispatch();
      }
      const finished = slot.current;
      slot.current = null;
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      if (finished) {
        if ('error' in message) finished.reject(new MediaError('backend_failed', `The image model failed: ${message.error}`));
        else finished.resolve(message);
      }
      this.dispatch();
    });
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (slot.timer) clearTimeout(slot.timer);
      slot.current?.reject(new MediaError('backend_failed', 'The image worker stopped while analysing this image'));
      slot.current = null;
      if (!slot.ready) this.failedStarts++;
      const index = this.slots.indexOf(slot);
      if (index < 0 || this.closed) return;
      if (this.failedStarts < MAX_FAILED_STARTS) this.slots[index] = this.spawn();
      else for (const pending of this.queue.splice(0)) pending.reject(new MediaError('backend_failed', 'The image workers could not start'));
    });
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.current !== null) continue;
      const next = this.queue.shift()!;
      slot.current = next;
      const timeoutMs = this.options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
      slot.timer = setTimeout(() => {
        const job = slot.current;
        slot.current = null;
        job?.reject(new MediaError('timed_out', `The image model took longer than ${timeoutMs} ms`));
        void slot.worker.terminate();
      }, timeoutMs);
      // A copy goes to the worker: the decoded image stays usable here (hash lists, backends).
      slot.worker.postMessage({ ...next.request, id: this.nextId++ });
    }
  }
}

const rasterMessage = (raster: Raster): RasterMessage => ({ data: raster.data, width: raster.width, height: raster.height });

/**
 * nsfwjs classes to the hosted image vocabulary: nudity = Porn + Hentai, suggestive = Sexy
 * (the sum over classes, not the top class: neutral photos come out "Drawing" at times).
 */
export function nsfwLabels(scores: NsfwScores): ImageLabel[] {
  return [
    { id: 'nudity', probability: Math.min(1, scores.porn + scores.hentai) },
    { id: 'suggestive', probability: Math.min(1, scores.sexy) },
  ];
}

export function createWorkerImageClassifier(pool: MediaWorkerPool): ImageClassifier {
  return {
    labels: ['nudity', 'suggestive'],
    async classify(image: DecodedImage): Promise<ImageLabel[]> {
      const response = await pool.run({ task: 'classify', raster: rasterMessage(image.classifierInput) });
      if (!('scores' in response)) throw new MediaError('backend_failed', 'The image model gave no scores');
      return nsfwLabels(response.scores);
    },
  };
}

export function createWorkerTextReader(pool: MediaWorkerPool): TextReader {
  return {
    async read(image: DecodedImage): Promise<string[]> {
      const response = await pool.run({ task: 'read', raster: rasterMessage(image.preview) });
      if (!('lines' in response)) throw new MediaError('backend_failed', 'The text reader gave no lines');
      return response.lines;
    },
  };
}
