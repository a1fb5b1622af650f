import http from 'node:http';
import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { exited, persistentStore, startServerProcess } from './process.ts';

/**
 * Several server processes on one PostgreSQL database behind a round-robin proxy: the support of
 * test/cluster.test.ts and bench/cluster.ts.
 */

// ---- the proxy ----

export interface RoundRobinProxy {
  url: string;
  /** Backends that failed a connection; skipped from then on. */
  readonly down: ReadonlySet<string>;
  /** Answers passed on, per backend. */
  readonly answered: Map<string, number>;
  /** Requests sent again to the next backend because their connection was refused (they reached no server). */
  retried: number;
  /** Requests answered 502 because their backend failed after the request may have reached it. */
  failed: number;
  close(): Promise<void>;
}

const CONNECTION_LOST = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * A loopback HTTP proxy that sends each request to the next backend in turn. A backend whose
 * connection fails is taken out of the rotation. Only a request whose connection was refused
 * (ECONNREFUSED: it reached no server) is sent to the next backend; a request that may have reached
 * a dying backend is answered 502, so the client never counts it as acknowledged.
 */
export async function startRoundRobinProxy(backends: readonly string[]): Promise<RoundRobinProxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const down = new Set<string>();
  let next = 0;
  const pick = (): string | null => {
    for (let i = 0; i < backends.length; i++) {
      const backend = backends[next++ % backends.length]!;
      if (!down.has(backend)) return backend;
    }
    return null;
  };
  const fail = (res: http.ServerResponse, message: string) => {
    proxy.failed++;
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'BAD_GATEWAY', message }));
  };
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, attemptsLeft: number) => {
    const backend = pick();
    if (backend === null) return fail(res, 'no backend left');
    const target = new URL(req.url ?? '/', backend);
    const headers = { ...req.headers, host: target.host };
    delete headers.connection;
    const upstream = http.request(target, { method: req.method, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('aborted', () => res.destroy());
      answer.on('end', () => proxy.answered.set(backend, (proxy.answered.get(backend) ?? 0) + 1));
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code && CONNECTION_LOST.has(error.code)) down.add(backend);
      else if (/socket hang up/.test(error.message)) down.add(backend);
      if (error.code === 'ECONNREFUSED' && attemptsLeft > 1 && !res.headersSent) {
        proxy.retried++;
        return forward(req, res, body, attemptsLeft - 1);
      }
      fail(res, `backend ${backend}: ${error.message}`);
    });
    upstream.end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), backends.length));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: RoundRobinProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    down,
    answered: new Map(),
    retried: 0,
    failed: 0,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

// ---- a small JSON client ----

const clientAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface Answer {
  /** 0 when no answer came (the connection failed). */
  status: number;
  body: any;
}

/** One JSON request; never throws: a failed connection is status 0. */
export function call(baseUrl: string, method: string, path: string, key: string | null, body?: unknown): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = {};
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const request = http.request(new URL(path, baseUrl), { method, headers, agent: clientAgent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () => resolve({ status: 0, body: null }));
      response.on('aborted', () => resolve({ status: 0, body: null }));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text === '' ? null : JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: response.statusCode ?? 0, body: parsed });
      });
    });
    request.on('error', () => resolve({ status: 0, body: null }));
    request.end(payload);
  });
}

// ---- the cluster ----

export interface ClusterNode {
  url: string;
  child: ChildProcess;
  output(): string;
}

export interface Cluster {
  nodes: ClusterNode[];
  proxy: RoundRobinProxy;
  databaseUrl: string;
  apiKey: string;
  /** Kills every node (SIGKILL), closes the proxy and drops the database; safe to call twice. */
  close(): Promise<void>;
}

const started = new Set<ChildProcess>();
// A test runner that gives up on the file must not leave servers behind.
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

export async function killNode(node: ClusterNode): Promise<void> {
  if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
  await exited(node.child);
}

/** Starts `count` server processes together on one new PostgreSQL database (DATABASE_URL is the admin URL). */
export async function startCluster(count: number, env: Record<string, string> = {}): Promise<Cluster> {
  const store = await persistentStore();
  const databaseUrl = store.env.DATABASE_URL;
  if (!databaseUrl) {
    await store.dispose();
    throw new Error('a cluster needs PostgreSQL: set DATABASE_URL');
  }
  const apiKey = `cluster_${randomBytes(18).toString('base64url')}`;
  const nodes: ClusterNode[] = [];
  let proxy: RoundRobinProxy | null = null;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.all(nodes.map((node) => killNode(node)));
    await proxy?.close();
    await store.dispose();
  };
  try {
    // Started at once: the migration and bootstrap locks must make them agree on one schema and one project.
    const starting = Array.from({ length: count }, () =>
      startServerProcess({ ...store.env, BOOTSTRAP_API_KEY: apiKey, HOST: '127.0.0.1', ...env }),
    );
    const settled = await Promise.allSettled(starting);
    for (const result of settled) {
      if (result.status === 'fulfilled') {
        started.add(result.value.child);
        nodes.push({ url: result.value.url, child: result.value.child, output: result.value.output });
      }
    }
    const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    proxy = await startRoundRobinProxy(nodes.map((n) => n.url));
    return { nodes, proxy, databaseUrl, apiKey, close };
  } catch (error) {
    await close();
    throw error;
  }
}

// ---- storing load ----

export const RUDE_TEXT = 'What the fuck is wrong with you, idiot';

export interface LoadOptions {
  /** Content ids are `<prefix>-<n>`. */
  prefix: string;
  requests: number;
  concurrency: number;
  /** Called after every acknowledged (200) request with the count so far. */
  onAcknowledged?(count: number): void;
}

export interface LoadResult {
  /** Content ids sent at least once. */
  sent: Set<string>;
  /** Content ids answered 200 at least once. */
  acknowledged: Set<string>;
  /** Answers by status (0: no answer). */
  statuses: Map<number, number>;
  latenciesMs: number[];
  elapsedMs: number;
}

/**
 * POST /v1/moderate through `baseUrl`, `concurrency` requests in flight. Every fifth request
 * repeats the contentId of the one just before it, which the round robin sends to another node at
 * the same moment: two nodes storing one new item at once must store it once and both answer 200.
 */
export async function storeLoad(baseUrl: string, apiKey: string, options: LoadOptions): Promise<LoadResult> {
  const result: LoadResult = { sent: new Set(), acknowledged: new Set(), statuses: new Map(), latenciesMs: [], elapsedMs: 0 };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < options.requests) {
      const i = next++;
      const contentId = `${options.prefix}-${i % 5 === 1 ? i - 1 : i}`;
      const text = i % 3 === 0 ? `${RUDE_TEXT} (${contentId})` : `Lovely weather for a walk by the river (${contentId})`;
      result.sent.add(contentId);
      const t0 = performance.now();
      const answer = await call(baseUrl, 'POST', '/v1/moderate', apiKey, {
        content: { type: 'text', text },
        contentId,
        authorId: `author-${i % 17}`,
      });
      result.latenciesMs.push(performance.now() - t0);
      result.statuses.set(answer.status, (result.statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200) {
        result.acknowledged.add(contentId);
        options.onAcknowledged?.(result.acknowledged.size);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  result.elapsedMs = performance.now() - started;
  return result;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Every stored item's contentId, with the number of rows holding it. */
export async function storedItems(databaseUrl: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ external_id: string; n: string }>('SELECT external_id, count(*) AS n FROM content_items GROUP BY external_id');
    return new Map(rows.map((r) => [r.external_id, Number(r.n)]));
  } finally {
    await client.end();
  }
}

// ---- propagation ----

/**
 * Polls every node until `holds` is true of its answer; resolves with each node's time in ms from
 * the call (Infinity for a node that did not get there within `timeoutMs`).
 */
export async function timeUntilEveryNode(nodes: readonly ClusterNode[], probe: (node: ClusterNode) => Promise<boolean>, timeoutMs: number): Promise<number[]> {
  const t0 = performance.now();
  return Promise.all(
    nodes.map(async (node) => {
      while (performance.now() - t0 < timeoutMs) {
        if (await probe(node)) return performance.now() - t0;
        await new Promise((r) => setTimeout(r, 5));
      }
      return Infinity;
    }),
  );
}
