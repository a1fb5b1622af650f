import type { Redis } from 'ioredis';
import type { Queryable } from '../db/database.ts';

/**
 * Rate limits per API key and per project, and a monthly quota of moderation requests per project.
 *
 * Deciding on every request must not cost a round trip, so each node counts locally and, every
 * `syncMs`, adds what it counted to a shared counter (Redis when configured, else a table of the
 * store) and reads back the cluster's total. A request is refused when the last known total plus
 * what this node counted since reaches the limit. Across N nodes a window can overshoot by what
 * the other nodes admit within one sync interval; that is the price of keeping the hot path free of
 * I/O. When the shared counter cannot be reached, each node goes on limiting on its own counts.
 */

export type LimitScope = 'key' | 'project' | 'quota';

export interface LimitRule {
  scope: LimitScope;
  limit: number;
  /** Start and end of the window holding `now`. */
  window(now: number): { start: number; end: number };
}

export const fixedWindow = (scope: LimitScope, limit: number, windowMs: number): LimitRule => ({
  scope,
  limit,
  window: (now) => {
    const start = now - (now % windowMs);
    return { start, end: start + windowMs };
  },
});

export const perCalendarMonth = (scope: LimitScope, limit: number): LimitRule => ({
  scope,
  limit,
  window: (now) => {
    const date = new Date(now);
    return { start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1), end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) };
  },
});

export interface CounterDelta {
  key: string;
  windowStart: number;
  windowEnd: number;
  delta: number;
}

/** Adds deltas to shared counters and answers each counter's new total, in order. */
export interface SharedCounters {
  add(deltas: readonly CounterDelta[]): Promise<number[]>;
  close(): Promise<void>;
}

export function redisCounters(redis: Redis): SharedCounters {
  return {
    async add(deltas) {
      const pipeline = redis.pipeline();
      for (const d of deltas) {
        const key = `om:rate:${d.key}:${d.windowStart}`;
        pipeline.incrby(key, d.delta);
        pipeline.pexpireat(key, d.windowEnd + 60_000);
      }
      const replies = (await pipeline.exec()) ?? [];
      return deltas.map((_, i) => {
        const [error, value] = replies[i * 2] ?? [new Error('no reply'), null];
        if (error) throw error;
        return Number(value);
      });
    },
    async close() {
      redis.disconnect();
    },
  };
}

export function storeCounters(db: Queryable): SharedCounters {
  let lastSweep = 0;
  return {
    async add(deltas) {
      const now = Date.now();
      const { rows } = await db.query<{ scope_key: string; window_start: number; count: number }>(
        `INSERT INTO rate_counters AS c (scope_key, window_start, count, expires_at)
         SELECT * FROM unnest($1::text[], $2::int8[], $3::int8[], $4::int8[])
         ORDER BY 1, 2
         ON CONFLICT (scope_key, window_start) DO UPDATE SET count = c.count + EXCLUDED.count
         RETURNING scope_key, window_start, count`,
        [deltas.map((d) => d.key), deltas.map((d) => d.windowStart), deltas.map((d) => d.delta), deltas.map((d) => d.windowEnd + 60_000)],
      );
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        await db.query('DELETE FROM rate_counters WHERE expires_at < $1', [now]);
      }
      const totals = new Map(rows.map((row) => [`${row.scope_key}\u0000${row.window_start}`, Number(row.count)]));
      return deltas.map((d) => totals.get(`${d.key}\u0000${d.windowStart}`)!);
    },
    async close() {},
  };
}

interface Tally {
  rule: LimitRule;
  key: string;
  start: number;
  end: number;
  /** The cluster's total at the last sync. */
  shared: number;
  /** Counted here and not yet added to the shared counter. */
  unsent: number;
  /** Being added right now. */
  sending: number;
}

export type LimitDecision =
  | { allowed: true; limit: number; remaining: number; resetAt: number }
  | { allowed: false; scope: LimitScope; limit: number; retryAfterMs: number; resetAt: number };

export interface RateLimiterOptions {
  rules: { key: LimitRule | null; project: LimitRule | null; quota: LimitRule | null };
  shared: SharedCounters;
  syncMs: number;
  onSyncError?(error: unknown): void;
}

export class RateLimiter {
  private readonly tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  /** False after a failed sync, until one succeeds. */
  sharedReachable = true;

  constructor(private readonly options: RateLimiterOptions) {}

  get enabled(): boolean {
    const { key, project, quota } = this.options.rules;
    return key !== null || project !== null || quota !== null;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => void this.sync(), this.options.syncMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sync();
    await this.options.shared.close();
  }

  /** Counts one request of `keyId` in `projectId` (a moderation request also against the quota) if no limit refuses it. */
  check(keyId: string, projectId: string, countsAgainstQuota: boolean, now = Date.now()): LimitDecision {
    const { key, project, quota } = this.options.rules;
    const keyTally = key && this.tally(key, keyId, now);
    const projectTally = project && this.tally(project, projectId, now);
    const quotaTally = countsAgainstQuota && quota ? this.tally(quota, projectId, now) : null;
    // Checked and counted without building an array: this runs for every /v1 request.
    const refused = overLimit(keyTally) ?? overLimit(projectTally) ?? overLimit(quotaTally);
    if (refused) return { allowed: false, scope: refused.rule.scope, limit: refused.rule.limit, retryAfterMs: Math.max(1, refused.end - now), resetAt: refused.end };
    if (keyTally) keyTally.unsent++;
    if (projectTally) projectTally.unsent++;
    if (quotaTally) quotaTally.unsent++;
    // The headers speak of the tightest per-request limit: the key's, else the project's.
    const shown = keyTally ?? projectTally ?? quotaTally;
    if (!shown) return { allowed: true, limit: 0, remaining: 0, resetAt: 0 };
    return { allowed: true, limit: shown.rule.limit, remaining: Math.max(0, shown.rule.limit - used(shown)), resetAt: shown.end };
  }

  /** The project's monthly quota and what is left of it as this node knows it; null without a quota. */
  quota(projectId: string, now = Date.now()): { limit: number; remaining: number } | null {
    const rule = this.options.rules.quota;
    if (!rule) return null;
    const tally = this.tally(rule, projectId, now);
    return { limit: rule.limit, remaining: Math.max(0, rule.limit - used(tally)) };
  }

  private tally(rule: LimitRule, id: string, now: number): Tally {
    const { start, end } = rule.window(now);
    const name = `${rule.scope}:${id}`;
    const mapKey = `${name}\u0000${start}`;
    let tally = this.tallies.get(mapKey);
    if (tally === undefined) {
      tally = { rule, key: name, start, end, shared: 0, unsent: 0, sending: 0 };
      this.tallies.set(mapKey, tally);
    }
    return tally;
  }

  /** Adds what was counted here to the shared counters and learns the cluster's totals. */
  sync(): Promise<void> {
    this.syncing ??= this.syncOnce().finally(() => (this.syncing = null));
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const now = Date.now();
    const batch: Tally[] = [];
    for (const [mapKey, tally] of this.tallies) {
      if (tally.end <= now && tally.unsent === 0) {
        this.tallies.delete(mapKey);
        continue;
      }
      batch.push(tally);
    }
    if (batch.length === 0) return;
    for (const tally of batch) {
      tally.sending = tally.unsent;
      tally.unsent = 0;
    }
    try {
      const totals = await this.options.shared.add(batch.map((t) => ({ key: t.key, windowStart: t.start, windowEnd: t.end, delta: t.sending })));
      batch.forEach((tally, i) => {
        tally.shared = totals[i]!;
        tally.sending = 0;
      });
      this.sharedReachable = true;
    } catch (error) {
      // Kept for the next sync; meanwhile this node limits on what it has counted itself.
      for (const tally of batch) {
        tally.unsent += tally.sending;
        tally.sending = 0;
      }
      if (this.sharedReachable) this.options.onSyncError?.(error);
      this.sharedReachable = false;
    }
  }
}

const used = (tally: Tally): number => tally.shared + tally.unsent + tally.sending;
const overLimit = (tally: Tally | null | false): Tally | undefined => (tally && used(tally) >= tally.rule.limit ? tally : undefined);
