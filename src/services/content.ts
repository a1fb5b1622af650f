import type { Database, Queryable } from '../db/database.ts';
import { NEW_QUEUE_ITEM_TOPIC, type WebhookEventType } from './webhooks.ts';
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
 * One statement for the items with a contentId and one for those without; when
 * a batch carries the same contentId twice, the later submission wins, as if
 * they had been applied in order. A batch with both kinds runs its two
 * statements in one transaction (given a Database; a transaction handle is
 * already one). Each statement also writes the QUEUE_ITEM_NEW outbox rows of
 * the items it created. Returns the id the caller knows each item by.
 */
export async function storeContent(db: Queryable | Database, items: readonly StoredSubmission[]): Promise<string[]> {
  const externalIds = items.map((item) => item.externalId ?? newId('cnt'));
  const last = new Map<string, number>();
  // The store keeps a lone surrogate as U+FFFD: ids that differ only there are one item to it.
  items.forEach((item, i) => last.set(`${item.projectId}\u0000${externalIds[i]!.toWellFormed()}`, i));
  const fresh: number[] = [];
  const named: number[] = [];
  for (const i of [...last.values()].sort((a, b) => a - b)) (items[i]!.externalId === null ? fresh : named).push(i);
  // An id the service just generated cannot name an existing item: those rows skip the
  // conflict check of the upsert (a probe of the unique index before every insert).
  if (fresh.length > 0 && named.length > 0 && 'transaction' in db) {
    await db.transaction(async (tx) => {
      await tx.query(INSERT_NEW_SQL, rowParams(items, externalIds, fresh), { name: 'store_new_content' });
      await tx.query(UPSERT_SQL, rowParams(items, externalIds, named), { name: 'store_content' });
    });
  } else {
    if (fresh.length > 0) await db.query(INSERT_NEW_SQL, rowParams(items, externalIds, fresh), { name: 'store_new_content' });
    if (named.length > 0) await db.query(UPSERT_SQL, rowParams(items, externalIds, named), { name: 'store_content' });
  }
  return externalIds;
}

/**
 * One parameter per column. The short text columns travel as array literals. The JSON columns,
 * the bulk of a row, are joined with the record separator instead: JSON text never holds that
 * character unescaped, so the store splits them without a quote to escape here or to undo there.
 * Each column is gathered as parts and joined once: join writes one flat string, where appending
 * built a rope that the driver then had to walk while measuring and encoding the parameters.
 */
function rowParams(items: readonly StoredSubmission[], externalIds: readonly string[], rows: readonly number[]): unknown[] {
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
  return params;
}

// unnest pads shorter arrays with NULLs, so a lone NULL document (an empty string, which
// string_to_array turns into an empty array) still lines up with its row. The stored evaluation
// stays text (migration 0015).
const INSERT_ROWS = `INSERT INTO content_items (id, project_id, external_id, channel_id, author_id, conversation_id, meta_type, content_type,
    recommendation, content, modified, metadata, result, flagged, shadow_flagged, flag_probability, severity_score, submitted_at, created_at, updated_at)
  SELECT t.*, $19, $19
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    string_to_array($10, E'\\x1e', '')::jsonb[], string_to_array($11, E'\\x1e', '')::jsonb[], string_to_array($12, E'\\x1e', '')::jsonb[],
    string_to_array($13, E'\\x1e', ''), $14::boolean[], $15::boolean[], $16::float8[], $17::float8[], $18::int8[]) AS t`;

const NEW_ITEM_EVENT: WebhookEventType = 'QUEUE_ITEM_NEW';

/** The outbox rows announcing new items, for projects with a webhook subscribed to them; `created` holds the new rows. */
const NEW_ITEM_EVENTS = `INSERT INTO outbox (project_id, topic, payload, available_at, created_at)
  SELECT c.project_id, '${NEW_QUEUE_ITEM_TOPIC}', jsonb_build_object('contentId', c.id), c.created_at, c.created_at
  FROM created c
  WHERE c.project_id IN (SELECT w.project_id FROM webhooks w
                         WHERE w.enabled AND w.action_id IS NULL AND w.events @> '${JSON.stringify([NEW_ITEM_EVENT])}'::jsonb)`;

const INSERT_NEW_SQL = `WITH created AS (
  ${INSERT_ROWS}
  RETURNING id, project_id, created_at
)
${NEW_ITEM_EVENTS}`;

// A re-submitted item keeps its row id, so the rows this statement created are exactly those
// returned with one of the ids generated for it ($1).
const UPSERT_SQL = `WITH stored AS (
  ${INSERT_ROWS}
  ON CONFLICT (project_id, external_id) DO UPDATE SET
    channel_id = EXCLUDED.channel_id, author_id = EXCLUDED.author_id, conversation_id = EXCLUDED.conversation_id,
    meta_type = EXCLUDED.meta_type, content_type = EXCLUDED.content_type, content = EXCLUDED.content,
    modified = EXCLUDED.modified, metadata = EXCLUDED.metadata, flagged = EXCLUDED.flagged, shadow_flagged = EXCLUDED.shadow_flagged,
    flag_probability = EXCLUDED.flag_probability, severity_score = EXCLUDED.severity_score,
    recommendation = EXCLUDED.recommendation, result = EXCLUDED.result, submitted_at = EXCLUDED.submitted_at,
    updated_at = EXCLUDED.updated_at
  RETURNING id, project_id, created_at
), created AS (
  SELECT s.* FROM stored s JOIN unnest($1::text[]) AS generated (id) USING (id)
)
${NEW_ITEM_EVENTS}`;

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
