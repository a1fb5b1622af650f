/**
 * npm run bench:authors — GET /v1/authors at 1,000,000 authors in one project,
 * and concurrent submissions by one author.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/authors.ts
 *
 * Seeds the authors with one INSERT ... SELECT generate_series (PostgreSQL;
 * a fresh database, dropped afterwards), then times every sortBy key in both
 * directions (first page and page 50, pageSize 20) and prints p50/p95 per
 * case as Markdown. BENCH_AUTHORS changes the count, BENCH_REQUESTS the
 * requests per case.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { createTestDatabaseUrl } from '../src/db/testing.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

const AUTHORS = Number(process.env.BENCH_AUTHORS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const SORT_KEYS = ['trustLevel', 'violationCount', 'reportCount', 'memberSince', 'lastActive', 'contentCount', 'flaggedContentRatio', 'averageSentiment'];

if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL to a PostgreSQL server (the bench creates and drops its own database).');
  process.exit(1);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const target = await createTestDatabaseUrl();
  const apiKey = `bench_${randomBytes(18).toString('base64url')}`;
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', BOOTSTRAP_API_KEY: apiKey, DATABASE_URL: target.url!, DATABASE_POOL_SIZE: '10' });
  const server = await startServer(config);
  const projectId = server.bootstrapped!.projectId;
  try {
    const seedStarted = performance.now();
    const now = Date.now();
    await server.db.query('SELECT setseed(0.42)');
    // Realistic spreads: ages up to a year, activity, a few flagged, sentiment for half.
    await server.db.query(
      `INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at,
         trust_level, violation_count, report_count, total_content, flagged_content, flagged_ratio,
         average_sentiment, content_type_mask)
       SELECT 'auth_' || lpad(to_hex(g), 12, '0') || substr(md5(g::text), 1, 16), $1, 'user-' || g,
              fs, fs + (random() * ($2 - fs))::bigint, $2, $2,
              (floor(random() * 6) - 1)::smallint, v, (random() * 5)::int, tc, least(v, tc),
              CASE WHEN tc = 0 THEN 0 ELSE least(v, tc)::float8 / tc END,
              CASE WHEN random() < 0.5 THEN NULL ELSE random() * 2 - 1 END,
              (1 + floor(random() * 31))::smallint
       FROM (SELECT g, $2 - (random() * 31536000000)::bigint AS fs, (random() * random() * 20)::int AS v,
                    (random() * 500)::int AS tc
             FROM generate_series(1, $3) AS g) s`,
      [projectId, now, AUTHORS],
    );
    // Steady state: autovacuum vacuums insert-only tables (PostgreSQL 13+), which lets count(*) use an index-only scan.
    if (process.env.BENCH_NO_VACUUM !== '1') await server.db.query('VACUUM ANALYZE authors');
    else await server.db.query('ANALYZE authors');
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const headers = { authorization: `Bearer ${apiKey}` };
    const time = async (query: string) => {
      const samples: number[] = [];
      for (let i = 0; i < REQUESTS + 5; i++) {
        const started = performance.now();
        const res = await fetch(`${server.url}/v1/authors?${query}`, { headers });
        const body = (await res.json()) as { authors?: unknown[]; pagination?: { total: number } };
        if (res.status !== 200 || body.authors?.length !== 20 || body.pagination?.total !== AUTHORS) {
          throw new Error(`GET /v1/authors?${query} answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
        }
        if (i >= 5) samples.push(performance.now() - started); // the first requests warm caches
      }
      samples.sort((a, b) => a - b);
      return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
    };

    const lines = [
      `GET /v1/authors, ${AUTHORS.toLocaleString('en-US')} authors in one project, pageSize 20, ${REQUESTS} sequential requests per case (after 5 warm-up), PostgreSQL, seeded in ${seedSeconds.toFixed(1)} s.`,
      '',
      '| sortBy | direction | page 1 p50 (ms) | page 1 p95 (ms) | page 50 p95 (ms) |',
      '|---|---|---|---|---|',
    ];
    for (const sortBy of [null, ...SORT_KEYS]) {
      for (const direction of ['asc', 'desc']) {
        const base = `${sortBy ? `sortBy=${sortBy}&` : ''}sortDirection=${direction}&pageSize=20`;
        const first = await time(base);
        const deep = await time(`${base}&pageNumber=50`);
        lines.push(`| ${sortBy ?? '(none: creation order)'} | ${direction} | ${first.p50.toFixed(1)} | ${first.p95.toFixed(1)} | ${deep.p95.toFixed(1)} |`);
      }
    }
    console.log(lines.join('\n'));

    // One author posting from many connections at once, against many authors.
    const message = (i: number) => JSON.stringify({ content: { type: 'text', text: `message number ${i} about the garden` }, authorId: 'hot-author' });
    const spread = (i: number) => JSON.stringify({ content: { type: 'text', text: `message number ${i} about the garden` }, authorId: `author-${i}` });
    const out = ['', '| /v1/moderate, 50 connections, 10 s | req/s | p50 (ms) | p99 (ms) | errors |', '|---|---|---|---|---|'];
    for (const [name, body] of [['one author for every request', message], ['a different author per request', spread]] as const) {
      let i = 0;
      const result = await autocannon({
        url: `${server.url}/v1/moderate`,
        method: 'POST',
        connections: 50,
        duration: 10,
        headers: { ...headers, 'content-type': 'application/json' },
        requests: [{ setupRequest: (req) => ({ ...req, body: body(i++) }) }],
      });
      out.push(`| ${name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${result.errors + result.non2xx + result.timeouts} |`);
    }
    const { rows } = await server.db.query<{ total_content: number }>("SELECT total_content FROM authors WHERE project_id = $1 AND external_id = 'hot-author'", [projectId]);
    out.push('', `hot-author total_content after the run: ${rows[0]?.total_content ?? 0} (every accepted submission counted).`);
    console.log(out.join('\n'));
  } finally {
    await server.close();
    await target.drop();
  }
}

await main();
