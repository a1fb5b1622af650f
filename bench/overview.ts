/**
 * npm run bench:overview — the dashboard's overview at 10,000,000 stored items in one project.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:overview
 *
 * Creates a dedicated database (dropped afterwards), starts the server on it (migrations, the
 * rollup triggers), then seeds in SQL with generate_series, in chunks of BENCH_CHUNK rows, so the
 * rollup triggers maintain the figures as the write path does: BENCH_ITEMS items over the last
 * 90 days in two channels (10 % flagged by one to three policies), 500,000 authors, four queues,
 * 200,000 reviews in the audit log and their resolutions. Then it times GET
 * /dashboard/api/projects/:id/overview as the dashboard calls it (signed-in session) for four
 * periods, with and without a channel, and prints p50/p95 and the server's split per part as
 * Markdown (docs/benchmarks.md). BENCH_REQUESTS sets the requests per case. Before the requests
 * it recounts every queue's open items (the background job of src/services/queue-counts.ts, which
 * the overview reads) and reports each count's time at this size; the job's interval is set to a
 * day so no recount runs during the timed requests. Last, it measures what
 * the rollup triggers cost the write path, each with its trigger on and off in turn: an INSERT of
 * items of a group commit's size (BENCH_WRITE_ROWS items), the authors' upsert of those sightings
 * (BENCH_WRITE_ROWS existing authors), and audit entries as writeAuditEntries appends them (1 and
 * BENCH_WRITE_ROWS entries). BENCH_ITEMS, BENCH_AUTHORS and BENCH_REVIEWS size the seed (a smaller
 * run for a quick check: BENCH_ITEMS=500000 BENCH_AUTHORS=50000 BENCH_REVIEWS=20000).
 */
import { randomBytes } from 'node:crypto';
import { createTestDatabaseUrl } from '../src/db/testing.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { writeAuditEntries, type AuditEntryInput } from '../src/services/audit.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000_000);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 1_000_000);
const AUTHORS = Number(process.env.BENCH_AUTHORS ?? 500_000);
const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 200_000);
const REVIEW_CHUNK = Number(process.env.BENCH_REVIEW_CHUNK ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const WRITE_ROWS = Number(process.env.BENCH_WRITE_ROWS ?? 20);
const WRITE_STATEMENTS = Number(process.env.BENCH_WRITE_STATEMENTS ?? 300);
const WRITE_ROUNDS = 5;
const DAY = 86_400_000;
const HOUR = 3_600_000;

if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL to a PostgreSQL server (the bench creates and drops its own database).');
  process.exit(1);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

async function main(): Promise<void> {
  const target = await createTestDatabaseUrl();
  const password = `bench ${randomBytes(9).toString('base64url')}`;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    BOOTSTRAP_API_KEY: `bench_${randomBytes(18).toString('base64url')}`,
    BOOTSTRAP_ADMIN_EMAIL: 'bench@example.test',
    BOOTSTRAP_ADMIN_PASSWORD: password,
    DATABASE_URL: target.url!,
    DATABASE_POOL_SIZE: '10',
    // Only the counts the bench asks for: none in the middle of the timed requests.
    QUEUE_COUNT_INTERVAL_MS: '86400000',
  });
  const server = await startServer(config);
  const db = server.db;
  const projectId = server.bootstrapped!.projectId;
  try {
    const now = Math.floor(Date.now() / HOUR) * HOUR;
    const start = now - 90 * DAY;
    const { rows: channels } = await db.query<{ id: string }>('SELECT id FROM channels WHERE project_id = $1 AND is_default', [projectId]);
    const mainChannel = channels[0]!.id;
    const otherChannel = 'ch_bench_reviews';
    await db.query(
      `INSERT INTO channels (id, project_id, key, name, is_default, config, created_at, updated_at)
       SELECT $2, project_id, 'reviews', 'Product reviews', false, config, created_at, updated_at FROM channels WHERE id = $1`,
      [mainChannel, otherChannel],
    );
    await db.query('SELECT setseed(0.42)');

    let started = performance.now();
    await db.query(
      `INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at, trust_level)
       SELECT 'auth_bench_' || g, $1, 'user-' || g, t, t, t, t, (floor(random() * 6) - 1)::smallint
       FROM (SELECT g, $2::bigint + (random() * ($3::bigint - $2::bigint))::bigint AS t FROM generate_series(1, $4::int) AS g) s`,
      [projectId, start, now, AUTHORS],
    );
    const authorSeconds = seconds(started);

    // Items, chunk by chunk, each its own statement (and so its own trigger run), like the batch writer's.
    started = performance.now();
    for (let from = 1; from <= ITEMS; from += CHUNK) {
      const to = Math.min(ITEMS, from + CHUNK - 1);
      await db.query(
        `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type, recommendation,
           content, modified, metadata, result, flagged, shadow_flagged, flag_probability, severity_score, submitted_at, created_at, updated_at)
         SELECT 'cnt_bench_' || g, $1, 'item-' || g, CASE WHEN g % 5 = 0 THEN $3::text ELSE $2::text END, 'auth_bench_' || (1 + g % $6::bigint),
           CASE WHEN g % 20 = 0 THEN 'market' ELSE 'general' END, 'message', 'text',
           CASE WHEN f THEN (CASE WHEN g % 3 = 0 THEN 'reject' ELSE 'review' END) ELSE 'allow' END,
           '{"type":"text","text":"a stored message of the benchmark"}'::jsonb, NULL, NULL,
           CASE WHEN f THEN '{"policies":[{"id":"toxicity","type":"classifier","probability":0.93,"flagged":true},{"id":"spam","type":"classifier","probability":'
                 || (CASE WHEN g % 2 = 0 THEN '0.81,"flagged":true' ELSE '0.02,"flagged":false' END)
                 || '},{"id":"personal_information","type":"entity","probability":' || (CASE WHEN g % 7 = 0 THEN '1,"flagged":true' ELSE '0,"flagged":false' END) || '}]}'
                ELSE '{"policies":[{"id":"toxicity","type":"classifier","probability":0.04,"flagged":false},{"id":"spam","type":"classifier","probability":0.01,"flagged":false}]}' END,
           f, false, CASE WHEN f THEN 0.93 ELSE 0.04 END, CASE WHEN f THEN 0.8 ELSE 0.05 END, t, t, t
         FROM (SELECT g, $4::bigint + ((g - 1)::float8 / $5::float8 * ($7::bigint - $4::bigint))::bigint AS t, random() < 0.1 AS f FROM generate_series($8::bigint, $9::bigint) AS g) s`,
        [projectId, mainChannel, otherChannel, start, ITEMS, AUTHORS, now, from, to],
      );
      process.stderr.write(`  ${to.toLocaleString('en-US')} items (${seconds(started)} s)\n`);
    }
    const itemSeconds = seconds(started);

    started = performance.now();
    const queueIds: string[] = [];
    for (const [name, filter] of [
      ['Everything', {}],
      ['Flagged', { flagged: 'FLAGGED' }],
      ['Marketplace', { conversationIds: ['market'] }],
      ['Rejected', { recommendationActions: ['reject'] }],
    ] as const) {
      const r = await fetch(`${server.url}/v1/queue`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.bootstrapApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, filter }),
      });
      const body = (await r.json()) as { queue?: { id: string } };
      if (!body.queue) throw new Error(`queue ${name}: ${r.status} ${JSON.stringify(body)}`);
      queueIds.push(body.queue.id);
    }
    // Reviews in the "Flagged" queue, evenly spread over the items (so over the 90 days): an action or
    // a resolution, minutes to hours after submission. INSERT statements of REVIEW_CHUNK entries, so
    // the review rollup's trigger (0071) keeps review_hourly as the write path's appends do.
    const stride = Math.max(1, Math.floor(ITEMS / REVIEWS));
    for (let first = 0; first < REVIEWS; first += REVIEW_CHUNK) {
      await db.query(
        `WITH picked AS (
           SELECT g, 'cnt_bench_' || (g * $5::bigint + 1) AS content_id FROM generate_series($4::int, LEAST($3::int, $4::int + $6::int) - 1) AS g
         ), reviewed AS (
           SELECT p.g, ci.id, ci.external_id, ci.author_id, ci.created_at, ci.created_at + (60000 + random() * 7200000)::bigint AS at
           FROM picked p JOIN content_items ci ON ci.id = p.content_id
         ), audit AS (
           INSERT INTO audit_log (id, project_id, kind, actor_key_id, actor_user_id, actor_email, action_id, action_key, action_name, action_type, queue_id,
             content_id, content_external_id, author_id, value, comment, item_created_at, created_at)
           SELECT 'aud_bench_' || r.g, $1, CASE WHEN r.g % 3 = 0 THEN 'resolve' ELSE 'action' END, NULL, 'usr_bench_' || (r.g % 12), 'moderator' || (r.g % 12) || '@example.test',
             CASE WHEN r.g % 3 = 0 THEN NULL ELSE 'act_' || (r.g % 4) END, CASE WHEN r.g % 3 = 0 THEN NULL ELSE (ARRAY['reject','allow','warn','ban'])[1 + r.g % 4] END,
             CASE WHEN r.g % 3 = 0 THEN NULL ELSE (ARRAY['Reject','Allow','Warn author','Ban author'])[1 + r.g % 4] END, NULL, $2,
             r.id, r.external_id, r.author_id, NULL, NULL, r.created_at, r.at
           FROM reviewed r
         )
         INSERT INTO queue_resolutions (queue_id, content_id, project_id, resolved_at, resolved_by, comment)
         SELECT $2, r.id, $1, r.at, NULL, NULL FROM reviewed r`,
        [projectId, queueIds[1], REVIEWS, first, stride, REVIEW_CHUNK],
      );
    }
    const reviewSeconds = seconds(started);
    started = performance.now();
    // Steady state: autovacuum would have analysed (and, for insert-only tables, vacuumed) them.
    for (const table of ['content_items', 'authors', 'audit_log', 'queue_resolutions', 'stats_hourly', 'review_hourly', 'trust_level_counts']) await db.query(`VACUUM ANALYZE ${table}`);
    const vacuumSeconds = seconds(started);
    const { rows: sizes } = await db.query<{ items: string; rollup: string; rollup_rows: string; reviews: string; review_rows: string; audit: string; audit_rows: string }>(
      `SELECT pg_size_pretty(pg_total_relation_size('content_items')) AS items, pg_size_pretty(pg_total_relation_size('stats_hourly')) AS rollup,
         (SELECT count(*) FROM stats_hourly)::text AS rollup_rows,
         pg_size_pretty(pg_total_relation_size('review_hourly')) AS reviews, (SELECT count(*) FROM review_hourly)::text AS review_rows,
         pg_size_pretty(pg_total_relation_size('audit_log')) AS audit, (SELECT count(*) FROM audit_log WHERE kind IN ('action', 'resolve'))::text AS audit_rows`,
    );

    // The queues' open counts, made afresh now that the seed is complete (the first ones ran while it was written).
    started = performance.now();
    await db.query('DELETE FROM queue_open_counts');
    server.app.deps.queueCounts.poke();
    let counts: { name: string; open_count: string | null; duration_ms: number; error: string | null }[] = [];
    for (;;) {
      ({ rows: counts } = await db.query<{ name: string; open_count: string | null; duration_ms: number; error: string | null }>(
        'SELECT q.name, c.open_count, c.duration_ms, c.error FROM queues q JOIN queue_open_counts c ON c.queue_id = q.id WHERE q.project_id = $1 ORDER BY q.created_at, q.id',
        [projectId],
      ));
      if (counts.length === queueIds.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const countSeconds = seconds(started);
    const everything = counts.find((c) => c.name === 'Everything')!;
    if (Number(everything.open_count) !== ITEMS) throw new Error(`the "Everything" queue counted ${everything.open_count} open items, not ${ITEMS}`);

    const signIn = await fetch(`${server.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const truth = await db.query<{ n: string }>('SELECT count(*) AS n FROM content_items WHERE project_id = $1 AND created_at >= $2 AND created_at < $3', [projectId, Math.floor((now - 7 * DAY) / DAY) * DAY, now]);
    // The review figures cover the period's whole hours (now is on the hour).
    const reviewTruth = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM audit_log WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('action', 'resolve') AND item_created_at IS NOT NULL`,
      [projectId, now - 7 * DAY, now],
    );

    const cases: [string, string][] = [
      ['last 24 hours, per hour', `from=${now - DAY}&to=${now}&bucket=hour`],
      ['last 7 days, per hour', `from=${now - 7 * DAY}&to=${now}&bucket=hour`],
      ['last 7 days, per day', `from=${now - 7 * DAY}&to=${now}&bucket=day`],
      ['last 7 days, per day, one channel', `from=${now - 7 * DAY}&to=${now}&bucket=day&channelId=${otherChannel}`],
      ['last 30 days, per day', `from=${now - 30 * DAY}&to=${now}&bucket=day`],
      ['last 90 days, per day', `from=${now - 90 * DAY}&to=${now}&bucket=day`],
    ];
    const lines = [
      `Overview of one project with ${ITEMS.toLocaleString('en-US')} stored items (90 days, 2 channels, 10 % flagged), ${AUTHORS.toLocaleString('en-US')} authors, 4 queues, ${REVIEWS.toLocaleString('en-US')} reviews; PostgreSQL 15, ${REQUESTS} sequential requests per case after 3 warm-up.`,
      `Seeding: authors ${authorSeconds} s, items ${itemSeconds} s (rollup triggers on, chunks of ${CHUNK.toLocaleString('en-US')}), reviews ${reviewSeconds} s (chunks of ${REVIEW_CHUNK.toLocaleString('en-US')}), VACUUM ANALYZE ${vacuumSeconds} s. content_items ${sizes[0]!.items}; stats_hourly ${sizes[0]!.rollup} (${sizes[0]!.rollup_rows} rows); audit_log ${sizes[0]!.audit} (${Number(sizes[0]!.audit_rows).toLocaleString('en-US')} reviews); review_hourly ${sizes[0]!.reviews} (${sizes[0]!.review_rows} rows).`,
      '',
      `Queue counts (the background recount, one queue after another, all four in ${countSeconds} s):`,
      '',
      '| queue | open now | count (ms) |',
      '|---|---:|---:|',
      ...counts.map((c) => `| ${c.name} | ${c.open_count === null ? `— (${c.error})` : Number(c.open_count).toLocaleString('en-US')} | ${c.duration_ms.toLocaleString('en-US')} |`),
      '',
      '| period | p50 (ms) | p95 (ms) | volumes p50 | queues p50 | reviews p50 | trust levels p50 |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const [name, query] of cases) {
      const samples: number[] = [];
      const parts: Record<string, number[]> = {};
      for (let i = 0; i < REQUESTS + 3; i++) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/dashboard/api/projects/${projectId}/overview?${query}`, { headers: { cookie } });
        const body = (await res.json()) as { totals?: { submissions: number }; review?: { decisions: number }; timings?: Record<string, number> };
        const elapsed = performance.now() - t0;
        if (res.status !== 200 || !body.totals) throw new Error(`overview ${query}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        if (name === 'last 7 days, per day' && body.totals.submissions !== Number(truth.rows[0]!.n)) {
          throw new Error(`the rollup says ${body.totals.submissions} submissions in 7 days, the items ${truth.rows[0]!.n}`);
        }
        if (name === 'last 7 days, per hour' && body.review?.decisions !== Number(reviewTruth.rows[0]!.n)) {
          throw new Error(`the review rollup says ${body.review?.decisions} reviews in 7 days, the audit log ${reviewTruth.rows[0]!.n}`);
        }
        if (i < 3) continue;
        samples.push(elapsed);
        for (const [part, ms] of Object.entries(body.timings ?? {})) (parts[part] ??= []).push(ms);
      }
      samples.sort((a, b) => a - b);
      const p50 = (part: string) => percentile([...(parts[part] ?? [0])].sort((a, b) => a - b), 50).toFixed(1);
      lines.push(`| ${name} | ${percentile(samples, 50).toFixed(1)} | ${percentile(samples, 95).toFixed(1)} | ${p50('volumes')} | ${p50('queues')} | ${p50('reviews')} | ${p50('trustLevels')} |`);
    }
    // For comparison, the exact queries the rollups of 0071 replaced (reviews from the audit log,
    // trust levels from every author), run in parallel as the overview ran them, per period.
    const rawParts = async (from: number, to: number) => {
      const period = [projectId, from, to];
      const t0 = performance.now();
      await Promise.all([
        db.query(
          `SELECT count(*) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY created_at - item_created_at) AS median
           FROM audit_log WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('action', 'resolve') AND item_created_at IS NOT NULL`,
          period,
        ),
        db.query(
          `SELECT coalesce(a.actor_email, k.name || ' (API key)', a.actor_key_id, 'unknown') AS actor, count(*) AS n
           FROM audit_log a LEFT JOIN api_keys k ON k.id = a.actor_key_id
           WHERE a.project_id = $1 AND a.created_at >= $2 AND a.created_at < $3 AND a.kind IN ('action', 'resolve', 'unresolve', 'trust_level')
           GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
          period,
        ),
        db.query(
          `SELECT coalesce(action_name, action_key, 'unknown') AS name, count(*) AS n FROM audit_log
           WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind = 'action' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
          period,
        ),
        db.query(
          `SELECT queue_id, count(*) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY created_at - item_created_at) AS median
           FROM audit_log WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('action', 'resolve')
             AND queue_id IS NOT NULL AND item_created_at IS NOT NULL GROUP BY queue_id`,
          period,
        ),
      ]);
      const reviews = performance.now() - t0;
      const t1 = performance.now();
      await db.query('SELECT trust_level, count(*) FROM authors WHERE project_id = $1 GROUP BY 1', [projectId]);
      return { reviews, trust: performance.now() - t1 };
    };
    lines.push('', 'The exact queries the review and trust level rollups replaced (audit log, every author), p50 in ms on the same data:', '', '| period | reviews (audit log) | trust levels (authors) |', '|---|---|---|');
    for (const [name, days] of [['last 7 days', 7], ['last 30 days', 30], ['last 90 days', 90]] as const) {
      const reviews: number[] = [];
      const trust: number[] = [];
      for (let i = 0; i < REQUESTS + 3; i++) {
        const r = await rawParts(now - days * DAY, now);
        if (i < 3) continue;
        reviews.push(r.reviews);
        trust.push(r.trust);
      }
      const p50 = (list: number[]) => percentile([...list].sort((a, b) => a - b), 50).toFixed(1);
      lines.push(`| ${name} | ${p50(reviews)} | ${p50(trust)} |`);
    }
    // What the rollup costs the write path: statements of WRITE_ROWS rows (a group commit's size),
    // alternately with the rollup triggers on and off, WRITE_ROUNDS rounds of WRITE_STATEMENTS each.
    const insertBatch = (first: number) =>
      db.query(
        `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type, recommendation,
           content, result, flagged, shadow_flagged, flag_probability, severity_score, submitted_at, created_at, updated_at)
         SELECT 'cnt_write_' || g, $1, 'write-' || g, $2, NULL, NULL, 'message', 'text', CASE WHEN g % 10 = 0 THEN 'review' ELSE 'allow' END,
           '{"type":"text","text":"a new message"}'::jsonb,
           CASE WHEN g % 10 = 0 THEN '{"policies":[{"id":"toxicity","type":"classifier","probability":0.9,"flagged":true}]}' ELSE '{"policies":[]}' END,
           g % 10 = 0, false, 0.5, 0.5, $3::bigint, $3::bigint, $3::bigint
         FROM generate_series($4::bigint, $4::bigint + $5::bigint - 1) AS g`,
        [projectId, mainChannel, now - 1, first, WRITE_ROWS],
      );
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    /** µs per statement, WRITE_ROUNDS alternating rounds of WRITE_STATEMENTS with the triggers off and on. */
    const writeCost = async (table: string, triggers: string[], statement: (i: number) => Promise<unknown>) => {
      const costs: Record<'on' | 'off', number[]> = { on: [], off: [] };
      let i = 0;
      for (let round = 0; round < WRITE_ROUNDS; round++) {
        for (const mode of ['off', 'on'] as const) {
          for (const trigger of triggers) await db.query(`ALTER TABLE ${table} ${mode === 'on' ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
          const t0 = performance.now();
          for (let n = 0; n < WRITE_STATEMENTS; n++, i++) await statement(i);
          costs[mode].push(((performance.now() - t0) * 1000) / WRITE_STATEMENTS);
        }
      }
      for (const trigger of triggers) await db.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
      return `median ${median(costs.off).toFixed(0)} µs per statement without, ${median(costs.on).toFixed(0)} µs with (rounds off: ${costs.off.map((c) => c.toFixed(0)).join(', ')}; on: ${costs.on.map((c) => c.toFixed(0)).join(', ')})`;
    };
    const itemsCost = await writeCost('content_items', ['content_items_stats'], (i) => insertBatch(1 + i * WRITE_ROWS));
    // The write path's authors upsert for a group commit's sightings of existing authors (last_seen and
    // counts move, the trust level does not: the common case the UPDATE trigger compares and skips).
    const upsertAuthors = (first: number, level: boolean) =>
      db.query(
        `INSERT INTO authors AS a (id, project_id, external_id, first_seen, last_seen, created_at, updated_at)
         SELECT 'auth_bench_' || (1 + g % $3::bigint), $1, 'user-' || (1 + g % $3::bigint), $2::bigint, $2::bigint, $2::bigint, $2::bigint
         FROM generate_series($4::bigint, $4::bigint + $5::bigint - 1) AS g
         ORDER BY 3
         ON CONFLICT (project_id, external_id) DO UPDATE SET last_seen = GREATEST(a.last_seen, EXCLUDED.last_seen), updated_at = EXCLUDED.updated_at,
           total_content = a.total_content + 1${level ? ', trust_level = (a.trust_level + 1) % 5' : ''}`,
        [projectId, now, AUTHORS, first * 7919, WRITE_ROWS],
      );
    const trustTriggers = ['authors_trust_counts_inserted', 'authors_trust_counts_updated', 'authors_trust_counts_deleted'];
    const authorsCost = await writeCost('authors', trustTriggers, (i) => upsertAuthors(i, false));
    const authorsLevelCost = await writeCost('authors', trustTriggers, (i) => upsertAuthors(i, true));
    // Audit entries as the write path appends them (one statement per action or resolution, with every item's entry).
    const auditEntries = (count: number, i: number): AuditEntryInput[] =>
      Array.from({ length: count }, (_, k) => ({
        kind: k % 3 === 0 ? 'resolve' : 'action',
        actorKeyId: null,
        actorUserId: `usr_bench_${i % 12}`,
        actorEmail: `moderator${i % 12}@example.test`,
        action: k % 3 === 0 ? null : { id: 'act_1', key: 'allow', name: 'Allow', type: null },
        queueId: queueIds[1]!,
        contentId: `cnt_bench_${1 + ((i * WRITE_ROWS + k) % ITEMS)}`,
        itemCreatedAt: now - 1 - ((i * 7 + k) % 200) * 60_000,
      }));
    const auditOneCost = await writeCost('audit_log', ['audit_log_review_rollup'], (i) => writeAuditEntries(db, projectId, auditEntries(1, i), now - 1));
    const auditManyCost = await writeCost('audit_log', ['audit_log_review_rollup'], (i) => writeAuditEntries(db, projectId, auditEntries(WRITE_ROWS, i), now - 1));
    lines.push(
      '',
      `Write cost, ${WRITE_ROUNDS} alternating rounds of ${WRITE_STATEMENTS} statements with the trigger(s) off and on:`,
      '',
      `- INSERT of ${WRITE_ROWS} items (10 % flagged), stats_hourly trigger: ${itemsCost}.`,
      `- authors upsert of ${WRITE_ROWS} existing authors, no level change, trust_level_counts triggers: ${authorsCost}.`,
      `- the same upsert moving every author's level: ${authorsLevelCost}.`,
      `- writeAuditEntries of 1 review, review_hourly trigger: ${auditOneCost}.`,
      `- writeAuditEntries of ${WRITE_ROWS} reviews: ${auditManyCost}.`,
    );
    lines.push('', `Check: the 7-day total of the rollup equals count(*) of the items (${Number(truth.rows[0]!.n).toLocaleString('en-US')}); the "Everything" queue's open count equals the number of items.`);
    console.log(lines.join('\n'));
  } finally {
    await server.close();
    await target.drop();
  }
}

await main();
