import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { bootstrap } from './services/projects.ts';
import { buildApp } from './app.ts';
import { bootstrapAdmin } from './services/dashboard/users.ts';

export interface RunningServer {
  app: FastifyInstance;
  db: Database;
  url: string;
  /** Set only on the very first start of an empty store. */
  bootstrapped: { projectId: string; apiKey: string } | null;
  /** Set when this start created the first dashboard admin; `oneTimePassword` null when BOOTSTRAP_ADMIN_PASSWORD was used. */
  bootstrappedAdmin: { email: string; oneTimePassword: string | null; projectId: string } | null;
  close(): Promise<void>;
}

/** Opens the store, migrates it, seeds an empty store and starts listening. */
export async function startServer(config: Config, options: { inMemory?: boolean } = {}): Promise<RunningServer> {
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    inMemory: options.inMemory,
    poolSize: config.databasePoolSize,
  });
  try {
    await migrate(db);
    const seeded = await bootstrap(db, config.bootstrapApiKey);
    const admin = await bootstrapAdmin(db, config.bootstrapAdmin);
    const app = await buildApp(config, db);
    const address = await app.listen({ port: config.port, host: config.host });
    const url = config.publicUrl ?? address.replace('[::1]', 'localhost');
    let closing: Promise<void> | null = null;
    return {
      app,
      db,
      url,
      bootstrapped: seeded ? { projectId: seeded.project.id, apiKey: seeded.apiKey } : null,
      bootstrappedAdmin: admin,
      close() {
        // In-flight requests finish (and their writes commit) before the store closes.
        closing ??= app.close().then(() => db.close());
        return closing;
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
