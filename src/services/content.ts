import type { Queryable } from '../db/database.ts';
import { newId } from '../lib/ids.ts';

export interface StoredSubmission {
  projectId: string;
  externalId: string | null;
  channelId: string;
  authorId: string | null;
  conversationId: string | null;
  metaType: string | null;
  contentType: string;
  content: unknown;
  modified: unknown;
  metadata: unknown;
  flagged: boolean;
  flagProbability: number;
  severityScore: number;
  recommendation: string;
  result: unknown;
  submittedAt: number;
}

/**
 * Inserts a content item, or updates the item with the same `contentId`
 * (re-submission re-evaluates the item instead of creating a second one).
 * Returns the id the caller knows the item by.
 */
export async function storeContent(tx: Queryable, item: StoredSubmission): Promise<{ id: string; externalId: string }> {
  const id = newId('cnt');
  const externalId = item.externalId ?? id;
  const now = Date.now();
  await tx.query(
    `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type,
       content, modified, metadata, flagged, flag_probability, severity_score, recommendation, result, submitted_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)
     ON CONFLICT (project_id, external_id) DO UPDATE SET
       channel_id = EXCLUDED.channel_id, author_id = EXCLUDED.author_id, conversation_id = EXCLUDED.conversation_id,
       meta_type = EXCLUDED.meta_type, content_type = EXCLUDED.content_type, content = EXCLUDED.content,
       modified = EXCLUDED.modified, metadata = EXCLUDED.metadata, flagged = EXCLUDED.flagged,
       flag_probability = EXCLUDED.flag_probability, severity_score = EXCLUDED.severity_score,
       recommendation = EXCLUDED.recommendation, result = EXCLUDED.result, submitted_at = EXCLUDED.submitted_at,
       updated_at = EXCLUDED.updated_at`,
    [
      id, item.projectId, externalId, item.channelId, item.authorId, item.conversationId, item.metaType, item.contentType,
      JSON.stringify(item.content), item.modified === undefined || item.modified === null ? null : JSON.stringify(item.modified),
      item.metadata === undefined || item.metadata === null ? null : JSON.stringify(item.metadata),
      item.flagged, item.flagProbability, item.severityScore, item.recommendation, JSON.stringify(item.result), item.submittedAt, now,
    ],
  );
  return { id, externalId };
}

export async function countContent(db: Queryable, projectId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM content_items WHERE project_id = $1', [projectId]);
  return rows[0]!.n;
}
