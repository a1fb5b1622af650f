import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { badRequest } from '../errors.ts';
import { errorResponses, Id } from '../schemas/common.ts';
import { CreateWebhookBody, DeliveriesQuery, DeliverySchema, SecretResponse, UpdateWebhookBody, WebhookSchema } from '../schemas/webhooks.ts';
import {
  createWebhook,
  deleteWebhook,
  getSigningSecrets,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  rotateSigningSecret,
  updateWebhook,
  type WebhookInput,
} from '../services/webhooks.ts';

const tags = ['webhooks'];
const Params = Type.Object({ id: Id });

export async function webhookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.deps;
  const allowPrivate = config.allowPrivateOutbound;

  app.get(
    '/webhooks',
    { schema: { summary: 'List webhooks (project and action webhooks)', tags, response: { 200: Type.Object({ webhooks: Type.Array(WebhookSchema) }), ...errorResponses() } } },
    async (request) => ({ webhooks: await listWebhooks(db, request.principal.projectId) }),
  );

  app.post(
    '/webhooks',
    { schema: { summary: 'Create a project webhook', tags, body: CreateWebhookBody, response: { 201: WebhookSchema, ...errorResponses() } } },
    async (request, reply) => reply.status(201).send(await createWebhook(db, request.principal.projectId, request.body as WebhookInput, allowPrivate)),
  );

  app.get(
    '/webhooks/:id',
    { schema: { summary: 'Get a webhook', tags, params: Params, response: { 200: WebhookSchema, ...errorResponses(404) } } },
    async (request) => getWebhook(db, request.principal.projectId, request.params.id),
  );

  app.put(
    '/webhooks/:id',
    { schema: { summary: 'Update a webhook', tags, params: Params, body: UpdateWebhookBody, response: { 200: WebhookSchema, ...errorResponses(404) } } },
    async (request) => updateWebhook(db, request.principal.projectId, request.params.id, request.body as Partial<WebhookInput>, allowPrivate),
  );

  app.delete(
    '/webhooks/:id',
    { schema: { summary: 'Delete a webhook (pending deliveries are dropped)', tags, params: Params, response: { 200: WebhookSchema, ...errorResponses(404) } } },
    async (request) => deleteWebhook(db, request.principal.projectId, request.params.id),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        summary: 'Delivery log of a webhook: one entry per attempt, newest first',
        tags,
        params: Params,
        querystring: DeliveriesQuery,
        response: { 200: Type.Object({ deliveries: Type.Array(DeliverySchema), nextCursor: Type.Union([Type.String(), Type.Null()]) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
      if (limit < 1 || limit > 500) throw badRequest('limit must be from 1 to 500', [{ message: 'out of range', path: '/querystring/limit' }]);
      return listDeliveries(db, request.principal.projectId, request.params.id, { limit, before: request.query.before });
    },
  );

  app.post(
    '/webhook-deliveries/:id/redeliver',
    {
      schema: {
        summary: 'Send the event of a delivery again (same event id and body)',
        tags,
        params: Params,
        response: { 202: Type.Object({ queued: Type.Boolean(), eventId: Type.String(), webhookId: Type.String() }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const queued = await redeliver(db, request.principal.projectId, request.params.id);
      app.deps.outbox.poke();
      return reply.status(202).send({ queued: true, ...queued });
    },
  );

  app.get(
    '/webhook-secret',
    { schema: { summary: 'The signing secret of this project', tags, response: { 200: SecretResponse, ...errorResponses() } } },
    async (request) => {
      const secrets = await getSigningSecrets(db, request.principal.projectId);
      return { secret: secrets.current, previousSecretValidUntil: secrets.previousValidUntil };
    },
  );

  app.post(
    '/webhook-secret/rotate',
    { schema: { summary: 'Rotate the signing secret; the old one keeps signing a second header during the grace period', tags, response: { 200: SecretResponse, ...errorResponses() } } },
    async (request) => {
      const secrets = await rotateSigningSecret(db, request.principal.projectId, config.webhooks.secretGraceMs);
      return { secret: secrets.current, previousSecretValidUntil: secrets.previousValidUntil };
    },
  );
}
