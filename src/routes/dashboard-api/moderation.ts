import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { badRequest, notFound } from '../../errors.ts';
import { allows, mayUseQueue, PERMISSIONS } from '../../core/roles.ts';
import { parseDate } from '../../core/queue-filter.ts';
import { ItemListQuery } from '../../schemas/queues.ts';
import {
  AuditQuery,
  ClaimBody,
  CommentBody,
  ExecuteBody,
  ItemDetailQuery,
  ItemParams,
  ProjectParams,
  QueueItemParams,
  QueueParams,
} from '../../schemas/dashboard.ts';
import { parseItemQuery } from '../queues.ts';
import { contentAsText, getQueue, labelsOf, languageOf, listQueues, queueItemRows, queueView, resolveItem, unresolveItem, type Queue } from '../../services/queues.ts';
import { executeAction, listActions, MAX_DASHBOARD_TARGETS, toActionView } from '../../services/actions.ts';
import { actionsForItems, listAuditLog, type AuditKind } from '../../services/audit.ts';
import { claimItem, claimsFor, releaseClaim } from '../../services/dashboard/claims.ts';
import { toAuthorSummary } from '../../services/authors.ts';
import { actorOfRequest, memberOf } from './access.ts';

const hide = true;
const PREVIEW_LENGTH = 500;

export const preview = (content: unknown) => {
  const text = contentAsText(content);
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
};

/** The queue, if this member may see it (404 otherwise, as for a queue that does not exist). */
export async function visibleQueue(request: FastifyRequest, queueId: string): Promise<Queue> {
  const member = memberOf(request);
  const queue = await getQueue(request.server.deps.db, member.projectId, queueId);
  if (!mayUseQueue(member.role, member.queueIds, queue.id)) throw notFound(`Queue "${queueId}"`);
  return queue;
}

const DASHBOARD_ITEM_COLUMNS = `ci.channel_id, ci.shadow_flagged, ci.result::json->'shadow_flagged' AS shadow_policies,
  a.id AS author_row_id, a.name AS author_name, a.status AS author_status, a.block_until AS author_block_until, a.trust_level AS author_trust_level`;

function authorOfRow(r: Record<string, unknown>, now: number) {
  if (r.author_row_id == null) return null;
  const blockUntil = r.author_block_until == null ? null : Number(r.author_block_until);
  const expired = r.author_status === 'suspended' && blockUntil !== null && blockUntil <= now;
  return {
    id: r.author_row_id as string,
    externalId: r.author_external_id as string,
    name: (r.author_name as string | null) ?? null,
    status: expired ? 'enabled' : (r.author_status as string),
    trustLevel: Number(r.author_trust_level),
    blockUntil: expired ? null : blockUntil,
  };
}

/** Finds a stored item of the project by contentId or internal id. */
async function findItem(request: FastifyRequest, itemId: string): Promise<Record<string, unknown>> {
  const { db } = request.server.deps;
  const { rows } = await db.query(
    `SELECT ci.*, ci.result::json AS result_json FROM content_items ci WHERE ci.project_id = $1 AND (ci.external_id = $2 OR ci.id = $2)
     ORDER BY (ci.external_id = $2) DESC LIMIT 1`,
    [memberOf(request).projectId, itemId],
  );
  if (!rows[0]) throw notFound(`Item "${itemId}"`);
  return rows[0];
}

function parseInstant(raw: string | undefined, path: string): number | undefined {
  if (raw === undefined) return undefined;
  const ms = parseDate(raw);
  if (ms === null) throw badRequest('Invalid date', [{ message: 'expected an ISO 8601 date or milliseconds since the epoch', path }]);
  return ms;
}

export async function moderationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const P = '/projects/:projectId';

  app.get(P, { config: { access: 'read' }, schema: { hide, params: ProjectParams } }, async (request) => {
    const member = memberOf(request);
    return {
      project: { id: member.projectId, name: member.projectName },
      role: member.role,
      queueIds: member.queueIds,
      permissions: PERMISSIONS.filter((p) => allows(member.role, p)),
    };
  });

  // ------------------------------------------------------------ queues

  app.get(`${P}/queues`, { config: { access: 'read' }, schema: { hide, params: ProjectParams } }, async (request) => {
    const member = memberOf(request);
    const queues = (await listQueues(db, member.projectId)).filter((q) => mayUseQueue(member.role, member.queueIds, q.id));
    return { queues: await Promise.all(queues.map((q) => queueView(db, q))) };
  });

  app.get(`${P}/queues/:queueId`, { config: { access: 'read' }, schema: { hide, params: QueueParams } }, async (request) => ({
    queue: await queueView(db, await visibleQueue(request, request.params.queueId)),
  }));

  app.get(`${P}/queues/:queueId/items`, { config: { access: 'read' }, schema: { hide, params: QueueParams, querystring: ItemListQuery } }, async (request) => {
    const queue = await visibleQueue(request, request.params.queueId);
    const query = parseItemQuery(request.query, 50);
    const { rows, total } = await queueItemRows(db, queue, query, DASHBOARD_ITEM_COLUMNS);
    const ids = rows.map((r) => r.id as string);
    const [actions, claims] = await Promise.all([actionsForItems(db, queue.projectId, ids), claimsFor(db, queue.projectId, ids, request.dashboard.user.id)]);
    const now = Date.now();
    const items = rows.map((r) => ({
      id: r.external_id as string,
      internalId: r.id as string,
      preview: preview(r.content),
      contentType: r.content_type as string,
      flagged: r.flagged as boolean,
      shadowFlagged: !(r.flagged as boolean) && (r.shadow_flagged as boolean),
      shadowPolicies: (r.shadow_policies as string[] | null) ?? [],
      labels: labelsOf(r.policies),
      severity: r.severity_score as number,
      recommendation: r.recommendation as string,
      channelId: r.channel_id as string,
      conversationId: (r.conversation_id as string | null) ?? null,
      language: languageOf(r.insights) ?? null,
      createdAt: Number(r.created_at),
      status: r.resolved_at == null ? 'pending' : 'resolved',
      resolvedAt: r.resolved_at == null ? null : Number(r.resolved_at),
      author: authorOfRow(r, now),
      claim: claims.get(r.id as string) ?? null,
      actions: actions.get(r.id as string) ?? [],
    }));
    const totalPages = Math.ceil(total / query.pageSize);
    return {
      items,
      pagination: { currentPage: query.pageNumber, totalPages, totalItems: total, hasNextPage: query.pageNumber < totalPages, hasPreviousPage: query.pageNumber > 1 },
    };
  });

  app.get(`${P}/queues/:queueId/actions`, { config: { access: 'read' }, schema: { hide, params: QueueParams } }, async (request) => {
    const queue = await visibleQueue(request, request.params.queueId);
    return { actions: (await listActions(db, queue.projectId, queue.id)).map(toActionView) };
  });

  app.post(`${P}/queues/:queueId/items/:itemId/resolve`, { config: { access: 'moderate' }, schema: { hide, params: QueueItemParams, body: CommentBody } }, async (request) => {
    const queue = await visibleQueue(request, request.params.queueId);
    const result = await resolveItem(db, queue, request.params.itemId, actorOfRequest(request), request.body?.comment, { refuseResolved: true });
    app.deps.outbox.poke();
    return { resolved: true, resolvedAt: Date.parse(result.resolvedAt), comment: result.comment ?? null };
  });

  app.post(`${P}/queues/:queueId/items/:itemId/unresolve`, { config: { access: 'moderate' }, schema: { hide, params: QueueItemParams, body: CommentBody } }, async (request) => {
    const queue = await visibleQueue(request, request.params.queueId);
    const result = await unresolveItem(db, queue, request.params.itemId, actorOfRequest(request), request.body?.comment, { refuseUnresolved: true });
    return { resolved: false, unresolvedAt: Date.parse(result.unresolvedAt) };
  });

  // ------------------------------------------------------------ items

  app.get(`${P}/items/:itemId`, { config: { access: 'read' }, schema: { hide, params: ItemParams, querystring: ItemDetailQuery } }, async (request) => {
    const member = memberOf(request);
    const row = await findItem(request, request.params.itemId);
    const result = (row.result_json ?? {}) as Record<string, unknown>;
    let queue = null;
    if (request.query.queueId !== undefined) {
      const q = await visibleQueue(request, request.query.queueId);
      const { rows } = await db.query(
        `SELECT r.resolved_at, r.resolved_by, r.comment, u.email FROM queue_resolutions r LEFT JOIN dashboard_users u ON u.id = r.resolved_by
         WHERE r.queue_id = $1 AND r.content_id = $2`,
        [q.id, row.id],
      );
      const r = rows[0];
      queue = {
        id: q.id,
        name: q.name,
        status: r ? 'resolved' : 'pending',
        resolvedAt: r ? Number(r.resolved_at) : null,
        resolvedBy: r ? { userId: (r.resolved_by as string | null) ?? null, email: (r.email as string | null) ?? null } : null,
        comment: r ? ((r.comment as string | null) ?? null) : null,
      };
    }
    const [authorRows, claims, history] = await Promise.all([
      row.author_id == null
        ? Promise.resolve({ rows: [] as Array<Record<string, unknown>> })
        : db.query('SELECT authors.*, authors.recent_flags::text AS recent_flags FROM authors WHERE project_id = $1 AND id = $2', [member.projectId, row.author_id]),
      claimsFor(db, member.projectId, [row.id as string], request.dashboard.user.id),
      listAuditLog(db, member.projectId, { contentId: row.id as string, limit: 100 }),
    ]);
    const authorRow = authorRows.rows[0];
    const author = authorRow ? { ...toAuthorSummary(authorRow), name: (authorRow.name as string | null) ?? null } : null;
    return {
      item: {
        id: row.external_id,
        internalId: row.id,
        content: row.content,
        modified: row.modified ?? null,
        contentType: row.content_type,
        metaType: row.meta_type ?? null,
        metadata: row.metadata ?? null,
        conversationId: row.conversation_id ?? null,
        channelId: row.channel_id,
        createdAt: Number(row.created_at),
        flagged: row.flagged,
        shadowFlagged: !(row.flagged as boolean) && (row.shadow_flagged as boolean),
        severity: row.severity_score,
        flagProbability: row.flag_probability,
      },
      evaluation: result.evaluation ?? null,
      recommendation: result.recommendation ?? null,
      policies: result.policies ?? [],
      insights: result.insights ?? [],
      errors: result.errors ?? [],
      shadowPolicies: result.shadow_flagged ?? [],
      unicode: result.unicode ?? null,
      author,
      queue,
      claim: claims.get(row.id as string) ?? null,
      history: history.entries,
    };
  });

  app.post(`${P}/items/:itemId/claim`, { config: { access: 'moderate' }, schema: { hide, params: ItemParams, body: ClaimBody } }, async (request) => {
    const row = await findItem(request, request.params.itemId);
    return { claim: await claimItem(db, memberOf(request).projectId, row.id as string, request.dashboard.user.id, request.body?.force === true) };
  });

  app.delete(`${P}/items/:itemId/claim`, { config: { access: 'moderate' }, schema: { hide, params: ItemParams } }, async (request) => {
    const row = await findItem(request, request.params.itemId);
    return { released: await releaseClaim(db, memberOf(request).projectId, row.id as string, request.dashboard.user.id) };
  });

  // ------------------------------------------------------------ actions

  app.post(`${P}/actions/execute`, { config: { access: 'moderate' }, schema: { hide, params: ProjectParams, body: ExecuteBody } }, async (request) => {
    const member = memberOf(request);
    const body = request.body;
    const contentIds = body.contentIds ?? [];
    const authorIds = body.authorIds ?? [];
    if (contentIds.length + authorIds.length > MAX_DASHBOARD_TARGETS) {
      throw badRequest(`At most ${MAX_DASHBOARD_TARGETS} items and authors in one execution`, [{ message: 'too many targets', path: '/contentIds' }]);
    }
    if (body.queueId !== undefined) await visibleQueue(request, body.queueId);
    else if (member.role === 'moderator' && member.queueIds !== null && contentIds.length > 0) {
      throw badRequest('You may act on items only from your queues: give queueId', [{ message: 'queueId required', path: '/queueId' }]);
    }
    const result = await executeAction(db, member.projectId, actorOfRequest(request), {
      actionKey: body.actionId,
      contentIds,
      authorIds,
      ...(body.value !== undefined ? { value: body.value } : {}),
      ...(body.comment !== undefined ? { comment: body.comment } : {}),
      ...(body.queueId !== undefined ? { queueId: body.queueId } : {}),
      ...(body.durationMs !== undefined ? { duration: body.durationMs } : {}),
      refuseResolved: body.allowResolved !== true,
    });
    app.deps.outbox.poke();
    return {
      actionId: result.action.id,
      actionName: result.action.name,
      contentIds: result.contentIds,
      authorIds: result.authorIds,
      count: result.contentIds.length + result.authorIds.length,
    };
  });

  // ------------------------------------------------------------ audit

  app.get(`${P}/audit`, { config: { access: 'read' }, schema: { hide, params: ProjectParams, querystring: AuditQuery } }, async (request) => {
    const q = request.query;
    const limit = q.limit === undefined ? 50 : Number(q.limit);
    if (limit < 1 || limit > 200) throw badRequest('limit must be from 1 to 200', [{ message: 'out of range', path: '/querystring/limit' }]);
    return listAuditLog(db, memberOf(request).projectId, {
      limit,
      ...(q.moderator !== undefined ? { moderator: q.moderator } : {}),
      ...(q.kind !== undefined ? { kind: q.kind as AuditKind } : {}),
      ...(q.actionType !== undefined ? { actionType: q.actionType } : {}),
      ...(q.authorId !== undefined ? { authorId: q.authorId } : {}),
      ...(q.contentId !== undefined ? { contentId: q.contentId } : {}),
      ...(q.queueId !== undefined ? { queueId: q.queueId } : {}),
      ...(q.before !== undefined ? { before: q.before } : {}),
      ...(q.from !== undefined ? { from: parseInstant(q.from, '/querystring/from') } : {}),
      ...(q.to !== undefined ? { to: parseInstant(q.to, '/querystring/to') } : {}),
    });
  });
}
