import type { Config } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { GroupCommitter } from '../db/group-commit.ts';
import { recordAuthorsSeen, type AuthorSummary, type SubmissionFacts } from './authors.ts';
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
  const seen = await recordAuthorsSeen(
    tx,
    withAuthor.map((i) => ({ projectId: writes[i]!.content.projectId, externalId: writes[i]!.author!.externalId, facts: writes[i]!.author!.facts })),
  );
  const authors: Array<AuthorSummary | null> = writes.map(() => null);
  withAuthor.forEach((writeIndex, k) => (authors[writeIndex] = seen[k]!));
  const contentIds = await storeContent(
    tx,
    writes.map((w, i) => ({ ...w.content, authorId: authors[i]?.id ?? null })),
  );
  return writes.map((_, i) => ({ contentId: contentIds[i]!, author: authors[i]! }));
}

/** /v1/moderate's group commit over writeSubmissions. */
export function submissionCommitter(db: Database, config: Pick<Config, 'writeBatchSlots' | 'writeBatchMinParallel'>): GroupCommitter<SubmissionWrite, SubmissionWritten> {
  return new GroupCommitter(db, writeSubmissions, {
    slots: Math.min(config.writeBatchSlots, db.parallelism),
    minParallelBatch: config.writeBatchMinParallel,
    // The embedded store has one connection: single statements queue up in it and run back to back,
    // but a batch with authors is a transaction that holds it until it ends.
    overlaps: db.kind === 'pglite' ? (write) => write.author === null : undefined,
  });
}
