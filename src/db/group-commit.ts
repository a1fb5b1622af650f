import type { Database } from './database.ts';

/**
 * Writes a whole batch atomically (one transaction, or one statement, which is
 * its own transaction); returns one result per item, in order.
 */
export type BatchWriter<I, O> = (db: Database, items: readonly I[]) => Promise<O[]>;

interface Pending<I, O> {
  item: I;
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
 * its items are retried one by one so a single bad write cannot fail its
 * neighbours.
 */
export class GroupCommitter<I, O> {
  private queue: Pending<I, O>[] = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  private overdue: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly db: Database,
    private readonly writeBatch: BatchWriter<I, O>,
    private readonly slots = db.parallelism,
    private readonly minParallelBatch = 1,
    private readonly maxBatch = 500,
    private readonly maxParallelWaitMs = 5,
  ) {}

  write(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  /** Resolves when every submitted write has settled (graceful shutdown). */
  drained(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(force = false): void {
    while (this.running < this.slots && this.queue.length > 0 && (force || this.running === 0 || this.queue.length >= this.minParallelBatch)) {
      force = false;
      const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
      this.queue = this.queue.length <= this.maxBatch ? [] : this.queue.slice(this.maxBatch);
      this.running++;
      void this.commit(batch).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    }
    const held = this.queue.length > 0 && this.running < this.slots;
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

  private async commit(batch: Pending<I, O>[]): Promise<void> {
    try {
      const results = await this.writeBatch(this.db, batch.map((p) => p.item));
      batch.forEach((pending, i) => pending.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const pending of batch) {
        try {
          const [result] = await this.writeBatch(this.db, [pending.item]);
          pending.resolve(result!);
        } catch (itemError) {
          pending.reject(itemError);
        }
      }
    }
  }
}
