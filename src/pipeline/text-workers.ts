import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors.ts';
import type { TextAnalysis, TextJob } from './text-analysis.ts';
import { unpackBatch, unpackTextAnalysis, type PackedBatch } from './text-answer.ts';

const MAX_FAILED_STARTS = 3;

export interface TextWorkerOptions {
  /** Worker threads; each loads its own copy of the classifier models. */
  size: number;
  /** Jobs waiting for a worker beyond which new ones are refused with 503. */
  maxQueue: number;
}

interface Job {
  job: TextJob;
  resolve(result: TextAnalysis): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /**
   * Batches sent to the worker and not answered yet, oldest first (it answers them in order). Up to
   * IN_FLIGHT at once, so that the next batch is waiting when the worker finishes one instead of the worker
   * idling until this thread reads its answer and sends more.
   */
  sent: Job[][];
}

const IN_FLIGHT = 2;

/**
 * Jobs waiting go to a worker together, up to this many and this many characters: one message
 * each way instead of one per job. A long text goes alone, so that its answer is not read with others at once.
 * Up to 16 rather than 8 short texts: each message costs both threads a few microseconds whatever it holds, and
 * under 50 connections sending new texts 16 served as many or more requests for less CPU (docs/benchmarks.md).
 */
const MAX_BATCH = 16;
const MAX_BATCH_CHARS = 16_000;
const charsOf = (job: TextJob): number => job.fields.reduce((sum, field) => sum + field.text.length, 0);

/**
 * Long texts run their normalization, policies and insights in worker threads, so that one client
 * sending 100,000-character texts cannot hold the event loop, and with it every short request, for
 * tens of milliseconds at a time. The queue is bounded: past it a request gets 503 with Retry-After
 * instead of waiting behind an ever longer backlog. A worker that dies fails its job and is replaced.
 */
export class TextWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;
  /** Workers that died before they were ready, in a row: past a few the pool gives up (models missing). */
  private failedStarts = 0;
  private answeredJobs = 0;
  private flushScheduled = false;

  // Workers start with the first long text, not with the server: a deployment that never sees one
  // does not pay their memory (each holds its own models), and the first long text waits for them.
  constructor(private readonly options: TextWorkerOptions) {}

  /** False once workers keep dying before they are ready: the pipeline then runs texts itself. */
  available(): boolean {
    return !this.closed && this.failedStarts < MAX_FAILED_STARTS;
  }

  /** True once a worker has loaded its models; `start` starts the workers without a job. */
  ready(): boolean {
    return this.slots.some((slot) => slot.ready);
  }

  start(): void {
    if (!this.closed && this.slots.length === 0) for (let i = 0; i < this.options.size; i++) this.slots.push(this.spawn());
  }

  /** Jobs the workers have answered since the pool started. */
  answered(): number {
    return this.answeredJobs;
  }

  /** Jobs waiting for a worker (metrics). */
  queued(): number {
    return this.queue.length;
  }

  /** Jobs running in a worker (metrics). */
  busy(): number {
    return this.slots.filter((slot) => slot.sent.length > 0).length;
  }

  run(job: TextJob): Promise<TextAnalysis> {
    if (this.closed) return Promise.reject(new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down'));
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.reject(
        new ApiError('SERVICE_UNAVAILABLE', 'Too many long texts are waiting to be analysed; try again shortly', [], { 'retry-after': '1' }),
      );
    }
    this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      // The jobs of one event-loop turn leave together, at its end.
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => {
          this.flushScheduled = false;
          this.dispatch();
        });
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./text-worker.mjs', import.meta.url));
    const slot: Slot = { worker, ready: false, sent: [] };
    worker.on('message', (message: { ready?: boolean; batch?: PackedBatch }) => {
      if (message.ready) {
        slot.ready = true;
        this.failedStarts = 0;
        return this.dispatch();
      }
      const finished = slot.sent.shift() ?? [];
      this.answeredJobs += finished.length;
      let answers: ReturnType<typeof unpackBatch> = [];
      try {
        if (message.batch) answers = unpackBatch(message.batch);
      } catch {
        // A batch that cannot be read fails its own jobs (each becomes a policy error), not the process.
      }
      finished.forEach((job, i) => {
        const answer = answers[i];
        if (answer !== undefined && 'result' in answer) {
          try {
            job.resolve(unpackTextAnalysis(answer.result, job.job));
          } catch (error) {
            job.reject(error instanceof Error ? error : new Error(String(error)));
          }
        }
        else job.reject(new Error(answer?.error ?? 'The text worker gave no answer'));
      });
      this.dispatch();
    });
    worker.on('error', () => {});
    worker.on('exit', () => {
      for (const batch of slot.sent) for (const job of batch) job.reject(new Error('The text worker stopped while analysing this text'));
      slot.sent = [];
      if (!slot.ready) this.failedStarts++;
      const index = this.slots.indexOf(slot);
      if (index < 0 || this.closed) return;
      if (this.failedStarts < MAX_FAILED_STARTS) this.slots[index] = this.spawn();
      else for (const pending of this.queue.splice(0)) pending.reject(new Error('The text workers could not start'));
    });
    return slot;
  }

  private dispatch(): void {
    for (let round = 0; round < IN_FLIGHT; round++) {
      for (const slot of this.slots) {
        if (this.queue.length === 0) return;
        if (!slot.ready || slot.sent.length > round) continue;
        let count = 1;
        let chars = charsOf(this.queue[0]!.job);
        while (count < MAX_BATCH && count < this.queue.length && chars + charsOf(this.queue[count]!.job) <= MAX_BATCH_CHARS) chars += charsOf(this.queue[count++]!.job);
        const batch = this.queue.splice(0, count);
        slot.sent.push(batch);
        slot.worker.postMessage({ jobs: batch.map((pending) => pending.job) });
      }
    }
  }
}
