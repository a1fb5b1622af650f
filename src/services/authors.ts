import type { Queryable } from '../db/database.ts';
import { newId } from '../lib/ids.ts';

/** The author as it appears in a submission result. */
export interface AuthorSummary {
  id: string;
  external_id: string;
  status: string;
  block: { until: number | null; reason: string | null } | null;
  trust_level: { level: number; manual: boolean };
}

const NEW_AUTHOR_TRUST = { level: 0, manual: false };

const toSummary = (row: Record<string, unknown>): AuthorSummary => ({
  id: row.id as string,
  external_id: row.external_id as string,
  status: row.status as string,
  block: null,
  trust_level: { ...NEW_AUTHOR_TRUST },
});

/**
 * Records that an author was seen at `seenAt`, creating the author on first
 * sight. Runs inside the submission's transaction.
 */
export async function recordAuthorSeen(tx: Queryable, projectId: string, externalId: string, seenAt: number): Promise<AuthorSummary> {
  const now = Date.now();
  const { rows } = await tx.query(
    `INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4, $5, $5)
     ON CONFLICT (project_id, external_id) DO UPDATE
       SET first_seen = LEAST(authors.first_seen, EXCLUDED.first_seen),
           last_seen = GREATEST(authors.last_seen, EXCLUDED.last_seen),
           updated_at = EXCLUDED.updated_at
     RETURNING id, external_id, status`,
    [newId('auth'), projectId, externalId, seenAt, now],
  );
  return toSummary(rows[0]!);
}

export async function findAuthorSummary(db: Queryable, projectId: string, externalId: string): Promise<AuthorSummary | null> {
  const { rows } = await db.query('SELECT id, external_id, status FROM authors WHERE project_id = $1 AND external_id = $2', [projectId, externalId]);
  return rows[0] ? toSummary(rows[0]) : null;
}
