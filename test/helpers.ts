import { randomBytes } from 'node:crypto';
import ModerationAPI from '@moderation-api/sdk';
import { createTestDatabaseUrl } from '../src/db/testing.ts';
import { loadConfig } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { createProject } from '../src/services/projects.ts';

/**
 * A real server on a real port for API-level tests. With DATABASE_URL set it
 * runs on a fresh PostgreSQL database created for this server (dropped on
 * close); otherwise on an in-memory PGlite store.
 */
export interface TestServer {
  server: RunningServer;
  url: string;
  baseURL: string;
  apiKey: string;
  projectId: string;
  /** The first dashboard admin (of `projectId`), created at start. */
  admin: { email: string; password: string };
  request(method: string, path: string, options?: { body?: unknown; rawBody?: string; key?: string | null; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  newProject(): Promise<{ projectId: string; apiKey: string }>;
  close(): Promise<void>;
}

const TEST_ADMIN_EMAIL = 'admin@example.test';
const TEST_ADMIN_PASSWORD = 'test-admin-password';

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const target = await createTestDatabaseUrl();
  const databaseUrl = target.url;
  const dropDatabase = target.drop;
  const apiKey = `test_${randomBytes(18).toString('base64url')}`;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    BOOTSTRAP_API_KEY: apiKey,
    BOOTSTRAP_ADMIN_EMAIL: TEST_ADMIN_EMAIL,
    BOOTSTRAP_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '4' } : {}),
    ...env,
  });
  const server = await startServer(config, { inMemory: true });
  const url = server.url;
  return {
    server,
    url,
    baseURL: `${url}/v1`,
    apiKey,
    projectId: server.bootstrapped!.projectId,
    admin: { email: env.BOOTSTRAP_ADMIN_EMAIL ?? TEST_ADMIN_EMAIL, password: env.BOOTSTRAP_ADMIN_PASSWORD ?? TEST_ADMIN_PASSWORD },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? apiKey : options.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async newProject() {
      const { project, apiKey: key } = await createProject(server.db, 'another project');
      return { projectId: project.id, apiKey: key };
    },
    async close() {
      await server.close();
      await dropDatabase();
    },
  };
}

/** Counts rows of a table for one project, straight from the store. */
export async function countRows(test: TestServer, table: 'content_items' | 'authors' | 'outbox' | 'channels', projectId = test.projectId): Promise<number> {
  const { rows } = await test.server.db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE project_id = $1`, [projectId]);
  return rows[0]!.n;
}

/** The official SDK pointed at a test server, with retries off so every failure shows. */
export function sdkClient(test: TestServer, secretKey = test.apiKey): ModerationAPI {
  return new ModerationAPI({ secretKey, baseURL: test.baseURL, maxRetries: 0 });
}
