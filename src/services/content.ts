import type { Queryable } from '../db/database.ts';
import { newId } from '../lib/ids.ts';

export interface StoredSubmission {
  projectId: string;
  /** The caller's contentId; null lets the store use the generated id. */
  externalId: string | null;
  channelId: string;
  /** The author's row id; absent or null for content without an author. */
  authorId?: string | null;
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
  /** The stored evaluation, already written as JSON (it shares its policies text with the response). */
  resultJson: string;
  submittedAt: number;
}

/**
 * Inserts content items, or updates the item with the same `contentId`
 * (re-submission re-evaluates the item instead of creating a second one).
 * One statement for the whole batch; when a batch carries the same contentId
 * twice, the later submission wins, as if they had been applied in order.
 * Returns the id the caller knows each item by.
 */
export async function storeContent(db: Queryable, items: readonly StoredSubmission[]): Promise<string[]> {
  const externalIds = items.map((item) => item.externalId ?? newId('cnt'));
  const last = new Map<string, number>();
  items.forEach((item, i) => last.set(`${item.projectId}\u0000${externalIds[i]}`, i));
  const rows = [...last.values()].sort((a, b) => a - b);
  // The whole batch travels as one JSON document: one string to encode and to parse,
  // where one array per column made the driver escape every JSON value character by character.
  // It is written by hand so that each item's evaluation, serialized once already, is spliced in.
  let doc = '[';
  for (const i of rows) {
    const item = items[i]!;
    if (doc.length > 1) doc += ',';
    doc +=
      `{"id":${json(newId('cnt'))},"project_id":${json(item.projectId)},"external_id":${json(externalIds[i])},` +
      `"channel_id":${json(item.channelId)},"author_id":${json(item.authorId)},"conversation_id":${json(item.conversationId)},` +
      `"meta_type":${json(item.metaType)},"content_type":${json(item.contentType)},"content":${json(item.content)},` +
      `"modified":${json(item.modified)},"metadata":${json(item.metadata)},"flagged":${json(item.flagged)},` +
      `"flag_probability":${json(item.flagProbability)},"severity_score":${json(item.severityScore)},` +
      `"recommendation":${json(item.recommendation)},"result":${item.resultJson},"submitted_at":${json(item.submittedAt)}}`;
  }
  doc += ']';
  await db.query(STORE_CONTENT_SQL, [doc, Date.now()], { name: 'store_content' });
  return externalIds;
}

const STORE_CONTENT_SQL = `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type,
    content, modified, metadata, flagged, flag_probability, severity_score, recommendation, result, submitted_at, created_at, updated_at)
  SELECT id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type,
    content, modified, metadata, flagged, flag_probability, severity_score, recommendation, result, submitted_at, $2, $2
  FROM jsonb_to_recordset($1::jsonb) AS t(id text, project_id text, external_id text, channel_id text, author_id text, conversation_id text,
    meta_type text, content_type text, content jsonb, modified jsonb, metadata jsonb, flagged boolean, flag_probability float8,
    severity_score float8, recommendation text, result jsonb, submitted_at int8)
  ON CONFLICT (project_id, external_id) DO UPDATE SET
    channel_id = EXCLUDED.channel_id, author_id = EXCLUDED.author_id, conversation_id = EXCLUDED.conversation_id,
    meta_type = EXCLUDED.meta_type, content_type = EXCLUDED.content_type, content = EXCLUDED.content,
    modified = EXCLUDED.modified, metadata = EXCLUDED.metadata, flagged = EXCLUDED.flagged,
    flag_probability = EXCLUDED.flag_probability, severity_score = EXCLUDED.severity_score,
    recommendation = EXCLUDED.recommendation, result = EXCLUDED.result, submitted_at = EXCLUDED.submitted_at,
    updated_at = EXCLUDED.updated_at`;

// undefined (and a function or symbol) has no JSON form: stored as null, as the object form did.
const json = (value: unknown): string => JSON.stringify(value) ?? 'null';

export async function countContent(db: Queryable, projectId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM content_items WHERE project_id = $1', [projectId]);
  return rows[0]!.n;
}
