import type { Database, Queryable } from '../db/database.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { parseDate, queueFilterSql, SqlParams, validateQueueFilter, type QueueFilter } from '../core/queue-filter.ts';
import type { OutboxEvent, TopicHandler } from '../outbox/outbox.ts';
import { actionsForItems, actorId, actorOf, writeAuditEntries, type Actor, type ItemActionView } from './audit.ts';
import { derivedEventId, emitEvents, type EventDraft } from './webhooks.ts';
import { authorPayloads } from './authors.ts';

/**
 * Review queues: named saved filters over stored content. Items are not copied
 * into a queue; a queue's items are the content its filter selects, and an
 * item's resolution is recorded per queue.
 */

export interface Queue {
  id: string;
  projectId: string;
  name: string;
  description: string;
  filter: QueueFilter;
  createdAt: number;
  updatedAt: number;
}

export interface QueueView {
  id: string;
  name: string;
  description: string;
  filter: QueueFilter;
  resolvedItemsCount: number;
  totalItemsCount: number;
  unresolvedItemsCount: number;
}

const fromRow = (r: Record<string, unknown>): Queue => ({
  id: r.id as string,
  projectId: r.project_id as string,
  name: r.name as string,
  description: r.description as string,
  filter: r.filter as QueueFilter,
  createdAt: r.created_at as number,
  updatedAt: r.updated_at as number,
});

function checkFilter(filter: QueueFilter): QueueFilter {
  const issues = validateQueueFilter(filter);
  if (issues.length > 0) throw badRequest('Invalid queue filter', issues);
  return filter;
}

export async function createQueue(db: Queryable, projectId: string, body: { name: string; description?: string; filter?: QueueFilter }): Promise<Queue> {
  const filter = checkFilter(body.filter ?? {});
  const now = Date.now();
  const { rows } = await db.query(
    'INSERT INTO queues (id, project_id, name, description, filter, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *',
    [newId('q'), projectId, body.name, body.description ?? '', JSON.stringify(filter), now],
  );
  return fromRow(rows[0]!);
}

export async function listQueues(db: Queryable, projectId: string): Promise<Queue[]> {
  const { rows } = await db.query('SELECT * FROM queues WHERE project_id = $1 ORDER BY created_at, id', [projectId]);
  return rows.map(fromRow);
}

/** Every project's queues, oldest first, at most `limit` (metrics). */
export async function listAllQueues(db: Queryable, limit: number): Promise<Queue[]> {
  const { rows } = await db.query('SELECT * FROM queues ORDER BY created_at, id LIMIT $1', [limit]);
  return rows.map(fromRow);
}

export async function getQueue(db: Queryable, projectId: string, id: string): Promise<Queue> {
  const { rows } = await db.query('SELECT * FROM queues WHERE project_id = $1 AND id = $2', [projectId, id]);
  if (!rows[0]) throw notFound(`Queue "${id}"`);
  return fromRow(rows[0]);
}

export async function updateQueue(db: Queryable, projectId: string, id: string, body: { name?: string; description?: string; filter?: QueueFilter }): Promise<Queue> {
  const current = await getQueue(db, projectId, id);
  const filter = body.filter === undefined ? current.filter : checkFilter(body.filter);
  const { rows } = await db.query(
    'UPDATE queues SET name = $3, description = $4, filter = $5, updated_at = $6 WHERE project_id = $1 AND id = $2 RETURNING *',
    [projectId, id, body.name ?? current.name, body.description ?? current.description, JSON.stringify(filter), Date.now()],
  );
  return fromRow(rows[0]!);
}

export async function deleteQueue(db: Queryable, projectId: string, id: string): Promise<Queue> {
  const current = await getQueue(db, projectId, id);
  await db.query('DELETE FROM queues WHERE project_id = $1 AND id = $2', [projectId, id]);
  return current;
}

/**
 * How many stored items a filter selects now, and how many of those are flagged: the preview
 * of a queue being built, with the same SQL condition its listing will use.
 */
export async function countFilterMatches(db: Queryable, projectId: string, filter: QueueFilter): Promise<{ matching: number; flagged: number }> {
  checkFilter(filter);
  const params = new SqlParams([projectId]);
  const where = queueFilterSql(filter, params, '$1');
  const { rows } = await db.query<{ matching: number; flagged: number }>(
    `SELECT count(*)::int AS matching, count(*) FILTER (WHERE ci.flagged)::int AS flagged FROM content_items ci WHERE ${where}`,
    params.values,
  );
  return { matching: Number(rows[0]!.matching), flagged: Number(rows[0]!.flagged) };
}

/** A position in a project's items in the order of its (project_id, created_at DESC, id DESC) index. */
export interface ItemKey {
  createdAt: number;
  id: string;
}

/**
 * How many items the queue's filter selects and how many of them are resolved in it: the counts
 * of GET /v1/queue, and of the overview's open items (services/queue-counts.ts). `range` narrows
 * to a slice of the project's items in index order (`before` exclusive, `from` inclusive), so a
 * large project can be counted slice by slice.
 */
export async function countQueueItems(db: Queryable, queue: Queue, range: { before?: ItemKey; from?: ItemKey } = {}): Promise<{ total: number; resolved: number }> {
  const params = new SqlParams([queue.projectId, queue.id]);
  const where = [queueFilterSql(queue.filter, params, '$1')];
  if (range.before) where.push(`(ci.created_at, ci.id) < (${params.add(range.before.createdAt)}::bigint, ${params.add(range.before.id)}::text)`);
  if (range.from) where.push(`(ci.created_at, ci.id) >= (${params.add(range.from.createdAt)}::bigint, ${params.add(range.from.id)}::text)`);
  const { rows } = await db.query<{ total: number; resolved: number }>(
    `SELECT count(*) AS total, count(r.content_id) AS resolved FROM content_items ci
     LEFT JOIN queue_resolutions r ON r.queue_id = $2 AND r.content_id = ci.id WHERE ${where.join(' AND ')}`,
    params.values,
  );
  return { total: Number(rows[0]!.total), resolved: Number(rows[0]!.resolved) };
}

export async function queueView(db: Queryable, queue: Queue): Promise<QueueView> {
  const { total, resolved } = await countQueueItems(db, queue);
  return {
    id: queue.id,
    name: queue.name,
    description: queue.description,
    filter: queue.filter,
    resolvedItemsCount: resolved,
    totalItemsCount: total,
    unresolvedItemsCount: total - resolved,
  };
}

// ---------------------------------------------------------------- items

export interface LabelView {
  label: string;
  score: number;
  flagged: boolean;
}

export interface QueueItemView {
  id: string;
  content: string;
  flagged: boolean;
  labels: LabelView[];
  status: 'pending' | 'resolved';
  timestamp: number;
  actions: ItemActionView[];
  authorId?: string;
  contentType?: string;
  conversationId?: string;
  language?: string;
  severity: number;
  recommendation: string;
  resolvedAt?: number;
}

/** Stored content as one string: text as is, fields of objects line by line, media by URL. */
export function contentAsText(content: unknown): string {
  const c = content as { type?: string; text?: string; url?: string; data?: Record<string, { type: string; text?: string; url?: string }> };
  if (c.type === 'text') return c.text ?? '';
  if (c.type === 'object' && c.data) return Object.values(c.data).map((f) => (f.type === 'text' ? (f.text ?? '') : (f.url ?? ''))).join('\n');
  return c.url ?? '';
}

export function labelsOf(policies: unknown): LabelView[] {
  if (!Array.isArray(policies)) return [];
  return policies.map((p: { id: string; probability: number; flagged: boolean }) => ({ label: p.id, score: p.probability, flagged: p.flagged }));
}

export function languageOf(insights: unknown): string | undefined {
  if (!Array.isArray(insights)) return undefined;
  const found = insights.find((i: { id: string; value: unknown }) => i.id === 'language' && typeof i.value === 'string');
  return found ? (found.value as string) : undefined;
}

/** Columns every item view needs; `ci` is content_items, `a` its author. */
export const ITEM_COLUMNS = `ci.id, ci.external_id, ci.content, ci.content_type, ci.flagged, ci.severity_score, ci.recommendation,
  ci.result::json->'policies' AS policies, ci.result::json->'insights' AS insights, ci.metadata, ci.conversation_id, ci.author_id, ci.created_at,
  a.external_id AS author_external_id`;

/** The item as webhook payloads carry it (the SDK's WebhookPayload.item). */
export function webhookItem(row: Record<string, unknown>): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: row.external_id,
    flagged: row.flagged,
    labels: labelsOf(row.policies).map((l) => ({ ...l, manual: false })),
    language: languageOf(row.insights) ?? 'und',
    content: contentAsText(row.content),
    timestamp: row.created_at,
  };
  if (row.metadata != null) item.metadata = row.metadata;
  if (row.conversation_id != null) item.contextId = row.conversation_id;
  if (row.author_external_id != null) item.authorId = row.author_external_id;
  return item;
}

export interface ItemQuery {
  pageNumber: number;
  pageSize: number;
  sortField: 'createdAt' | 'severity' | 'reviewedAt';
  sortDirection: 'asc' | 'desc';
  includeResolved?: boolean;
  /** Narrows the queue's own filter. */
  extra: QueueFilter;
}

const SORT_COLUMNS = { createdAt: 'ci.created_at', severity: 'ci.severity_score', reviewedAt: 'r.resolved_at' } as const;

/**
 * One page of a queue's items as rows (ITEM_COLUMNS, resolved_at and `extraColumns`), and how
 * many items match in all.
 */
export async function queueItemRows(db: Queryable, queue: Queue, query: ItemQuery, extraColumns = ''): Promise<{ rows: Array<Record<string, unknown>>; total: number }> {
  const issues = validateQueueFilter(query.extra, '/querystring');
  if (issues.length > 0) throw badRequest('Invalid item filters', issues);
  const params = new SqlParams([queue.projectId, queue.id]);
  const where = [queueFilterSql(queue.filter, params, '$1'), queueFilterSql(query.extra, params, '$1')];
  if (!(query.includeResolved ?? queue.filter.showChecked ?? false)) where.push('r.content_id IS NULL');
  const from = `FROM content_items ci LEFT JOIN authors a ON a.id = ci.author_id
    LEFT JOIN queue_resolutions r ON r.queue_id = $2 AND r.content_id = ci.id WHERE ${where.join(' AND ')}`;
  const { rows: counted } = await db.query<{ n: number }>(`SELECT count(*) AS n ${from}`, params.values);
  const total = Number(counted[0]!.n);
  const direction = query.sortDirection === 'asc' ? 'ASC' : 'DESC';
  const nulls = query.sortField === 'reviewedAt' ? ' NULLS LAST' : '';
  const offset = (query.pageNumber - 1) * query.pageSize;
  const { rows } = await db.query(
    `SELECT ${ITEM_COLUMNS}, r.resolved_at${extraColumns ? `, ${extraColumns}` : ''} ${from}
     ORDER BY ${SORT_COLUMNS[query.sortField]} ${direction}${nulls}, ci.id ${direction}
     LIMIT ${params.add(query.pageSize)} OFFSET ${params.add(offset)}`,
    params.values,
  );
  return { rows, total };
}

export async function listQueueItems(db: Queryable, queue: Queue, query: ItemQuery) {
  const { rows, total } = await queueItemRows(db, queue, query);
  const actions = await actionsForItems(db, queue.projectId, rows.map((r) => r.id as string));
  const items = rows.map((r): QueueItemView => {
    const item: QueueItemView = {
      id: r.external_id as string,
      content: contentAsText(r.content),
      flagged: r.flagged as boolean,
      labels: labelsOf(r.policies),
      status: r.resolved_at == null ? 'pending' : 'resolved',
      timestamp: r.created_at as number,
      actions: actions.get(r.id as string) ?? [],
      contentType: r.content_type as string,
      severity: r.severity_score as number,
      recommendation: r.recommendation as string,
    };
    if (r.author_external_id != null) item.authorId = r.author_external_id as string;
    if (r.conversation_id != null) item.conversationId = r.conversation_id as string;
    const language = languageOf(r.insights);
    if (language !== undefined) item.language = language;
    if (r.resolved_at != null) item.resolvedAt = r.resolved_at as number;
    return item;
  });
  const totalPages = Math.ceil(total / query.pageSize);
  return {
    items,
    pagination: {
      currentPage: query.pageNumber,
      totalPages,
      totalItems: total,
      hasNextPage: query.pageNumber < totalPages,
      hasPreviousPage: query.pageNumber > 1,
    },
  };
}

/** The item of the queue by the caller's contentId (or our id); 404 when the queue does not select it. */
async function findQueueItem(db: Queryable, queue: Queue, itemId: string) {
  const params = new SqlParams([queue.projectId, queue.id]);
  const where = queueFilterSql(queue.filter, params, '$1');
  const idParam = params.add(itemId);
  const { rows } = await db.query(
    `SELECT ${ITEM_COLUMNS}, r.resolved_at, r.comment AS resolution_comment, u.email AS resolver_email FROM content_items ci LEFT JOIN authors a ON a.id = ci.author_id
     LEFT JOIN queue_resolutions r ON r.queue_id = $2 AND r.content_id = ci.id LEFT JOIN dashboard_users u ON u.id = r.resolved_by
     WHERE ${where} AND (ci.external_id = ${idParam} OR ci.id = ${idParam})
     ORDER BY (ci.external_id = ${idParam}) DESC LIMIT 1`,
    params.values,
  );
  if (!rows[0]) throw notFound(`Item "${itemId}" in queue "${queue.id}"`);
  return rows[0];
}

export async function resolveItem(db: Database, queue: Queue, itemId: string, by: string | Actor, comment: string | undefined, options: { refuseResolved?: boolean } = {}) {
  const actor = actorOf(by);
  return db.transaction(async (tx) => {
    const row = await findQueueItem(tx, queue, itemId);
    if (row.resolved_at != null && options.refuseResolved) {
      const who = row.resolver_email != null ? ` by ${row.resolver_email as string}` : '';
      throw conflict(`Item "${row.external_id as string}" was already resolved in queue "${queue.name}"${who} at ${new Date(row.resolved_at as number).toISOString()}`);
    }
    if (row.resolved_at != null) {
      const resolvedAt = new Date(row.resolved_at as number).toISOString();
      return { success: true, resolvedAt, ...(row.resolution_comment != null ? { comment: row.resolution_comment as string } : {}) };
    }
    const now = Date.now();
    await tx.query(
      `INSERT INTO queue_resolutions (queue_id, content_id, project_id, resolved_at, resolved_by, comment) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (queue_id, content_id) DO NOTHING`,
      [queue.id, row.id, queue.projectId, now, actorId(actor), comment ?? null],
    );
    await writeAuditEntries(tx, queue.projectId, [resolutionAudit('resolve', queue, row, actor, comment)], now);
    const authors = await authorPayloads(tx, queue.projectId, row.author_id == null ? [] : [row.author_id as string]);
    await emitEvents(tx, queue.projectId, [
      {
        type: 'QUEUE_ITEM_COMPLETED',
        data: { item: webhookItem(row), queue: { id: queue.id, name: queue.name }, author: authors.get(row.author_id as string) ?? null, comment: comment ?? null },
      },
    ], now);
    return { success: true, resolvedAt: new Date(now).toISOString(), ...(comment !== undefined ? { comment } : {}) };
  });
}

/** The audit entry of resolving or reopening one item in one queue. */
function resolutionAudit(kind: 'resolve' | 'unresolve', queue: Queue, row: Record<string, unknown>, actor: Actor, comment: string | undefined) {
  return {
    kind,
    actorKeyId: actor.keyId,
    actorUserId: actor.userId ?? null,
    actorEmail: actor.email ?? null,
    queueId: queue.id,
    contentId: row.id as string,
    contentExternalId: row.external_id as string,
    authorId: (row.author_id as string | null) ?? null,
    authorExternalId: (row.author_external_id as string | null) ?? null,
    comment: comment ?? null,
    itemCreatedAt: row.created_at as number,
  } as const;
}

export async function unresolveItem(db: Database, queue: Queue, itemId: string, by: string | Actor, comment: string | undefined, options: { refuseUnresolved?: boolean } = {}) {
  const actor = actorOf(by);
  return db.transaction(async (tx) => {
    const row = await findQueueItem(tx, queue, itemId);
    if (row.resolved_at == null && options.refuseUnresolved) throw conflict(`Item "${row.external_id as string}" is not resolved in queue "${queue.name}"`);
    const now = Date.now();
    if (row.resolved_at != null) {
      await tx.query('DELETE FROM queue_resolutions WHERE queue_id = $1 AND content_id = $2', [queue.id, row.id]);
      await writeAuditEntries(tx, queue.projectId, [resolutionAudit('unresolve', queue, row, actor, comment)], now);
    }
    return { success: true, status: 'pending', unresolvedAt: new Date(now).toISOString() };
  });
}

// ---------------------------------------------------------------- stats

const DAY_MS = 86_400_000;

export async function queueStats(db: Queryable, queue: Queue, withinDays: number, now = Date.now()) {
  const since = now - withinDays * DAY_MS;
  const pendingParams = new SqlParams([queue.projectId, queue.id]);
  const pendingWhere = queueFilterSql(queue.filter, pendingParams, '$1');
  const [pending, reviewed, actions, reviewers, reviewerActions, daily] = await Promise.all([
    db.query<{ n: number }>(
      `SELECT count(*) AS n FROM content_items ci LEFT JOIN queue_resolutions r ON r.queue_id = $2 AND r.content_id = ci.id
       WHERE ${pendingWhere} AND r.content_id IS NULL`,
      pendingParams.values,
    ),
    db.query<{ n: number; avg_ms: number | null }>(
      `SELECT count(*) AS n, avg(r.resolved_at - ci.created_at) AS avg_ms FROM queue_resolutions r JOIN content_items ci ON ci.id = r.content_id
       WHERE r.queue_id = $1 AND r.resolved_at >= $2`,
      [queue.id, since],
    ),
    db.query<{ action_id: string; action_name: string; n: number }>(
      `SELECT action_id, max(action_name) AS action_name, count(*) AS n FROM audit_log
       WHERE queue_id = $1 AND kind = 'action' AND created_at >= $2 GROUP BY action_id ORDER BY n DESC, action_id`,
      [queue.id, since],
    ),
    db.query<{ user_id: string; name: string | null; n: number; avg_ms: number | null }>(
      `SELECT r.resolved_by AS user_id, COALESCE(max(k.name), max(u.email)) AS name, count(*) AS n, avg(r.resolved_at - ci.created_at) AS avg_ms
       FROM queue_resolutions r JOIN content_items ci ON ci.id = r.content_id LEFT JOIN api_keys k ON k.id = r.resolved_by
       LEFT JOIN dashboard_users u ON u.id = r.resolved_by
       WHERE r.queue_id = $1 AND r.resolved_at >= $2 AND r.resolved_by IS NOT NULL
       GROUP BY r.resolved_by ORDER BY n DESC, r.resolved_by LIMIT 10`,
      [queue.id, since],
    ),
    db.query<{ user_id: string; action_id: string; action_name: string; n: number }>(
      `SELECT COALESCE(actor_key_id, actor_user_id) AS user_id, action_id, max(action_name) AS action_name, count(*) AS n FROM audit_log
       WHERE queue_id = $1 AND kind = 'action' AND created_at >= $2 AND COALESCE(actor_key_id, actor_user_id) IS NOT NULL
       GROUP BY 1, action_id ORDER BY n DESC, action_id`,
      [queue.id, since],
    ),
    db.query<{ day: string; n: number }>(
      `SELECT to_char(to_timestamp(resolved_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS n
       FROM queue_resolutions WHERE queue_id = $1 AND resolved_at >= $2 GROUP BY day ORDER BY day`,
      [queue.id, since],
    ),
  ]);
  const trendParams = new SqlParams([queue.projectId, since, since + (now - since) / 2]);
  const trendWhere = queueFilterSql(queue.filter, trendParams, '$1');
  const { rows: trendRows } = await db.query<{ label: string; recent: number; earlier: number }>(
    `SELECT pol->>'id' AS label, count(*) FILTER (WHERE ci.created_at >= $3) AS recent, count(*) FILTER (WHERE ci.created_at < $3) AS earlier
     FROM content_items ci CROSS JOIN LATERAL json_array_elements(ci.result::json->'policies') AS pol
     WHERE ${trendWhere} AND ci.created_at >= $2 AND (pol->>'flagged')::boolean
     GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 20`,
    trendParams.values,
  );
  const totalActions = actions.rows.reduce((sum, r) => sum + r.n, 0);
  return {
    reviewStats: {
      averageTimeToReview: Math.round(reviewed.rows[0]!.avg_ms ?? 0),
      totalPending: pending.rows[0]!.n,
      totalReviewed: reviewed.rows[0]!.n,
    },
    actionStats: actions.rows.map((r) => ({
      actionId: r.action_id,
      actionName: r.action_name,
      count: r.n,
      percentageOfTotal: Math.round((r.n / totalActions) * 10_000) / 100,
    })),
    topReviewers: reviewers.rows.map((r) => ({
      userId: r.user_id,
      name: r.name ?? r.user_id,
      reviewCount: r.n,
      averageTimePerReview: Math.round(r.avg_ms ?? 0),
      topActions: reviewerActions.rows
        .filter((a) => a.user_id === r.user_id)
        .slice(0, 3)
        .map((a) => ({ actionId: a.action_id, actionName: a.action_name, count: a.n })),
    })),
    trends: {
      dailyReviewCounts: daily.rows.map((r) => ({ date: r.day, count: r.n })),
      flaggedContentTrends: trendRows.map((r) => ({
        label: r.label,
        trend: Math.round(((r.recent - r.earlier) / Math.max(1, r.recent + r.earlier)) * 1000) / 1000,
      })),
    },
  };
}

// ---------------------------------------------------------------- new items

/**
 * Fans a newly stored item out as QUEUE_ITEM_NEW, one event per queue that
 * selects it (one event without a queue when the project has no queue yet).
 * Event ids derive from the outbox job, so running twice sends nothing twice.
 */
export async function fanOutNewItem(db: Database, job: OutboxEvent): Promise<number> {
  const contentId = (job.payload as { contentId: string }).contentId;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `SELECT ${ITEM_COLUMNS} FROM content_items ci LEFT JOIN authors a ON a.id = ci.author_id WHERE ci.project_id = $1 AND ci.id = $2`,
      [job.projectId, contentId],
    );
    const row = rows[0];
    if (!row) return 0;
    const queues = await listQueues(tx, job.projectId);
    let selected: Queue[] = [];
    if (queues.length > 0) {
      const params = new SqlParams([job.projectId, contentId]);
      const checks = queues.map(
        (q, i) => `SELECT ${i} AS i WHERE EXISTS (SELECT 1 FROM content_items ci WHERE ci.id = $2 AND ${queueFilterSql(q.filter, params, '$1')})`,
      );
      const { rows: hits } = await tx.query<{ i: number }>(checks.join(' UNION ALL '), params.values);
      selected = hits.map((h) => queues[h.i]!);
      if (selected.length === 0) return 0;
    }
    const authors = await authorPayloads(tx, job.projectId, row.author_id == null ? [] : [row.author_id as string]);
    const base = { item: webhookItem(row), author: authors.get(row.author_id as string) ?? null };
    const drafts: EventDraft[] =
      queues.length === 0
        ? [{ type: 'QUEUE_ITEM_NEW', id: derivedEventId('queue_item_new', String(job.id)), data: base }]
        : selected.map((q) => ({
            type: 'QUEUE_ITEM_NEW',
            id: derivedEventId('queue_item_new', String(job.id), q.id),
            data: { ...base, queue: { id: q.id, name: q.name } },
          }));
    return emitEvents(tx, job.projectId, drafts);
  });
}

export function newQueueItemHandler(db: Database, maxAttempts: number, backoffMs: (attempts: number) => number): TopicHandler {
  return { maxAttempts, backoffMs, handle: async (job) => void (await fanOutNewItem(db, job)) };
}

export function parseDateParam(value: string | undefined, path: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDate(value);
  if (ms === null) throw badRequest('Invalid date', [{ message: 'expected an ISO 8601 date or milliseconds since the epoch', path }]);
  return ms;
}
