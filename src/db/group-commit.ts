import type { Database, Queryable } from './database.ts';

type Work<T> = (tx: Queryable) => Promise<T>;

interface Pending {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Group commit: writes of concurrent requests share one transaction, so the
 * cost of a commit is paid once per batch instead of once per request. Each
 * caller's promise settles only after the batch's COMMIT, so durability is
 * unchanged: nothing is acknowledged before it is on disk.
 *
 * A batch starts as soon as a transaction slot is free; whatever arrives while
 * it runs forms the next batch. If a batch fails, its units are retried one by
 * one so a single bad write cannot fail its neighbours.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: Database,
    private readonly slots = db.parallelism,
    private readonly maxBatch = 200,
  ) {}

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** Resolves when every submitted write has settled (graceful shutdown). */
  drained(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.slots && this.queue.length > 0) {
      const batch = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch);
      this.queue = this.queue.length <= this.maxBatch ? [] : this.queue.slice(this.maxBatch);
      this.running++;
      void this.commit(batch).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    try {
      const results = await this.db.transaction(async (tx) => {
        const out: unknown[] = [];
        for (const unit of batch) out.push(await unit.work(tx));
        return out;
      });
      batch.forEach((unit, i) => unit.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const unit of batch) {
        try {
          unit.resolve(await this.db.transaction(unit.work));
        } catch (unitError) {
          unit.reject(unitError);
        }
      }
    }
  }
}
