import type { Queryable } from '../db/database.ts';
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
 * The batch writer behind /v1/moderate's group commit: authors first (so
 * content rows can point at them), then every content row of the batch; each
 * as multi-row statements for the whole batch.
 */
export async function writeSubmissions(tx: Queryable, writes: readonly SubmissionWrite[]): Promise<SubmissionWritten[]> {
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
