import pg from 'pg';
import type { Queryable } from './database.ts';

/**
 * Nodes keep API keys, channels and compiled wordlists in memory. A change made through one node
 * (or the CLI) is announced with PostgreSQL's NOTIFY, and every node LISTENing drops its cached
 * copies at once instead of serving them until their TTL ends.
 *
 * The embedded store is single-process: there the announcement reaches no other process, and no
 * listener runs (the node that wrote already dropped its own copies).
 */

export const CHANGE_CHANNEL = 'om_cache_changes';

export type ChangeTopic = 'api_keys' | 'channels' | 'wordlists' | 'image_hash_lists';

const TOPICS: ReadonlySet<string> = new Set<ChangeTopic>(['api_keys', 'channels', 'wordlists', 'image_hash_lists']);

/** What changed; `null` when it is unknown (a missed or unreadable notification): drop everything. */
export type Change = { topic: ChangeTopic; projectId: string | null } | null;

/**
 * Announces a change to every node. On a transaction handle it goes out at COMMIT, so no node
 * hears of a change that was rolled back, and every node that hears of it can already read it.
 */
export async function announceChange(db: Queryable, topic: ChangeTopic, projectId: string | null): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, JSON.stringify({ topic, projectId })]);
}

export function parseChange(payload: string | undefined): Change {
  try {
    const parsed = JSON.parse(payload ?? '') as { topic?: unknown; projectId?: unknown };
    if (typeof parsed.topic === 'string' && TOPICS.has(parsed.topic)) {
      return { topic: parsed.topic as ChangeTopic, projectId: typeof parsed.projectId === 'string' ? parsed.projectId : null };
    }
  } catch {
    // unreadable: treated as "anything may have changed"
  }
  return null;
}

export interface ChangeListener {
  /** True while the LISTEN connection is up; while it is down, caches fall back on their TTL. */
  readonly connected: boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  onChange(change: Change): void;
  /** Called once per outage (the first failure after being connected, or of the first attempt). */
  onConnectionLost?(error: unknown): void;
  /** Wait before connecting again after the connection dropped. */
  reconnectMs?: number;
}

/**
 * One dedicated connection (outside the pool) LISTENs on the change channel and reconnects when
 * it drops. After every (re)connection it reports `null`: changes made while it was away were
 * not heard, so everything cached is dropped.
 */
export function listenForChanges(databaseUrl: string, options: ListenOptions): ChangeListener {
  const reconnectMs = options.reconnectMs ?? 1_000;
  let client: pg.Client | null = null;
  let connected = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let connecting: Promise<void> | null = null;
  // Reported once per outage, not at every failed attempt to reconnect.
  let outageReported = false;

  const lost = (current: pg.Client, error: unknown) => {
    if (client !== current) return;
    client = null;
    connected = false;
    current.removeAllListeners('notification');
    void current.end().catch(() => {});
    if (closed) return;
    if (!outageReported) options.onConnectionLost?.(error);
    outageReported = true;
    timer = setTimeout(connect, reconnectMs);
    timer.unref();
  };

  function connect(): void {
    timer = null;
    if (closed) return;
    const current = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    client = current;
    current.on('error', (error) => lost(current, error));
    current.on('end', () => lost(current, new Error('the LISTEN connection ended')));
    current.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL) options.onChange(parseChange(message.payload));
    });
    connecting = current
      .connect()
      .then(() => current.query(`LISTEN ${CHANGE_CHANNEL}`))
      .then(
        () => {
          if (client !== current) return;
          connected = true;
          outageReported = false;
          options.onChange(null);
        },
        (error) => lost(current, error),
      )
      .finally(() => (connecting = null));
  }

  connect();
  return {
    get connected() {
      return connected;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await connecting;
      const current = client;
      client = null;
      connected = false;
      await current?.end().catch(() => {});
    },
  };
}
