import type { Queryable } from '../db/database.ts';
import { newId } from '../lib/ids.ts';

export interface StoredSubmission {
  projectId: string;
  /** The caller's contentId; null lets the store use the generated id. */
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

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * Inserts content items, or updates the item with the same `contentId`
 * (re-submission re-evaluates the item instead of creating a second one).
 * One statement for the whole batch; when a batch carries the same contentId
 * twice, the later submission wins, as if they had been applied in order.
 * Returns the id the caller knows each item by.
 */
export async function storeContent(tx: Queryable, items: readonly StoredSubmission[]): Promise<string[]> {
  const now = Date.now();
  const externalIds = items.map((item) => item.externalId ?? newId('cnt'));
  const last = new Map<string, number>();
  items.forEach((item, i) => last.set(`${item.projectId}\u0000${externalIds[i]}`, i));
  const rows = [...last.values()].sort((a, b) => a - b);
  const column = <T>(pick: (item: StoredSubmission, i: number) => T) => rows.map((i) => pick(items[i]!, i));
  await tx.query(
    `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type,
       content, modified, metadata, flagged, flag_probability, severity_score, recommendation, result, submitted_at, created_at, updated_at)
     SELECT id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type,
       content::jsonb, modified::jsonb, metadata::jsonb, flagged, flag_probability, severity_score, recommendation, result::jsonb,
       submitted_at, $17, $17
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[], $11::text[], $12::bool[], $13::float8[], $14::float8[], $15::text[], $16::text[], $18::int8[])
       AS t(id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type, content, modified,
            metadata, flagged, flag_probability, severity_score, recommendation, result, submitted_at)
     ON CONFLICT (project_id, external_id) DO UPDATE SET
       channel_id = EXCLUDED.channel_id, author_id = EXCLUDED.author_id, conversation_id = EXCLUDED.conversation_id,
       meta_type = EXCLUDED.meta_type, content_type = EXCLUDED.content_type, content = EXCLUDED.content,
       modified = EXCLUDED.modified, metadata = EXCLUDED.metadata, flagged = EXCLUDED.flagged,
       flag_probability = EXCLUDED.flag_probability, severity_score = EXCLUDED.severity_score,
       recommendation = EXCLUDED.recommendation, result = EXCLUDED.result, submitted_at = EXCLUDED.submitted_at,
       updated_at = EXCLUDED.updated_at`,
    [
      column(() => newId('cnt')),
      column((item) => item.projectId),
      column((_, i) => externalIds[i]),
      column((item) => item.channelId),
      column((item) => item.authorId),
      column((item) => item.conversationId),
      column((item) => item.metaType),
      column((item) => item.contentType),
      column((item) => json(item.content)),
      column((item) => json(item.modified)),
      column((item) => json(item.metadata)),
      column((item) => item.flagged),
      column((item) => item.flagProbability),
      column((item) => item.severityScore),
      column((item) => item.recommendation),
      column((item) => json(item.result)),
      now,
      column((item) => item.submittedAt),
    ],
  );
  return externalIds;
}

export async function countContent(db: Queryable, projectId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM content_items WHERE project_id = $1', [projectId]);
  return rows[0]!.n;
}
