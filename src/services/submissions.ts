import type { Config } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { GroupCommitter, type GroupCommitObserver } from '../db/group-commit.ts';
import { createHash } from 'node:crypto';
import { recordAuthorsSeen, recordRepeatedSightings, type AuthorSummary, type RepeatedSighting, type SubmissionFacts } from './authors.ts';
import { storeContent, type StoredSubmission } from './content.ts';

/** Everything one /v1/moderate request writes. */
export interface SubmissionWrite {
  content: Omit<StoredSubmission, 'authorId'>;
  /** The caller's authorId and what this submission tells about the author, when sent. */
  author: { externalId: string; facts: SubmissionFacts } | null;
}

export interface SubmissionWritten {
  /** The id the caller knows the item by (its contentId, or the generated id). */
  contentId: string;
  author: AuthorSummary | null;
}

/**
 * The batch writer behind /v1/moderate's group commit. A batch without
 * authors is one INSERT, which commits on its own with its trigger's outbox
 * rows: one round trip instead of BEGIN, INSERT, COMMIT. With authors, one
 * transaction writes the authors first (content rows point at them), then
 * the content; each as one multi-row statement for the whole batch.
 */
export async function writeSubmissions(db: Database, writes: readonly SubmissionWrite[]): Promise<SubmissionWritten[]> {
  if (writes.every((w) => w.author === null)) {
    const contentIds = await storeContent(
      db,
      writes.map((w) => w.content),
    );
    return contentIds.map((contentId) => ({ contentId, author: null }));
  }
  return db.transaction((tx) => writeWithAuthors(tx, writes));
}

async function writeWithAuthors(tx: Queryable, writes: readonly SubmissionWrite[]): Promise<SubmissionWritten[]> {
  const withAuthor = writes.flatMap((w, i) => (w.author ? [i] : []));
  const repeats = await findRepeats(tx, writes, withAuthor);
  const firstSightings = withAuthor.filter((i) => !repeats.has(i));
  const seen = await recordAuthorsSeen(
    tx,
    firstSightings.map((i) => ({ projectId: writes[i]!.content.projectId, externalId: writes[i]!.author!.externalId, facts: writes[i]!.author!.facts })),
  );
  const authors: Array<AuthorSummary | null> = writes.map(() => null);
  firstSightings.forEach((writeIndex, k) => (authors[writeIndex] = seen[k]!));
  if (repeats.size > 0) {
    const repeated = [...repeats.keys()];
    const summaries = await recordRepeatedSightings(tx, repeated.map((i) => repeats.get(i)!));
    repeated.forEach((writeIndex, k) => (authors[writeIndex] = summaries[k]!));
  }
  const contentIds = await storeContent(
    tx,
    writes.map((w, i) => ({ ...w.content, authorId: authors[i]?.id ?? null })),
  );
  return writes.map((_, i) => ({ contentId: contentIds[i]!, author: authors[i]! }));
}

/**
 * The writes that re-submit an item their author already has (same contentId, same author), by
 * index. A client retrying one item must not count it again: the items' keys are locked for the
 * transaction first, in a fixed order, so concurrent batches carrying the same contentId read each
 * other's result instead of both counting it as new.
 */
async function findRepeats(tx: Queryable, writes: readonly SubmissionWrite[], withAuthor: readonly number[]): Promise<Map<number, RepeatedSighting>> {
  const named = withAuthor.filter((i) => writes[i]!.content.externalId !== null);
  const repeats = new Map<number, RepeatedSighting>();
  if (named.length === 0) return repeats;
  const keyOf = (i: number) => `${writes[i]!.content.projectId}\u0000${writes[i]!.content.externalId!.toWellFormed()}`;
  const lockKeys = [...new Set(named.map((i) => advisoryKey(keyOf(i))))].sort();
  await tx.query('SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT k FROM unnest($1::int8[]) AS k ORDER BY k) AS keys', [lockKeys]);
  const { rows } = await tx.query<{ project_id: string; external_id: string; flagged: boolean; author: string | null }>(
    `SELECT c.project_id, c.external_id, c.flagged, a.external_id AS author
     FROM content_items c JOIN unnest($1::text[], $2::text[]) AS t(project_id, external_id) USING (project_id, external_id)
     LEFT JOIN authors a ON a.id = c.author_id`,
    [named.map((i) => writes[i]!.content.projectId), named.map((i) => writes[i]!.content.externalId!.toWellFormed())],
  );
  // What each item holds as the batch is applied in order: stored rows first, then earlier writes of the batch.
  const standing = new Map(rows.map((row) => [`${row.project_id}\u0000${row.external_id}`, { author: row.author, flagged: row.flagged }]));
  for (const i of named) {
    const write = writes[i]!;
    const before = standing.get(keyOf(i));
    const flagged = write.content.flagged;
    if (before && before.author === write.author!.externalId) {
      repeats.set(i, { projectId: write.content.projectId, externalId: before.author, flaggedDelta: before.flagged === flagged ? 0 : flagged ? 1 : -1 });
    }
    standing.set(keyOf(i), { author: write.author!.externalId, flagged });
  }
  return repeats;
}

/** A signed 64-bit advisory-lock key for an item, as a decimal string. */
const advisoryKey = (key: string): string => createHash('sha256').update(key).digest().readBigInt64BE(0).toString();

/** /v1/moderate's group commit over writeSubmissions. */
export function submissionCommitter(
  db: Database,
  config: Pick<Config, 'writeBatchSlots' | 'writeBatchMinParallel'>,
  observer?: GroupCommitObserver,
): GroupCommitter<SubmissionWrite, SubmissionWritten> {
  return new GroupCommitter(db, writeSubmissions, {
    observer,
    slots: Math.min(config.writeBatchSlots, db.parallelism),
    minParallelBatch: config.writeBatchMinParallel,
    // The embedded store has one connection: single statements queue up in it and run back to back,
    // but a batch with authors is a transaction that holds it until it ends.
    overlaps: db.kind === 'pglite' ? (write) => write.author === null : undefined,
  });
}
