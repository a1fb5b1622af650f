/**
 * npm run bench: the service against a bare Fastify JSON echo, on the same
 * machine, in the same run, with the same 280-character message. Prints
 * req/s, p50 and p99, and each run's req/s as a share of the echo's, measured just before
 * and just after that run. With DATABASE_URL set, the service runs are
 * repeated on PostgreSQL (in a fresh database). BENCH_ONLY (a part of a run's name, e.g. "new message")
 * runs only the service runs whose names contain it, each still between two echo runs. BENCH_PROFILE_DIR
 * starts the service with `--cpu-prof` into that directory (a profile of its main thread per service run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { BENCH_MESSAGE, distinctBenchMessage } from './message.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Request numbers of the warm-ups start here: their contentIds and authors are not the measured run's. */
const WARM_UP_BASE = 1_000_000_000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONLY = process.env.BENCH_ONLY ?? '';
const selected = (name: string): boolean => name.includes(ONLY);

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The echo's req/s this run is compared with. */
  baseline?: number;
}

function start(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const profile = script === 'src/main.ts' && process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
    const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LISTENING (\S+)|API base URL:\s+(\S+)\/v1/.exec(out);
      if (match) resolve({ child, url: (match[1] ?? match[2])! });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
}

/**
 * A constant body is sent as autocannon's fixed body, as the echo's is; a function builds each
 * request's body, which costs the load generator a callback and a JSON.stringify per request on
 * the cores the server shares with it.
 */
type Body = string | ((i: number) => string);

/** autocannon's options for `body`; a built body takes its request numbers from `first` on. */
function bodyOptions(body: Body, first: number): Pick<autocannon.Options, 'body' | 'requests'> {
  if (typeof body === 'string') return { body };
  let i = first;
  return { requests: [{ setupRequest: (req) => ({ ...req, body: body(i++) }) }] };
}

async function load(name: string, url: string, body: Body, headers: Record<string, string> = {}): Promise<Row> {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { 'content-type': 'application/json', ...headers },
    ...bodyOptions(body, 0),
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/**
 * One service run, with the echo measured right before and right after it: the host under a VM
 * changes speed from minute to minute, so each run is compared with the mean of the echo runs
 * on either side of it. The echo after one run is the echo before the next.
 */
let lastEcho: Row | null = null;
async function compared(measureEcho: () => Promise<Row>, run: () => Promise<Row>, rows: Row[]) {
  const before = lastEcho ?? (await measureEcho());
  const row = await run();
  rows.push(row);
  const after = await measureEcho();
  row.baseline = (before.rps + after.rps) / 2;
  lastEcho = after;
}

async function benchService(label: string, env: Record<string, string>, key: string, rows: Row[], measureEcho: () => Promise<Row>) {
  // The benchmark measures throughput, not the default rate limit of one key.
  const service = await start('src/main.ts', { RATE_LIMIT_PER_KEY: '0', ...env, PORT: '0', LOG_LEVEL: 'warn', BOOTSTRAP_API_KEY: key });
  try {
    const url = `${service.url}/v1/moderate`;
    const auth = { authorization: `Bearer ${key}` };
    const run = randomBytes(4).toString('hex');
    // The two runs send the echo's payload (doNotStore adds its flag) as one constant body,
    // driven exactly as the echo is. Without a contentId every stored request is a new item under
    // an id the service generates.
    const scenarios: Array<[string, Body]> = [
      [`${label}: /v1/moderate doNotStore`, JSON.stringify({ content: { type: 'text', text: BENCH_MESSAGE }, doNotStore: true })],
      [`${label}: /v1/moderate storing`, JSON.stringify({ content: { type: 'text', text: BENCH_MESSAGE } })],
      [`${label}: storing, a new contentId each request`, (i) => JSON.stringify({ content: { type: 'text', text: BENCH_MESSAGE }, contentId: `${run}-${i}` })],
      [`${label}: storing, with authorId (500 authors)`, (i) => JSON.stringify({ content: { type: 'text', text: BENCH_MESSAGE }, contentId: `${run}-a${i}`, authorId: `author-${i >= WARM_UP_BASE ? 'w' : ''}${i % 500}` })],
      // Not one of the runs: the classifiers memoize the features of the last few texts
      // (every policy of a request reads the same field), so the runs above, which repeat one
      // message, never pay for feature extraction. This one does, as real traffic would.
      [`${label}: doNotStore, a new message each request`, (i) => JSON.stringify({ content: { type: 'text', text: distinctBenchMessage(i) }, doNotStore: true })],
    ];
    for (const [name, body] of scenarios) {
      if (!selected(name)) continue;
      // Warm-up of this very path (JIT, the embedded store's WebAssembly tiers, the store's first pages); not measured.
      await autocannon({ url, method: 'POST', connections: 10, duration: 2, headers: { 'content-type': 'application/json', ...auth }, ...bodyOptions(body, WARM_UP_BASE) });
      await compared(measureEcho, () => load(name, url, body, auth), rows);
    }
    // Issue #32's poison pill: the storing run with a new contentId each request, again, while two more clients send
    // a body the store could not hold (a fractional timestamp, once a 500 that failed its whole batch).
    const storing = (i: number) => JSON.stringify({ content: { type: 'text', text: BENCH_MESSAGE }, contentId: `${run}-p${i}` });
    const poisonBody = JSON.stringify({ content: { type: 'text', text: BENCH_MESSAGE }, contentId: `${run}-poison`, timestamp: 1.5 });
    if (selected(`${label}: storing beside 2 poison clients`)) await compared(
      measureEcho,
      async () => {
        const poison = autocannon({ url, method: 'POST', connections: 2, duration: DURATION, headers: { 'content-type': 'application/json', ...auth }, body: poisonBody });
        const row = await load(`${label}: storing beside 2 poison clients`, url, storing, auth);
        const refused = await poison;
        row.name += ` (${refused['4xx']} poison 4xx, ${refused['5xx']} 5xx)`;
        return row;
      },
      rows,
    );
  } finally {
    service.child.kill('SIGTERM');
    await new Promise((r) => service.child.once('exit', r));
  }
}

const rows: Row[] = [];
const echoServer = await start('bench/echo-server.ts', { PORT: '0' });
const echoBody = JSON.stringify({ content: { type: 'text', text: BENCH_MESSAGE } });
const measureEcho = async (): Promise<Row> => {
  const row = await load('echo (bare Fastify)', `${echoServer.url}/echo`, () => echoBody);
  rows.push(row);
  return row;
};

try {
  await autocannon({ url: `${echoServer.url}/echo`, method: 'POST', connections: 10, duration: 2, headers: { 'content-type': 'application/json' }, body: echoBody });
  const dataDir = mkdtempSync(join(tmpdir(), 'om-bench-'));
  try {
    // DATABASE_URL (set for the PostgreSQL runs) must not leak into the embedded-store run.
    await benchService('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' }, `bench_${randomBytes(16).toString('hex')}`, rows, measureEcho);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (process.env.DATABASE_URL) {
    const name = `om_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    try {
      await benchService('PostgreSQL', { DATABASE_URL: url.toString() }, `bench_${randomBytes(16).toString('hex')}`, rows, measureEcho);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
} finally {
  echoServer.child.kill('SIGTERM');
}

const pad = (s: string, n: number) => s.padEnd(n);
console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, 280-character message, Node ${process.version}`);
console.log('vs echo: against the mean of the echo runs just before and just after that run\n');
console.log(`${pad('run', 50)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('vs echo', 9)}errors`);
for (const row of rows) {
  const ratio = row.baseline ? `${((row.rps / row.baseline) * 100).toFixed(1)}%` : '';
  console.log(`${pad(row.name, 50)}${pad(row.rps.toFixed(0), 10)}${pad(String(row.p50), 9)}${pad(String(row.p99), 9)}${pad(ratio, 9)}${row.errors}`);
}
