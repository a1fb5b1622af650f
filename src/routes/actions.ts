import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { badRequest } from '../errors.ts';
import { errorResponses, Id } from '../schemas/common.ts';
import {
  ActionSchema,
  ActionWithWebhooksSchema,
  AuditQuery,
  AuditResponse,
  CreateActionBody,
  ExecuteBody,
  ExecuteByIdBody,
  ListActionsQuery,
  UpdateActionBody,
} from '../schemas/actions.ts';
import {
  createAction,
  deleteAction,
  executeAction,
  getAction,
  listActions,
  toActionView,
  updateAction,
  withWebhooks,
  type ActionInput,
} from '../services/actions.ts';
import { listAuditEntries } from '../services/audit.ts';

const tags = ['actions'];
const ActionParams = Type.Object({ id: Id });

export async function actionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.deps;
  const allowPrivate = config.allowPrivateOutbound;

  app.get(
    '/actions',
    { schema: { summary: 'List actions (built-in and custom), with their webhooks', tags, querystring: ListActionsQuery, response: { 200: Type.Array(ActionWithWebhooksSchema), ...errorResponses(404) } } },
    async (request) => withWebhooks(db, request.principal.projectId, await listActions(db, request.principal.projectId, request.query.queueId)),
  );

  app.post(
    '/actions',
    { schema: { summary: 'Create an action (200, as the hosted API answers creates)', tags, body: CreateActionBody, response: { 200: ActionSchema, ...errorResponses(409) } } },
    async (request) => toActionView(await createAction(db, request.principal.projectId, request.body as ActionInput & { name: string }, allowPrivate)),
  );

  app.post(
    '/actions/execute',
    {
      schema: {
        summary: 'Execute an action on content items and/or authors (bulk, one transaction)',
        tags,
        body: ExecuteBody,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(404) },
      },
    },
    async (request) => {
      await executeAction(db, request.principal.projectId, request.principal.keyId, request.body);
      app.deps.outbox.poke();
      return { success: true };
    },
  );

  app.get(
    '/actions/:id',
    { schema: { summary: 'Get an action by id or key', tags, params: ActionParams, response: { 200: ActionWithWebhooksSchema, ...errorResponses(404) } } },
    async (request) => {
      const action = await getAction(db, request.principal.projectId, request.params.id);
      return (await withWebhooks(db, request.principal.projectId, [action]))[0]!;
    },
  );

  app.put(
    '/actions/:id',
    { schema: { summary: 'Update an action', tags, params: ActionParams, body: UpdateActionBody, response: { 200: ActionSchema, ...errorResponses(404, 409) } } },
    async (request) => toActionView(await updateAction(db, request.principal.projectId, request.params.id, request.body as ActionInput, allowPrivate)),
  );

  app.delete(
    '/actions/:id',
    {
      schema: {
        summary: 'Delete a custom action and its webhooks',
        tags,
        params: ActionParams,
        response: { 200: Type.Object({ id: Type.String(), deleted: Type.Boolean() }), ...errorResponses(404) },
      },
    },
    async (request) => deleteAction(db, request.principal.projectId, request.params.id),
  );

  app.post(
    '/actions/:id/execute',
    {
      schema: {
        summary: 'Execute an action (deprecated: use POST /v1/actions/execute)',
        tags,
        deprecated: true,
        params: ActionParams,
        body: ExecuteByIdBody,
        response: { 200: Type.Object({ actionId: Type.String(), ids: Type.Array(Type.String()), success: Type.Boolean() }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const result = await executeAction(db, request.principal.projectId, request.principal.keyId, { ...request.body, actionKey: request.params.id });
      app.deps.outbox.poke();
      return { actionId: result.action.id, ids: [...result.contentIds, ...result.authorIds], success: true };
    },
  );

  app.get(
    '/audit-log',
    { schema: { summary: 'The audit log of moderator operations, newest first', tags: ['audit'], querystring: AuditQuery, response: { 200: AuditResponse, ...errorResponses() } } },
    async (request) => {
      const { limit, ...filters } = request.query;
      const n = limit === undefined ? 50 : Number(limit);
      if (n < 1 || n > 500) throw badRequest('limit must be from 1 to 500', [{ message: 'out of range', path: '/querystring/limit' }]);
      return listAuditEntries(db, request.principal.projectId, { ...filters, limit: n });
    },
  );
}
