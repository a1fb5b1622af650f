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
  /** A policy reached its threshold without flagging (shadow mode); the result lists them under shadow_flagged. */
  shadowFlagged: boolean;
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
  // The store keeps a lone surrogate as U+FFFD: ids that differ only there are one item to it.
  items.forEach((item, i) => last.set(`${item.projectId}\u0000${externalIds[i]!.toWellFormed()}`, i));
  const rows = [...last.values()].sort((a, b) => a - b);
  // One parameter per column. The short text columns travel as array literals. The JSON columns,
  // the bulk of a row, are joined with the record separator instead: JSON text never holds that
  // character unescaped, so the store splits them without a quote to escape here or to undo there.
  // Each column is gathered as parts and joined once: join writes one flat string, where appending
  // built a rope that the driver then had to walk while measuring and encoding the parameters.
  const columns: string[][] = Array.from({ length: COLUMN_COUNT }, () => new Array<string>(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    const item = items[i]!;
    columns[0]![r] = arrayElement(newId('cnt'));
    columns[1]![r] = arrayElement(item.projectId);
    columns[2]![r] = arrayElement(externalIds[i]!);
    columns[3]![r] = arrayElement(item.channelId);
    columns[4]![r] = arrayElement(item.authorId ?? null);
    columns[5]![r] = arrayElement(item.conversationId);
    columns[6]![r] = arrayElement(item.metaType);
    columns[7]![r] = arrayElement(item.contentType);
    columns[8]![r] = arrayElement(item.recommendation);
    // An empty element is NULL (no JSON text is empty).
    columns[9]![r] = json(item.content);
    columns[10]![r] = item.modified == null ? '' : json(item.modified);
    columns[11]![r] = item.metadata == null ? '' : json(item.metadata);
    columns[12]![r] = item.resultJson;
    columns[13]![r] = item.flagged ? 't' : 'f';
    columns[14]![r] = item.shadowFlagged ? 't' : 'f';
    columns[15]![r] = String(item.flagProbability);
    columns[16]![r] = String(item.severityScore);
    columns[17]![r] = String(item.submittedAt);
  }
  const params: unknown[] = columns.map((parts, k) =>
    k >= FIRST_DOC_COLUMN && k < FIRST_DOC_COLUMN + DOC_COLUMNS ? parts.join(RECORD_SEPARATOR) : `{${parts.join(',')}}`,
  );
  params.push(Date.now());
  await db.query(STORE_CONTENT_SQL, params, { name: 'store_content' });
  return externalIds;
}

// unnest pads shorter arrays with NULLs, so a lone NULL document (an empty string, which
// string_to_array turns into an empty array) still lines up with its row.
const STORE_CONTENT_SQL = `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type,
    recommendation, content, modified, metadata, result, flagged, shadow_flagged, flag_probability, severity_score, submitted_at, created_at, updated_at)
  SELECT t.*, $19, $19
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    string_to_array($10, E'\\x1e', '')::jsonb[], string_to_array($11, E'\\x1e', '')::jsonb[], string_to_array($12, E'\\x1e', '')::jsonb[],
    string_to_array($13, E'\\x1e', '')::json[], $14::boolean[], $15::boolean[], $16::float8[], $17::float8[], $18::int8[]) AS t
  ON CONFLICT (project_id, external_id) DO UPDATE SET
    channel_id = EXCLUDED.channel_id, author_id = EXCLUDED.author_id, conversation_id = EXCLUDED.conversation_id,
    meta_type = EXCLUDED.meta_type, content_type = EXCLUDED.content_type, content = EXCLUDED.content,
    modified = EXCLUDED.modified, metadata = EXCLUDED.metadata, flagged = EXCLUDED.flagged, shadow_flagged = EXCLUDED.shadow_flagged,
    flag_probability = EXCLUDED.flag_probability, severity_score = EXCLUDED.severity_score,
    recommendation = EXCLUDED.recommendation, result = EXCLUDED.result, submitted_at = EXCLUDED.submitted_at,
    updated_at = EXCLUDED.updated_at`;

const COLUMN_COUNT = 18;
const FIRST_DOC_COLUMN = 9;
const DOC_COLUMNS = 4;
const RECORD_SEPARATOR = '\x1e';
const ARRAY_SPECIAL = /["\\]/g;
/** An element of a PostgreSQL array literal: quoted, so commas, braces and spaces need no care. */
const arrayElement = (value: string | null): string => (value === null ? 'NULL' : `"${value.replace(ARRAY_SPECIAL, '\\$&')}"`);
// undefined (and a function or symbol) has no JSON form: stored as null, as the object form did.
const json = (value: unknown): string => JSON.stringify(value) ?? 'null';

export async function countContent(db: Queryable, projectId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM content_items WHERE project_id = $1', [projectId]);
  return rows[0]!.n;
}
