import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from './database.ts';
import { migrate } from './migrate.ts';

/**
 * A fresh, migrated store for one test file: a new PostgreSQL database when
 * DATABASE_URL is set (dropped on close), else an in-memory PGlite.
 */
export async function createTestDatabaseUrl(): Promise<{ url: string | null; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return { url: null, drop: async () => {} };
  const name = `om_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function openTestDatabase(): Promise<Database> {
  const target = await createTestDatabaseUrl();
  const db = await openDatabase({ databaseUrl: target.url, inMemory: true, poolSize: 4 });
  await migrate(db);
  const close = db.close;
  return { ...db, close: async () => { await close(); await target.drop(); } };
}
