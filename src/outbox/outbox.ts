import type { Database, Queryable } from '../db/database.ts';

/**
 * The transactional outbox. A change and the side effects it causes
 * (webhooks, timed expiries) are written in one transaction; a dispatcher on
 * any node delivers them afterwards, at least once.
 */

export interface OutboxEvent {
  id: number;
  projectId: string;
  topic: string;
  payload: Record<string, unknown>;
  attempts: number;
  createdAt: number;
}

export interface EnqueueOptions {
  projectId: string;
  topic: string;
  payload: Record<string, unknown>;
  /** Earliest delivery time (ms); now by default. Timed jobs such as block expiries use it. */
  availableAt?: number;
}

export async function enqueue(tx: Queryable, event: EnqueueOptions): Promise<number> {
  const now = Date.now();
  const { rows } = await tx.query<{ id: number }>(
    'INSERT INTO outbox (project_id, topic, payload, available_at, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [event.projectId, event.topic, JSON.stringify(event.payload), event.availableAt ?? now, now],
  );
  return rows[0]!.id;
}

/** Events waiting for delivery and how late the oldest due one is (metrics). */
export async function outboxBacklog(db: Queryable, now = Date.now()): Promise<{ pending: number; lagMs: number }> {
  const { rows } = await db.query<{ pending: number; oldest: number | null }>(
    'SELECT count(*) AS pending, min(available_at) AS oldest FROM outbox WHERE done_at IS NULL AND available_at <= $1',
    [now],
  );
  const oldest = rows[0]!.oldest;
  return { pending: rows[0]!.pending, lagMs: oldest === null ? 0 : Math.max(0, now - oldest) };
}

export interface TopicHandler {
  handle(event: OutboxEvent): Promise<void>;
  /** Attempts before the event is given up (kept, with its last error). */
  maxAttempts: number;
  /** Delay before attempt n+1 after n failures. */
  backoffMs(attempts: number): number;
}

export const exponentialBackoff =
  (baseMs: number, capMs: number) =>
  (attempts: number): number =>
    Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));

export interface DispatcherOptions {
  pollMs?: number;
  batchSize?: number;
  /** How long a claimed event stays invisible to other nodes while its handler runs. */
  leaseMs?: number;
  onError?(error: unknown, event?: OutboxEvent): void;
}

/**
 * Polls the outbox, claims due events with a lease (so several nodes never
 * work the same event at once, and an event claimed by a node that died is
 * picked up again when its lease ends), runs the topic's handler, and marks
 * the event done or schedules its next attempt.
 */
export class OutboxDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly leaseMs: number;

  constructor(
    private readonly db: Database,
    private readonly handlers: Map<string, TopicHandler>,
    private readonly options: DispatcherOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.batchSize = options.batchSize ?? 50;
    this.leaseMs = options.leaseMs ?? 60_000;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Wakes the dispatcher now instead of at the next poll (after a commit that enqueued events). */
  poke(): void {
    if (!this.stopped && this.running === null) this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.runOnce()
        .then((processed) => processed)
        .catch((error) => {
          this.options.onError?.(error);
          return 0;
        })
        .then((processed) => {
          this.running = null;
          this.schedule(processed >= this.batchSize ? 0 : this.pollMs);
        });
    }, delay);
  }

  /** Claims and handles one batch of due events; returns how many were claimed. */
  async runOnce(now = Date.now()): Promise<number> {
    const topics = [...this.handlers.keys()];
    if (topics.length === 0) return 0;
    const claimed = await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<Record<string, unknown>>(
        `UPDATE outbox SET available_at = $1, attempts = attempts + 1
         WHERE id IN (
           SELECT id FROM outbox WHERE done_at IS NULL AND available_at <= $2 AND topic = ANY($3::text[])
           ORDER BY available_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING id, project_id, topic, payload, attempts, created_at`,
        [now + this.leaseMs, now, topics, this.batchSize],
      );
      return rows.map(
        (r): OutboxEvent => ({
          id: r.id as number,
          projectId: r.project_id as string,
          topic: r.topic as string,
          payload: r.payload as Record<string, unknown>,
          attempts: r.attempts as number,
          createdAt: r.created_at as number,
        }),
      );
    });
    await Promise.all(claimed.map((event) => this.handle(event)));
    return claimed.length;
  }

  private async handle(event: OutboxEvent): Promise<void> {
    const handler = this.handlers.get(event.topic)!;
    try {
      await handler.handle(event);
      await this.db.query('UPDATE outbox SET done_at = $2, last_error = NULL WHERE id = $1', [event.id, Date.now()]);
    } catch (error) {
      this.options.onError?.(error, event);
      const message = error instanceof Error ? error.message : String(error);
      if (event.attempts >= handler.maxAttempts) {
        // Given up: kept with its error, out of the pending index.
        await this.db.query('UPDATE outbox SET done_at = $2, last_error = $3 WHERE id = $1', [event.id, Date.now(), `gave up: ${message}`]);
      } else {
        await this.db.query('UPDATE outbox SET available_at = $2, last_error = $3 WHERE id = $1', [
          event.id,
          Date.now() + handler.backoffMs(event.attempts),
          message,
        ]);
      }
    }
  }
}
