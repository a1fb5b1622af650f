import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * One narrow database interface over both stores. Services write plain
 * PostgreSQL 15 SQL against it, so the embedded PGlite store and a PostgreSQL
 * server run the same queries and the same migrations.
 */

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface QueryOptions {
  /** Hot statements: PostgreSQL parses and plans a named statement once per connection. */
  name?: string;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<Row>>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** How many transactions can usefully run at once. */
  readonly parallelism: number;
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Connections (or, embedded, statements) at work and waiting for one: for metrics. */
  stats(): StoreStats;
  close(): Promise<void>;
}

export interface StoreStats {
  /** PostgreSQL: connections running a statement; PGlite: statements sent to the worker and not yet answered. */
  busy: number;
  /** PostgreSQL: idle pooled connections; PGlite: 0. */
  idle: number;
  /** Statements or transactions waiting for a connection (PGlite: for a transaction holding the store). */
  waiting: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
// Timestamps are stored as bigint milliseconds; they stay far below 2^53.
const toNumber = (value: string) => Number(value);

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir?: string;
  /** PGlite only: keep everything in memory (tests). */
  inMemory?: boolean;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.inMemory ? null : (options.dataDir ?? './data'));
}

async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
  worker.once('exit', unlock);
  const pending = new Map<number, { resolve(r: QueryResult<unknown>): void; reject(e: unknown): void }>();
  let nextId = 1;
  let failure: Error | null = null;
  let closing: Promise<unknown> | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { ready?: boolean; id?: number; rows?: unknown[]; rowCount?: number; error?: { message: string; code?: string } }) => {
      if (message.ready) return resolve();
      const waiter = pending.get(message.id!);
      if (!waiter) return;
      pending.delete(message.id!);
      if (message.error) waiter.reject(Object.assign(new Error(message.error.message), message.error));
      else waiter.resolve({ rows: message.rows!, rowCount: message.rowCount! });
    });
  });
  // A statement sent to a stopped worker would never be answered: from then on every statement fails at once.
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of pending.values()) waiter.reject(failure);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('The embedded store is closed')));
  // An answer this thread cannot deserialize (a document nested too deeply for the structured
  // clone) arrives as 'messageerror' without its id. The worker answers strictly in the order it
  // was asked, so it belongs to the oldest statement still waiting, which fails instead of hanging.
  worker.on('messageerror', () => {
    const oldest = pending.entries().next();
    if (oldest.done) return;
    const [id, waiter] = oldest.value;
    pending.delete(id);
    waiter.reject(new Error('The embedded store answered with rows that could not be read (nested too deeply)'));
  });
  await ready;

  const send = <Row>(kind: 'query' | 'exec' | 'close', sql?: string, params?: readonly unknown[], name?: string) =>
    new Promise<QueryResult<Row>>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = nextId++;
      pending.set(id, { resolve: resolve as (r: QueryResult<unknown>) => void, reject });
      worker.postMessage({ id, kind, sql, params, name });
    });

  // One connection, and the worker runs messages strictly in arrival order. A transaction holds
  // the store until it ends, so nothing else is sent between its BEGIN and its COMMIT. Single
  // statements outside a transaction are sent at once (after any transaction already holding the
  // store): the worker starts the next as soon as one ends instead of waiting for this thread to
  // hear back and send it, which left the store idle between group-commit batches.
  let lock: Promise<void> = Promise.resolve();
  // Transactions begun and not yet ended, and single statements waiting for them: while either
  // is non-zero a new statement waits too, so statements are sent in the order they were issued.
  let holders = 0;
  let waiting = 0;
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    holders++;
    const result = lock.then(work).finally(() => holders--);
    lock = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };
  const pipelined = <T>(work: () => Promise<T>): Promise<T> => {
    if (holders === 0 && waiting === 0) return work();
    waiting++;
    return lock.then(() => {
      waiting--;
      return work();
    });
  };
  const direct: Queryable = {
    query: <Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) => send<Row>('query', sql, params, options?.name),
    exec: async (sql: string) => {
      await send('exec', sql);
    },
  };
  return {
    kind: 'pglite',
    // A second group-commit batch can wait in the worker's queue while the first runs.
    parallelism: 2,
    query: <Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) => pipelined(() => direct.query<Row>(sql, params, options)),
    exec: (sql: string) => exclusive(() => direct.exec(sql)),
    transaction: <T>(work: (tx: Queryable) => Promise<T>) =>
      exclusive(async () => {
        await direct.exec('BEGIN');
        try {
          const result = await work(direct);
          await direct.exec('COMMIT');
          return result;
        } catch (error) {
          await direct.exec('ROLLBACK').catch(() => {});
          throw error;
        }
      }),
    stats: () => ({ busy: pending.size, idle: 0, waiting: waiting + Math.max(0, holders - 1) }),
    close() {
      closing ??= exclusive(() => send('close')).finally(() => worker.terminate());
      return closing.then(() => undefined);
    },
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID || oid === NUMERIC_OID ? toNumber : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const wrap = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      const values = params as unknown[] | undefined;
      const result = await (options?.name ? client.query({ name: options.name, text: sql, ...(values ? { values } : {}) }) : client.query(sql, values));
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  const root = wrap(pool);
  await pool.query('SELECT 1');
  return {
    kind: 'postgres',
    parallelism: Math.max(1, poolSize - 1),
    query: root.query,
    exec: root.exec,
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    stats: () => ({ busy: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/**
 * A service written against a Database (it opens its own transaction) run inside a transaction
 * the caller already holds: its "transaction" is the caller's, so both commit or roll back together.
 */
export function withinTransaction(db: Database, tx: Queryable): Database {
  return {
    kind: db.kind,
    parallelism: 1,
    query: (sql, params, options) => tx.query(sql, params, options),
    exec: (sql) => tx.exec(sql),
    transaction: (work) => work(tx),
    stats: () => db.stats(),
    close: () => Promise.reject(new Error('A transaction handle cannot close the store')),
  };
}
