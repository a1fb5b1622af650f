/**
 * Page extraction off the event loop. Readability and html-to-text are plain JavaScript: a large
 * or pathological page (tens of thousands of elements) holds a thread for seconds. One worker
 * thread takes the pages in turn; a page that outlives its time cap has its worker terminated
 * (and replaced at the next page), and the queue is bounded.
 */
import { Worker } from 'node:worker_threads';
import type { PageExtract, PageExtractOptions } from './page-extractor.ts';
import { MediaError } from './types.ts';

export interface PageWorkerOptions {
  /** Pages waiting beyond the one in progress; past it `extract` fails at once. Default 16. */
  maxQueue?: number;
  /** Heap of the worker; a page that needs more fails instead of growing the server. Default 256 MB. */
  maxHeapMb?: number;
}

interface PageJob {
  id: number;
  html: string;
  pageUrl: string;
  options: PageExtractOptions;
  timeoutMs: number;
  resolve(page: PageExtract): void;
  reject(error: Error): void;
}

export class PageExtractionWorker {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private current: PageJob | null = null;
  private readonly queue: PageJob[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PageWorkerOptions = {}) {}

  /** Title, text and image URLs of a page (see page-extractor.ts), under a time cap. */
  extract(html: string, pageUrl: string, limits: PageExtractOptions & { timeoutMs: number }): Promise<PageExtract> {
    if (this.closed) return Promise.reject(new MediaError('backend_failed', 'The page extractor is shut down'));
    if (this.queue.length >= (this.options.maxQueue ?? 16)) {
      return Promise.reject(new MediaError('timed_out', 'Too many pages are waiting to be read; try again shortly'));
    }
    const { timeoutMs, ...options } = limits;
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, html, pageUrl, options, timeoutMs, resolve, reject });
      void this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new MediaError('backend_failed', 'The page extractor is shut down'));
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Promise<void> {
    const worker = new Worker(new URL('./page-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 256 },
    });
    this.worker = worker;
    worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (message.ready) {
          worker.off('error', onError);
          resolve();
        }
      };
      const onError = (error: Error) => reject(new MediaError('backend_failed', `The page extractor could not start: ${error.message}`));
      worker.on('message', onMessage);
      worker.once('error', onError);
    });
    worker.on('message', (message: { id?: number; result?: PageExtract; error?: string }) => {
      const job = this.current;
      if (!job || message.id !== job.id) return;
      this.finish(message.error !== undefined ? new MediaError('undecodable', `The page could not be read: ${message.error}`) : message.result!);
    });
    worker.on('error', (error) => this.fail(worker, new MediaError('undecodable', `The page could not be read: ${error.message}`)));
    worker.on('exit', () => this.fail(worker, new MediaError('undecodable', 'The page extractor stopped while reading the page')));
    return this.ready;
  }

  private fail(worker: Worker, error: MediaError): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = null;
    if (this.current) this.finish(error);
  }

  private finish(outcome: PageExtract | Error): void {
    const job = this.current;
    if (!job) return;
    this.current = null;
    clearTimeout(this.timer);
    this.worker?.unref();
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    void this.pump();
  }

  private timer: NodeJS.Timeout | undefined;

  private async pump(): Promise<void> {
    if (this.current || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.current = job;
    try {
      if (!this.worker) await this.start();
      else await this.ready;
    } catch (error) {
      this.worker = null;
      this.ready = null;
      this.finish(error as Error);
      return;
    }
    if (this.current !== job) return;
    const worker = this.worker!;
    this.worker?.ref();
    this.timer = setTimeout(() => {
      // A stuck page: the worker goes, the next page gets a fresh one.
      this.worker = null;
      this.ready = null;
      this.finish(new MediaError('timed_out', `Reading the page took longer than ${job.timeoutMs} ms`));
      void worker.terminate();
    }, job.timeoutMs);
    worker.postMessage({ id: job.id, html: job.html, pageUrl: job.pageUrl, options: job.options });
  }
}
