import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import { countQueueItems, type ItemKey, type Queue } from './queues.ts';

/**
 * Each review queue's open items ("open now" on the dashboard's overview), counted exactly in the
 * background and kept in queue_open_counts (migration 0075), so that reading them costs one small
 * row per queue whatever the number of stored items. The count is GET /v1/queue's
 * (`countQueueItems`). One node of a cluster counts at a time (a lease row in job_leases).
 *
 * Schedule: a queue is counted at once when it has no count yet or its filter changed since its
 * count, and otherwise again QUEUE_COUNT_INTERVAL_MS after its last count, but never sooner than
 * DURATION_FACTOR times the time all of its project's queues took to count last: a project whose
 * counts take 10 s is counted every 10 × (the sum) at most, so counting takes at most a tenth of
 * the one connection the job uses.
 *
 * PostgreSQL: one statement per queue under `statement_timeout`, cancelled when the server stops
 * (pg_cancel_backend) rather than waited for. PGlite has one connection, and a
 * statement holds it until it ends: there the count goes through the project's items in
 * index-ordered slices of PGLITE_SLICE_ROWS, pausing between slices as long as the slice took, so
 * requests wait at most about one slice; it gives up after the time limit. The slices are not one
 * snapshot: items stored or resolved while a count runs may be missed until the next count.
 */

export const DURATION_FACTOR = 10;
export const PGLITE_SLICE_ROWS = 5_000;
/** How often a node asks for the lease and for due queues (at most; less when the interval is shorter). */
export const MAX_TICK_MS = 5_000;
const LEASE_NAME = 'queue_counts';
/** Queues counted per round; a full round is followed by another at once. */
const ROUND_SIZE = 20;

export interface OpenCount {
  /** Open items when the count was made; null until a count of the current filter succeeded. */
  open: number | null;
  countedAt: number | null;
  durationMs: number;
  /** Why the last count failed (e.g. it ran out of time); null when it succeeded. */
  error: string | null;
}

class CountStopped extends Error {}

export interface CountOptions {
  timeoutMs: number;
  /** PGlite: the slice size (null: one statement, PostgreSQL). */
  sliceRows: number | null;
  stopping?: () => boolean;
  /** PostgreSQL: the count's application_name, for its transaction only, so that stopping can find and cancel it. */
  sessionName?: string;
}

/** The queue's open items now, exactly (see the module's comment for PGlite's slices). */
export async function countOpenItems(db: Database, queue: Queue, options: CountOptions): Promise<number> {
  if (options.sliceRows === null) {
    return db.transaction(async (tx) => {
      await tx.query(`SET LOCAL statement_timeout = ${Math.floor(options.timeoutMs)}`);
      // Local to the transaction: the pooled connection goes back unnamed, so a late cancel cannot hit another query.
      if (options.sessionName) await tx.query("SELECT set_config('application_name', $1, true)", [options.sessionName]);
      if (options.stopping?.()) throw new CountStopped('stopped');
      const { total, resolved } = await countQueueItems(tx, queue);
      return total - resolved;
    });
  }
  const deadline = Date.now() + options.timeoutMs;
  let before: ItemKey | undefined;
  let open = 0;
  for (;;) {
    if (options.stopping?.()) throw new CountStopped('stopped');
    if (Date.now() > deadline) throw new Error(`the count took longer than ${options.timeoutMs} ms`);
    const t0 = performance.now();
    const from = await sliceStart(db, queue.projectId, before, options.sliceRows);
    const { total, resolved } = await countQueueItems(db, queue, { before, from });
    open += total - resolved;
    if (!from) return open;
    before = from;
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, performance.now() - t0)));
  }
}

/** The last key of the next slice of `rows` items after `before`; undefined when fewer remain. */
async function sliceStart(db: Queryable, projectId: string, before: ItemKey | undefined, rows: number): Promise<ItemKey | undefined> {
  const params: unknown[] = [projectId, rows - 1];
  const after = before ? 'AND (ci.created_at, ci.id) < ($3::bigint, $4::text)' : '';
  if (before) params.push(before.createdAt, before.id);
  const { rows: found } = await db.query<{ created_at: number; id: string }>(
    `SELECT ci.created_at, ci.id FROM content_items ci WHERE ci.project_id = $1 ${after}
     ORDER BY ci.created_at DESC, ci.id DESC OFFSET $2 LIMIT 1`,
    params,
  );
  return found[0] ? { createdAt: Number(found[0].created_at), id: found[0].id } : undefined;
}

/** Queues to count now, those without a count of their current filter first. */
export async function dueQueues(db: Queryable, now: number, intervalMs: number, limit = ROUND_SIZE): Promise<Queue[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT q.* FROM queues q
     LEFT JOIN queue_open_counts c ON c.queue_id = q.id
     LEFT JOIN (SELECT project_id, sum(duration_ms) AS spent FROM queue_open_counts GROUP BY project_id) p ON p.project_id = q.project_id
     WHERE c.queue_id IS NULL OR c.filter <> q.filter OR c.attempted_at + GREATEST($2::bigint, $3::bigint * p.spent) <= $1
     ORDER BY (c.queue_id IS NULL OR c.filter <> q.filter) DESC, c.attempted_at NULLS FIRST, q.id
     LIMIT $4`,
    [now, intervalMs, DURATION_FACTOR, limit],
  );
  return rows.map((r) => ({
    id: r.id as string,
    projectId: r.project_id as string,
    name: r.name as string,
    description: r.description as string,
    filter: r.filter as Queue['filter'],
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}

/**
 * Counts one queue and writes the result; a failed count keeps the previous figure of the same filter. A count of a
 * filter the queue no longer has, or one started before the stored count (a node that lost its lease while it
 * waited), is not written.
 */
export async function recountQueue(db: Database, queue: Queue, node: string, options: CountOptions): Promise<OpenCount> {
  const started = Date.now();
  const t0 = performance.now();
  let open: number | null = null;
  let error: string | null = null;
  try {
    open = await countOpenItems(db, queue, options);
  } catch (e) {
    // Stopping cancels a count under way: not a failure of the count, and nothing is written.
    if (e instanceof CountStopped || options.stopping?.()) throw new CountStopped('stopped');
    error = e instanceof Error ? e.message : String(e);
  }
  const durationMs = Math.round(performance.now() - t0);
  await db.query(
    `INSERT INTO queue_open_counts (queue_id, project_id, filter, open_count, counted_at, attempted_at, duration_ms, counted_by, error)
     SELECT q.id, q.project_id, $2::jsonb, $3::bigint, $4::bigint, $5::bigint, $6::int, $7, $8 FROM queues q WHERE q.id = $1 AND q.filter = $2::jsonb
     ON CONFLICT (queue_id) DO UPDATE SET
       open_count = CASE WHEN EXCLUDED.error IS NULL THEN EXCLUDED.open_count WHEN queue_open_counts.filter = EXCLUDED.filter THEN queue_open_counts.open_count END,
       counted_at = CASE WHEN EXCLUDED.error IS NULL THEN EXCLUDED.counted_at WHEN queue_open_counts.filter = EXCLUDED.filter THEN queue_open_counts.counted_at END,
       filter = EXCLUDED.filter, attempted_at = EXCLUDED.attempted_at, duration_ms = EXCLUDED.duration_ms,
       counted_by = EXCLUDED.counted_by, error = EXCLUDED.error
     WHERE queue_open_counts.attempted_at <= EXCLUDED.attempted_at`,
    [queue.id, JSON.stringify(queue.filter), open, error === null ? started : null, started, durationMs, node, error],
  );
  return { open, countedAt: error === null ? started : null, durationMs, error };
}

/** The project's counts of its queues' current filters (every project's with null), by queue id (a queue missing has none yet). */
export async function openCounts(db: Queryable, projectId: string | null): Promise<Map<string, OpenCount>> {
  const { rows } = await db.query<{ queue_id: string; open_count: number | null; counted_at: number | null; duration_ms: number; error: string | null }>(
    `SELECT c.queue_id, c.open_count, c.counted_at, c.duration_ms, c.error FROM queue_open_counts c
     JOIN queues q ON q.id = c.queue_id AND q.filter = c.filter WHERE ($1::text IS NULL OR c.project_id = $1)`,
    [projectId],
  );
  return new Map(
    rows.map((r) => [
      r.queue_id,
      { open: r.open_count == null ? null : Number(r.open_count), countedAt: r.counted_at == null ? null : Number(r.counted_at), durationMs: Number(r.duration_ms), error: r.error },
    ]),
  );
}

export interface QueueCountJobOptions {
  intervalMs: number;
  timeoutMs: number;
  onError?(error: unknown): void;
}

/** The background loop: started and stopped with the server, like the outbox dispatcher. */
export class QueueCountJob {
  /** This node's name in the lease and in counted_by. */
  readonly node = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** Queues this node has counted since it started (tests, diagnosis). */
  counted = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  /** Set by stop(): a count under way gives up (PGlite, between slices) and no further one starts. */
  private stopping = false;
  private again = false;
  /** PostgreSQL: the application_name of this job's counts (names are cut at 63 bytes by the server). */
  private readonly sessionName: string;
  private readonly tickMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly db: Database,
    private readonly options: QueueCountJobOptions,
  ) {
    this.tickMs = Math.min(MAX_TICK_MS, options.intervalMs);
    // Renewed before every queue's count, which may take up to the time limit.
    this.leaseMs = options.timeoutMs + 30_000;
    this.sessionName = `om-queue-count ${this.node}`.slice(0, 63);
  }

  start(): void {
    this.stopped = false;
    this.stopping = false;
    this.schedule(0);
  }

  /** A queue was created or its filter changed: look for due queues now instead of at the next tick. */
  poke(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A count of a large project may take minutes: a stopping server does not wait for it. A cancel that reaches the
    // server before the statement starts is lost, so it is repeated until the round ends.
    if (this.running && this.db.kind !== 'pglite') {
      let settled = false;
      const round = this.running.finally(() => (settled = true));
      while (!settled) {
        await this.db
          .query('SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [this.sessionName])
          .catch(() => {});
        await Promise.race([round, new Promise((resolve) => setTimeout(resolve, 100))]);
      }
    }
    await this.running;
    // Another node may take over at once instead of when the lease expires.
    await this.db.query('DELETE FROM job_leases WHERE name = $1 AND holder = $2', [LEASE_NAME, this.node]).catch(() => {});
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.again = false;
      this.running = this.runOnce()
        .catch((error) => {
          if (!(error instanceof CountStopped)) this.options.onError?.(error);
          return 0;
        })
        .then((counted) => {
          this.running = null;
          this.schedule(counted >= ROUND_SIZE || this.again ? 0 : this.tickMs);
        });
    }, delay);
    this.timer.unref();
  }

  /** Takes (or renews) the lease; false when another node holds it. */
  private async lease(): Promise<boolean> {
    const now = Date.now();
    const { rows } = await this.db.query(
      `INSERT INTO job_leases (name, holder, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE job_leases.holder = EXCLUDED.holder OR job_leases.expires_at < $4
       RETURNING holder`,
      [LEASE_NAME, this.node, now + this.leaseMs, now],
    );
    return rows.length === 1;
  }

  /** One round: the due queues, if this node holds the lease; returns how many were counted. */
  async runOnce(): Promise<number> {
    if (!(await this.lease())) return 0;
    const due = await dueQueues(this.db, Date.now(), this.options.intervalMs);
    let counted = 0;
    for (const queue of due) {
      if (this.stopping || !(await this.lease())) break;
      await recountQueue(this.db, queue, this.node, {
        timeoutMs: this.options.timeoutMs,
        sliceRows: this.db.kind === 'pglite' ? PGLITE_SLICE_ROWS : null,
        stopping: () => this.stopping,
        sessionName: this.sessionName,
      });
      counted++;
      this.counted++;
    }
    return counted;
  }
}
