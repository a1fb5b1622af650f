import type { Queryable } from '../db/database.ts';
import { newId } from '../lib/ids.ts';
import { actionKeySpellings } from '../core/action-keys.ts';
import type { ConfigChange } from '../core/config-diff.ts';

/**
 * The audit log: who (API key id) did what (action, resolve, unresolve), to
 * which item or author, from which queue, with which value and comment, when.
 * Entries are only ever appended.
 */

export type AuditKind = 'action' | 'resolve' | 'unresolve' | 'trust_level' | 'member' | 'config' | 'block_expired';

/** Who did something: an API key, or a dashboard user (id and email, copied so entries outlive the account). */
export interface Actor {
  keyId: string | null;
  userId?: string | null;
  email?: string | null;
}

export const actorOf = (actor: string | Actor): Actor => (typeof actor === 'string' ? { keyId: actor } : actor);

/** The id recorded as resolver: the key's, or the user's. */
export const actorId = (actor: Actor): string | null => actor.keyId ?? actor.userId ?? null;

export interface AuditEntryInput {
  kind: AuditKind;
  actorKeyId: string | null;
  actorUserId?: string | null;
  actorEmail?: string | null;
  action?: { id: string; key: string | null; name: string; type: string | null } | null;
  queueId?: string | null;
  contentId?: string | null;
  contentExternalId?: string | null;
  authorId?: string | null;
  authorExternalId?: string | null;
  value?: string | null;
  comment?: string | null;
  itemCreatedAt?: number | null;
  /** Configuration changes: what changed, before and after. */
  diff?: ConfigChange[] | null;
}

export interface AuditEntryView {
  id: string;
  kind: AuditKind;
  actorKeyId: string | null;
  actionId: string | null;
  actionKey: string | null;
  actionName: string | null;
  actionType: string | null;
  queueId: string | null;
  contentId: string | null;
  authorId: string | null;
  value: string | null;
  comment: string | null;
  createdAt: number;
}

/** Appends every entry with one multi-row statement, whatever their number. */
export async function writeAuditEntries(tx: Queryable, projectId: string, entries: readonly AuditEntryInput[], now = Date.now()): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    id: newId('aud'),
    kind: e.kind,
    actor_key_id: e.actorKeyId,
    actor_user_id: e.actorUserId ?? null,
    actor_email: e.actorEmail ?? null,
    action_id: e.action?.id ?? null,
    action_key: e.action?.key ?? null,
    action_name: e.action?.name ?? null,
    action_type: e.action?.type ?? null,
    queue_id: e.queueId ?? null,
    content_id: e.contentId ?? null,
    content_external_id: e.contentExternalId ?? null,
    author_id: e.authorId ?? null,
    author_external_id: e.authorExternalId ?? null,
    value: e.value ?? null,
    comment: e.comment ?? null,
    item_created_at: e.itemCreatedAt ?? null,
    diff: e.diff ?? null,
  }));
  await tx.query(
    `INSERT INTO audit_log (id, project_id, kind, actor_key_id, actor_user_id, actor_email, action_id, action_key, action_name, action_type, queue_id,
       content_id, content_external_id, author_id, author_external_id, value, comment, item_created_at, diff, created_at)
     SELECT r.id, $1, r.kind, r.actor_key_id, r.actor_user_id, r.actor_email, r.action_id, r.action_key, r.action_name, r.action_type, r.queue_id,
       r.content_id, r.content_external_id, r.author_id, r.author_external_id, r.value, r.comment, r.item_created_at, r.diff, $2
     FROM jsonb_to_recordset($3::jsonb) AS r(id text, kind text, actor_key_id text, actor_user_id text, actor_email text, action_id text, action_key text, action_name text,
       action_type text, queue_id text, content_id text, content_external_id text, author_id text, author_external_id text,
       value text, comment text, item_created_at bigint, diff jsonb)`,
    [projectId, now, JSON.stringify(rows)],
  );
}

const toView = (r: Record<string, unknown>): AuditEntryView => ({
  id: r.id as string,
  kind: r.kind as AuditKind,
  actorKeyId: (r.actor_key_id as string | null) ?? null,
  actionId: (r.action_id as string | null) ?? null,
  actionKey: (r.action_key as string | null) ?? null,
  actionName: (r.action_name as string | null) ?? null,
  actionType: (r.action_type as string | null) ?? null,
  queueId: (r.queue_id as string | null) ?? null,
  contentId: (r.content_external_id as string | null) ?? null,
  authorId: (r.author_external_id as string | null) ?? null,
  value: (r.value as string | null) ?? null,
  comment: (r.comment as string | null) ?? null,
  createdAt: r.created_at as number,
});

export interface AuditQuery {
  /** The caller's contentId. */
  contentId?: string;
  /** The author's external id or our id. */
  authorId?: string;
  queueId?: string;
  /** Action id or key. */
  actionId?: string;
  limit: number;
  /** Entries older than this entry id (the previous page's `nextCursor`). */
  before?: string;
}

/** Newest first, keyset-paged on the time-ordered id. */
export async function listAuditEntries(db: Queryable, projectId: string, query: AuditQuery): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
  const params: unknown[] = [projectId];
  const where = ['project_id = $1'];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (query.contentId !== undefined) where.push(`content_external_id = ${add(query.contentId)}`);
  if (query.authorId !== undefined) {
    const p = add(query.authorId);
    where.push(`(author_external_id = ${p} OR author_id = ${p})`);
  }
  if (query.queueId !== undefined) where.push(`queue_id = ${add(query.queueId)}`);
  if (query.actionId !== undefined) {
    const ids = add(JSON.stringify(actionKeySpellings([query.actionId])));
    where.push(`(action_id = ${add(query.actionId)} OR action_key IN (SELECT jsonb_array_elements_text(${ids}::jsonb)))`);
  }
  if (query.before !== undefined) where.push(`id < ${add(query.before)}`);
  const { rows } = await db.query(`SELECT * FROM audit_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${add(query.limit + 1)}`, params);
  const page = rows.slice(0, query.limit).map(toView);
  return { entries: page, nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null };
}

export interface ItemActionView {
  id: string;
  name: string;
  timestamp: number;
  comment?: string;
  reviewer?: string;
  value?: string;
}

/** The actions taken on each of the given items (internal content ids), oldest first. */
export async function actionsForItems(db: Queryable, projectId: string, contentIds: readonly string[]): Promise<Map<string, ItemActionView[]>> {
  const byItem = new Map<string, ItemActionView[]>();
  if (contentIds.length === 0) return byItem;
  const { rows } = await db.query(
    `SELECT content_id, action_id, action_name, actor_key_id, value, comment, created_at FROM audit_log
     WHERE project_id = $1 AND kind = 'action' AND content_id IN (SELECT jsonb_array_elements_text($2::jsonb)) ORDER BY id`,
    [projectId, JSON.stringify(contentIds)],
  );
  for (const r of rows) {
    const view: ItemActionView = { id: r.action_id as string, name: r.action_name as string, timestamp: r.created_at as number };
    if (r.comment != null) view.comment = r.comment as string;
    if (r.actor_key_id != null) view.reviewer = r.actor_key_id as string;
    if (r.value != null) view.value = r.value as string;
    const list = byItem.get(r.content_id as string) ?? [];
    list.push(view);
    byItem.set(r.content_id as string, list);
  }
  return byItem;
}

// ---------------------------------------------------------------- dashboard view

export type AuditActor = { type: 'user'; userId: string; email: string | null } | { type: 'api_key'; keyId: string } | { type: 'system' };

/** An entry as the dashboard shows it: who acted, as a user, a key or the system. */
export type AuditLogEntry = Omit<AuditEntryView, 'actorKeyId'> & { actor: AuditActor; diff: ConfigChange[] | null };

export interface AuditLogQuery {
  /** A user id or email; 'api' for API-key entries; 'system' for automatic ones. */
  moderator?: string;
  kind?: AuditKind;
  /** An action type (AUTHOR_BLOCK), id or key. */
  actionType?: string;
  /** The author's external id or our id. */
  authorId?: string;
  /** The caller's contentId or our id. */
  contentId?: string;
  queueId?: string;
  from?: number;
  to?: number;
  limit: number;
  before?: string;
}

const str = (v: unknown) => (v as string | null) ?? null;

function toLogEntry(r: Record<string, unknown>): AuditLogEntry {
  const actor: AuditActor =
    r.actor_user_id != null
      ? { type: 'user', userId: r.actor_user_id as string, email: str(r.actor_email) }
      : r.actor_key_id != null
        ? { type: 'api_key', keyId: r.actor_key_id as string }
        : { type: 'system' };
  return {
    id: r.id as string,
    kind: r.kind as AuditKind,
    actor,
    actionId: str(r.action_id),
    actionKey: str(r.action_key),
    actionName: str(r.action_name),
    actionType: str(r.action_type),
    queueId: str(r.queue_id),
    contentId: str(r.content_external_id),
    authorId: str(r.author_external_id),
    value: str(r.value),
    comment: str(r.comment),
    diff: (r.diff as ConfigChange[] | null) ?? null,
    createdAt: Number(r.created_at),
  };
}

/** The audit log as the dashboard shows it: newest first, keyset-paged, every filter optional. */
export async function listAuditLog(db: Queryable, projectId: string, query: AuditLogQuery): Promise<{ entries: AuditLogEntry[]; nextCursor: string | null }> {
  const params: unknown[] = [projectId];
  const where = ['project_id = $1'];
  const add = (value: unknown) => `$${params.push(value)}`;
  if (query.moderator !== undefined) {
    if (query.moderator === 'api') where.push('actor_key_id IS NOT NULL');
    else if (query.moderator === 'system') where.push('actor_key_id IS NULL AND actor_user_id IS NULL');
    else {
      const p = add(query.moderator);
      where.push(`(actor_user_id = ${p} OR actor_email = lower(${p}))`);
    }
  }
  if (query.kind !== undefined) where.push(`kind = ${add(query.kind)}`);
  if (query.actionType !== undefined) {
    const p = add(query.actionType);
    where.push(`(action_type = ${p} OR action_id = ${p} OR action_key = ${p})`);
  }
  if (query.authorId !== undefined) {
    const p = add(query.authorId);
    where.push(`(author_external_id = ${p} OR author_id = ${p})`);
  }
  if (query.contentId !== undefined) {
    const p = add(query.contentId);
    where.push(`(content_external_id = ${p} OR content_id = ${p})`);
  }
  if (query.queueId !== undefined) where.push(`queue_id = ${add(query.queueId)}`);
  if (query.from !== undefined) where.push(`created_at >= ${add(query.from)}`);
  if (query.to !== undefined) where.push(`created_at < ${add(query.to)}`);
  if (query.before !== undefined) where.push(`id < ${add(query.before)}`);
  const { rows } = await db.query(`SELECT * FROM audit_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${add(query.limit + 1)}`, params);
  const page = rows.slice(0, query.limit).map(toLogEntry);
  return { entries: page, nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null };
}
