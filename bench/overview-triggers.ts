/**
 * npx tsx bench/overview-triggers.ts — what the overview's rollup triggers of migration 0071 cost
 * the write path on PGlite (bench/overview.ts measures them on PostgreSQL): the authors' upsert of
 * the write path (recordAuthorsSeen, 20 existing authors per transaction) with the
 * trust_level_counts triggers off and on, and writeAuditEntries of 1 and 20 reviews with the
 * review_hourly trigger off and on; 5 alternating rounds of BENCH_WRITE_STATEMENTS (300) each.
 * In-memory PGlite, or PostgreSQL with DATABASE_URL (a database of its own, dropped after).
 */
import { openTestDatabase } from '../src/db/testing.ts';
import { recordAuthorsSeen, type AuthorSighting } from '../src/services/authors.ts';
import { writeAuditEntries, type AuditEntryInput } from '../src/services/audit.ts';

const STATEMENTS = Number(process.env.BENCH_WRITE_STATEMENTS ?? 300);
const ROUNDS = 5;

const db = await openTestDatabase();
try {
  await db.query(`INSERT INTO projects (id, name, created_at) VALUES ('prj_bench', 'bench', 0)`);
  const now = Date.now();
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!.toFixed(0);
  const measure = async (label: string, table: string, triggers: string[], statement: (i: number) => Promise<unknown>) => {
    const costs: Record<'on' | 'off', number[]> = { on: [], off: [] };
    let i = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ['off', 'on'] as const) {
        for (const trigger of triggers) await db.query(`ALTER TABLE ${table} ${mode === 'on' ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
        const t0 = performance.now();
        for (let n = 0; n < STATEMENTS; n++) await statement(i++);
        costs[mode].push(((performance.now() - t0) * 1000) / STATEMENTS);
      }
    }
    for (const trigger of triggers) await db.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
    console.log(
      `- ${label}: median ${median(costs.off)} µs without, ${median(costs.on)} µs with (rounds off: ${costs.off.map((c) => c.toFixed(0)).join(', ')}; on: ${costs.on.map((c) => c.toFixed(0)).join(', ')})`,
    );
  };
  const sightings = (i: number): AuthorSighting[] =>
    Array.from({ length: 20 }, (_, k) => ({
      projectId: 'prj_bench',
      externalId: `author-${(i * 20 + k) % 2000}`,
      facts: { seenAt: now, flagged: k % 10 === 0, contentType: 'text', sentiment: null, spoofed: false, linkCount: 0, fingerprint: null },
    }));
  // Every author exists before the timed rounds: they measure updates, the common case.
  for (let i = 0; i < 100; i++) await db.transaction((tx) => recordAuthorsSeen(tx, sightings(i)));
  await measure('recordAuthorsSeen of 20 existing authors, trust_level_counts triggers', 'authors', ['authors_trust_counts_inserted', 'authors_trust_counts_updated', 'authors_trust_counts_deleted'], (i) =>
    db.transaction((tx) => recordAuthorsSeen(tx, sightings(i))),
  );
  const entries = (count: number, i: number): AuditEntryInput[] =>
    Array.from({ length: count }, (_, k) => ({
      kind: k % 3 === 0 ? 'resolve' : 'action',
      actorKeyId: null,
      actorUserId: `usr_${i % 12}`,
      actorEmail: `moderator${i % 12}@example.test`,
      action: k % 3 === 0 ? null : { id: 'act_allow', key: 'allow', name: 'Allow', type: null },
      queueId: 'que_bench',
      contentId: `cnt_${i}_${k}`,
      itemCreatedAt: now - ((i * 7 + k) % 200) * 60_000,
    }));
  for (const count of [1, 20]) {
    await measure(`writeAuditEntries of ${count} review${count === 1 ? '' : 's'}, review_hourly trigger`, 'audit_log', ['audit_log_review_rollup'], (i) => writeAuditEntries(db, 'prj_bench', entries(count, i), now));
  }
} finally {
  await db.close();
}
