/**
 * npx tsx bench/queue-counts-pglite.ts — the background queue count on PGlite (the embedded store
 * has one connection, so a count competes with every request).
 *
 * Seeds BENCH_ITEMS items (default 200,000; 10 % flagged) in an in-memory PGlite, then counts two
 * queues (everything; one label flagged, which reads each item's policies) as the background job
 * does there: in slices of PGLITE_SLICE_ROWS in index order with pauses, and, for comparison, in one
 * statement. Meanwhile a probe sends a small indexed query every 20 ms and records how long each
 * waited: what a request waits for while a count runs. Prints Markdown for docs/benchmarks.md.
 */
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createProject } from '../src/services/projects.ts';
import { createQueue, type Queue } from '../src/services/queues.ts';
import { countOpenItems, PGLITE_SLICE_ROWS } from '../src/services/queue-counts.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 200_000);
const CHUNK = 50_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

const db = await openDatabase({ databaseUrl: null, inMemory: true });
try {
  await migrate(db);
  const projectId = (await createProject(db, 'bench')).project.id;
  const t0 = performance.now();
  for (let from = 1; from <= ITEMS; from += CHUNK) {
    await db.query(
      `INSERT INTO content_items (id, project_id, external_id, channel_id, content_type, recommendation, content, result, flagged, shadow_flagged,
         flag_probability, severity_score, submitted_at, created_at, updated_at)
       SELECT 'cnt_b_' || g, $1, 'b-' || g, (SELECT id FROM channels WHERE project_id = $1 LIMIT 1), 'text',
         CASE WHEN g % 10 = 0 THEN 'review' ELSE 'allow' END, '{"type":"text","text":"a stored message of the benchmark"}'::jsonb,
         CASE WHEN g % 10 = 0 THEN '{"policies":[{"id":"toxicity","type":"classifier","probability":0.93,"flagged":true}]}'
              ELSE '{"policies":[{"id":"toxicity","type":"classifier","probability":0.04,"flagged":false}]}' END,
         g % 10 = 0, false, 0, 0, 1700000000000 + g * 1000, 1700000000000 + g * 1000, 1700000000000 + g * 1000
       FROM generate_series($2::int, $3::int) AS g`,
      [projectId, from, Math.min(ITEMS, from + CHUNK - 1)],
    );
  }
  await db.query('VACUUM ANALYZE content_items');
  const seedSeconds = ((performance.now() - t0) / 1000).toFixed(1);
  const queues: Queue[] = [
    await createQueue(db, projectId, { name: 'Everything', filter: {} }),
    await createQueue(db, projectId, { name: 'Toxicity flagged', filter: { labels: ['toxicity'] } }),
  ];

  /** Runs `work` while probing the store every 20 ms; the probes' waits in ms. */
  const probed = async (work: () => Promise<number>) => {
    const waits: number[] = [];
    let done = false;
    const probe = (async () => {
      while (!done) {
        const p0 = performance.now();
        await db.query('SELECT id FROM queues WHERE project_id = $1 LIMIT 1', [projectId]);
        waits.push(performance.now() - p0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const w0 = performance.now();
    const open = await work();
    const ms = performance.now() - w0;
    done = true;
    await probe;
    waits.sort((a, b) => a - b);
    return { open, ms, waits };
  };

  const lines = [
    `Queue counts on PGlite (in memory), ${ITEMS.toLocaleString('en-US')} items (10 % flagged), seeded in ${seedSeconds} s; a probe query every 20 ms during each count.`,
    '',
    '| queue | how | open | count (ms) | probe p50 (ms) | probe p99 (ms) | probe max (ms) |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const queue of queues) {
    for (const [how, sliceRows] of [[`slices of ${PGLITE_SLICE_ROWS.toLocaleString('en-US')}`, PGLITE_SLICE_ROWS], ['one statement', null]] as const) {
      const { open, ms, waits } = await probed(() => countOpenItems(db, queue, { timeoutMs: 600_000, sliceRows }));
      lines.push(`| ${queue.name} | ${how} | ${open.toLocaleString('en-US')} | ${ms.toFixed(0)} | ${percentile(waits, 50).toFixed(1)} | ${percentile(waits, 99).toFixed(1)} | ${(waits.at(-1) ?? NaN).toFixed(1)} |`);
    }
  }
  console.log(lines.join('\n'));
} finally {
  await db.close();
}
