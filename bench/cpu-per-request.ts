/**
 * `npx tsx bench/cpu-per-request.ts`: the service (PGlite, doNotStore) under 50 connections sending a new
 * 280-character message each request (as npm run bench's distinct-message run), with the server's CPU per request
 * read from /proc (all its threads together, and each busy thread's share of a core) and the load generator's own.
 * Throughput on a shared 2-core host moves from minute to minute; CPU per request moves less. ROUNDS (default 2)
 * measured runs of DURATION seconds (default 6) after a 3 s warm-up. BENCH_PROFILE_DIR starts the service with
 * `--cpu-prof` into that directory (one profile per thread, written when it stops). Linux only.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { distinctBenchMessage } from './message.ts';

const DURATION = Number(process.env.DURATION ?? 6);
const key = `bench_${randomBytes(16).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'om-cpu-'));
const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts'], {
  env: { ...process.env, RATE_LIMIT_PER_KEY: '0', DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'warn', BOOTSTRAP_API_KEY: key },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url: string = await new Promise((resolve) => {
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const match = /API base URL:\s+(\S+)\/v1/.exec(out);
    if (match) resolve(match[1]!);
  });
});

/** User plus system clock ticks (100 per second) of a /proc stat line. */
const ticksOf = (stat: string): number => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const processTicks = (pid: number | 'self') => ticksOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
const threadTicks = (): Map<string, number> => {
  const threads = new Map<string, number>();
  for (const id of readdirSync(`/proc/${child.pid}/task`)) {
    try {
      threads.set(id, ticksOf(readFileSync(`/proc/${child.pid}/task/${id}/stat`, 'utf8')));
    } catch {
      // a thread that ended
    }
  }
  return threads;
};

const load = (first: number, duration: number) => {
  let i = first;
  return autocannon({
    url: `${url}/v1/moderate`,
    method: 'POST',
    connections: 50,
    duration,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ content: { type: 'text', text: distinctBenchMessage(i++) }, doNotStore: true }) }) }],
  });
};

try {
  await load(1_000_000, 3);
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    const server = processTicks(child.pid!);
    const client = processTicks('self');
    const threads = threadTicks();
    const result = await load(round * 100_000, DURATION);
    const requests = result.requests.total;
    const perRequest = (ticks: number) => ((ticks * 10_000) / requests).toFixed(0);
    // The main thread's id is the process id.
    const busy = [...threadTicks()]
      .map(([id, ticks]) => [id, ticks - (threads.get(id) ?? 0)] as const)
      .filter(([, ticks]) => ticks > DURATION * 5)
      .sort((a, b) => b[1] - a[1])
      .map(([id, ticks]) => `${(ticks / DURATION).toFixed(0)}%${id === String(child.pid) ? ' (main)' : ''}`);
    console.log(
      `${result.requests.average.toFixed(0)} req/s, server ${perRequest(processTicks(child.pid!) - server)} µs CPU per request ` +
        `(busiest threads ${busy.join(', ')} of a core), load generator ${perRequest(processTicks('self') - client)} µs, errors ${result.errors + result.non2xx}`,
    );
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
