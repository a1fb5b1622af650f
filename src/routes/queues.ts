import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { badRequest } from '../errors.ts';
import { errorResponses, Id } from '../schemas/common.ts';
import {
  CreateQueueBody,
  ItemListQuery,
  ItemListResponse,
  QueueResponse,
  QueueSchema,
  ResolveBody,
  ResolveResponse,
  StatsQuery,
  StatsResponse,
  UnresolveResponse,
  UpdateQueueBody,
} from '../schemas/queues.ts';
import type { QueueFilter } from '../core/queue-filter.ts';
import {
  createQueue,
  deleteQueue,
  getQueue,
  listQueueItems,
  listQueues,
  queueStats,
  queueView,
  resolveItem,
  unresolveItem,
  updateQueue,
  type ItemQuery,
} from '../services/queues.ts';

const tags = ['queues'];
const QueueParams = Type.Object({ id: Id });
const ItemParams = Type.Object({ id: Id, itemId: Id });

function boundedInt(raw: string | undefined, fallback: number, min: number, max: number, path: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (n < min || n > max) throw badRequest(`${path.slice(1)} must be from ${min} to ${max}`, [{ message: `out of range`, path: `/querystring${path}` }]);
  return n;
}

const commaList = (raw: string | undefined) =>
  raw === undefined ? undefined : raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);

/** The item-list query of a queue (the filters and sorts of queue.items.list). */
export function parseItemQuery(q: ItemListQuery, defaultPageSize = 20): ItemQuery {
  const extra: QueueFilter = {};
  if (q.afterDate !== undefined) extra.afterDate = q.afterDate;
  if (q.beforeDate !== undefined) extra.beforeDate = q.beforeDate;
  if (q.authorId !== undefined) extra.authorID = q.authorId;
  const conversations = commaList(q.conversationIds);
  if (conversations) extra.conversationIds = conversations;
  const actions = commaList(q.filteredActionIds);
  if (actions) extra.filteredActionIds = actions;
  const labels = commaList(q.labels);
  if (labels) extra.labels = labels;
  return {
    pageNumber: boundedInt(q.pageNumber, 1, 1, 1_000_000, '/pageNumber'),
    pageSize: boundedInt(q.pageSize, defaultPageSize, 1, 100, '/pageSize'),
    sortField: q.sortField ?? 'createdAt',
    sortDirection: q.sortDirection ?? 'desc',
    includeResolved: q.includeResolved === undefined ? undefined : q.includeResolved === 'true',
    extra,
  };
}

export async function queueRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const outbox = () => app.deps.outbox;

  app.get(
    '/queue',
    { schema: { summary: 'List queues', tags, response: { 200: Type.Object({ queues: Type.Array(QueueSchema) }), ...errorResponses() } } },
    async (request) => {
      const queues = await listQueues(db, request.principal.projectId);
      return { queues: await Promise.all(queues.map((q) => queueView(db, q))) };
    },
  );

  app.post(
    '/queue',
    { schema: { summary: 'Create a queue (a named saved filter)', tags, body: CreateQueueBody, response: { 201: QueueResponse, ...errorResponses() } } },
    async (request, reply) => {
      const queue = await createQueue(db, request.principal.projectId, request.body as { name: string; description?: string; filter?: QueueFilter });
      app.deps.queueCounts.poke();
      return reply.status(201).send({ queue: await queueView(db, queue) });
    },
  );

  app.get(
    '/queue/:id',
    { schema: { summary: 'Get a queue', tags, params: QueueParams, response: { 200: QueueResponse, ...errorResponses(404) } } },
    async (request) => ({ queue: await queueView(db, await getQueue(db, request.principal.projectId, request.params.id)) }),
  );

  app.put(
    '/queue/:id',
    { schema: { summary: 'Update a queue', tags, params: QueueParams, body: UpdateQueueBody, response: { 200: QueueResponse, ...errorResponses(404) } } },
    async (request) => {
      const queue = await updateQueue(db, request.principal.projectId, request.params.id, request.body as { name?: string; description?: string; filter?: QueueFilter });
      app.deps.queueCounts.poke();
      return { queue: await queueView(db, queue) };
    },
  );

  app.delete(
    '/queue/:id',
    {
      schema: {
        summary: 'Delete a queue (items stay stored)',
        tags,
        params: QueueParams,
        response: { 200: Type.Object({ id: Type.String(), deleted: Type.Boolean() }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const queue = await deleteQueue(db, request.principal.projectId, request.params.id);
      return { id: queue.id, deleted: true };
    },
  );

  app.get(
    '/queue/:id/stats',
    { schema: { summary: 'Queue statistics', tags, params: QueueParams, querystring: StatsQuery, response: { 200: StatsResponse, ...errorResponses(404) } } },
    async (request) => {
      const queue = await getQueue(db, request.principal.projectId, request.params.id);
      return queueStats(db, queue, boundedInt(request.query.withinDays, 30, 1, 365, '/withinDays'));
    },
  );

  app.get(
    '/queue/:id/items',
    { schema: { summary: 'List the items of a queue', tags, params: QueueParams, querystring: ItemListQuery, response: { 200: ItemListResponse, ...errorResponses(404) } } },
    async (request) => {
      const queue = await getQueue(db, request.principal.projectId, request.params.id);
      return listQueueItems(db, queue, parseItemQuery(request.query));
    },
  );

  app.post(
    '/queue/:id/items/:itemId/resolve',
    { schema: { summary: 'Resolve an item in this queue', tags, params: ItemParams, body: ResolveBody, response: { 200: ResolveResponse, ...errorResponses(404) } } },
    async (request) => {
      const queue = await getQueue(db, request.principal.projectId, request.params.id);
      const result = await resolveItem(db, queue, request.params.itemId, request.principal.keyId, request.body?.comment);
      outbox().poke();
      return result;
    },
  );

  app.post(
    '/queue/:id/items/:itemId/unresolve',
    { schema: { summary: 'Put a resolved item back into this queue', tags, params: ItemParams, body: ResolveBody, response: { 200: UnresolveResponse, ...errorResponses(404) } } },
    async (request) => {
      const queue = await getQueue(db, request.principal.projectId, request.params.id);
      return unresolveItem(db, queue, request.params.itemId, request.principal.keyId, request.body?.comment);
    },
  );
}
