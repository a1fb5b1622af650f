import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * One narrow database interface over both stores. Services write plain
 * PostgreSQL 15 SQL against it, so the embedded PGlite store and a PostgreSQL
 * server run the same queries and the same migrations.
 */

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** How many transactions can usefully run at once. */
  readonly parallelism: number;
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
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
  const db = await PGlite.create(dataDir ?? undefined, {
    parsers: { [INT8_OID]: toNumber, [NUMERIC_OID]: toNumber },
  });
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const result = await q.query<Row>(sql, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  const root = wrap(db);
  return {
    kind: 'pglite',
    parallelism: 1,
    query: root.query,
    exec: root.exec,
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    close: () => db.close(),
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
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const result = await client.query(sql, params as unknown[] | undefined);
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
    close: () => pool.end(),
  };
}
