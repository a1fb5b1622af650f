import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

// Any fixed number works; it only has to be the same on every node.
const MIGRATION_LOCK_KEY = 4_815_162_342;

/**
 * Applies pending `migrations/NNNN_name.sql` files in order, each in the
 * same transaction as its bookkeeping row. An advisory lock lets several
 * nodes start at once against one PostgreSQL without racing.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name))
    .sort();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at bigint NOT NULL)',
    );
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.exec(fs.readFileSync(path.join(dir, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [file, Date.now()]);
      applied.push(file);
    }
    return applied;
  });
}
