import type { Database } from './database.ts';

/**
 * Writes a whole batch atomically (one transaction, or one statement, which is
 * its own transaction); returns one result per item, in order.
 */
export type BatchWriter<I, O> = (db: Database, items: readonly I[]) => Promise<O[]>;

export interface GroupCommitOptions<I> {
  /** How many batches may be in flight at once; defaults to what the store can run in parallel. */
  slots?: number;
  /** A further batch starts beside a busy one only once this many writes wait. */
  minParallelBatch?: number;
  maxBatch?: number;
  /** Writes held back by minParallelBatch go out anyway after this long. */
  maxParallelWaitMs?: number;
  /**
   * Whether a write may be in flight beside another batch. On the embedded
   * store a batch that needs a transaction holds the single connection, so a
   * second one started beside it only waits, with fewer rows than it would
   * have gathered by waiting in the queue.
   */
  overlaps?: (item: I) => boolean;
  /** Told of every batch (metrics). */
  observer?: GroupCommitObserver;
}

export interface GroupCommitObserver {
  /** A batch of `size` writes starts; its oldest write was queued at `oldestQueuedAt` (performance.now()). */
  batchStarted(size: number, oldestQueuedAt: number): void;
  /** A batch failed and is split to find the failing write. */
  batchFailed(): void;
}

interface Pending<I, O> {
  item: I;
  /** performance.now() when the write was queued. */
  queuedAt: number;
  /** The write may not be in flight beside another batch (see `overlaps`). */
  exclusive: boolean;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * Group commit: writes of concurrent requests share one transaction, so the
 * cost of a commit (and, with a batch writer using multi-row statements, of
 * each statement) is paid once per batch instead of once per request. Each
 * caller's promise settles only after the batch's COMMIT, so durability is
 * unchanged: nothing is acknowledged before it is on disk.
 *
 * A batch starts as soon as a transaction slot is free and nothing is being
 * written; whatever arrives while it runs forms the next batch. A further
 * batch runs beside it only once `minParallelBatch` writes wait: a statement
 * has a fixed cost (round trip, plan, commit flush) that a handful of rows
 * cannot repay, and small parallel batches made the store spend more per row
 * than the waiting saved. So that a slow or retrying batch cannot hold a few
 * writes back, they go out anyway after `maxParallelWaitMs`. If a batch fails,
 * it is split in halves and each half retried, down to single items, so a
 * single bad write cannot fail its neighbours.
 */
export class GroupCommitter<I, O> {
  private queue: Pending<I, O>[] = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  private overdue: ReturnType<typeof setTimeout> | null = null;
  /** Batches in flight holding a write that may not overlap others. */
  private exclusiveRunning = 0;
  /** Queued writes that may not overlap others: counted as they arrive, not by scanning the queue. */
  private exclusiveQueued = 0;
  private readonly slots: number;
  private readonly minParallelBatch: number;
  private readonly maxBatch: number;
  private readonly maxParallelWaitMs: number;
  private readonly overlaps: ((item: I) => boolean) | null;
  private readonly observer: GroupCommitObserver | null;

  constructor(
    private readonly db: Database,
    private readonly writeBatch: BatchWriter<I, O>,
    options: GroupCommitOptions<I> = {},
  ) {
    this.slots = options.slots ?? db.parallelism;
    this.minParallelBatch = options.minParallelBatch ?? 1;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxParallelWaitMs = options.maxParallelWaitMs ?? 5;
    this.overlaps = options.overlaps ?? null;
    this.observer = options.observer ?? null;
  }

  write(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const exclusive = this.overlaps !== null && !this.overlaps(item);
      if (exclusive) this.exclusiveQueued++;
      this.queue.push({ item, exclusive, queuedAt: performance.now(), resolve, reject });
      this.pump();
    });
  }

  /** Writes waiting for a batch. */
  queued(): number {
    return this.queue.length;
  }

  /** Resolves when every submitted write has settled (graceful shutdown). */
  drained(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(force = false): void {
    while (this.canStart(force)) {
      force = false;
      const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
      this.queue = this.queue.length <= this.maxBatch ? [] : this.queue.slice(this.maxBatch);
      const batchExclusive = this.exclusiveQueued === 0 ? 0 : batch.reduce((n, pending) => n + (pending.exclusive ? 1 : 0), 0);
      this.exclusiveQueued -= batchExclusive;
      const exclusive = batchExclusive > 0;
      this.observer?.batchStarted(batch.length, batch[0]!.queuedAt);
      this.running++;
      if (exclusive) this.exclusiveRunning++;
      void this.commit(batch).finally(() => {
        this.running--;
        if (exclusive) this.exclusiveRunning--;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    }
    const held = this.queue.length > 0 && this.running < this.slots && this.exclusiveRunning === 0 && this.exclusiveQueued === 0;
    if (!held && this.overdue !== null) {
      clearTimeout(this.overdue);
      this.overdue = null;
    } else if (held && this.overdue === null) {
      this.overdue = setTimeout(() => {
        this.overdue = null;
        this.pump(true);
      }, this.maxParallelWaitMs);
    }
  }

  private canStart(force: boolean): boolean {
    if (this.queue.length === 0 || this.running >= this.slots) return false;
    if (this.running === 0) return true;
    if (this.exclusiveRunning > 0 || this.exclusiveQueued > 0) return false;
    return force || this.queue.length >= this.minParallelBatch;
  }

  private async commit(batch: Pending<I, O>[]): Promise<void> {
    try {
      const results = await this.writeBatch(this.db, batch.map((p) => p.item));
      batch.forEach((pending, i) => pending.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      this.observer?.batchFailed();
      // Halves, not single items: one bad write in a batch of n costs about 2·log2(n) statements
      // instead of n, so a client sending poison cannot cut everyone's storing throughput.
      const middle = batch.length >>> 1;
      await this.commit(batch.slice(0, middle));
      await this.commit(batch.slice(middle));
    }
  }
}
