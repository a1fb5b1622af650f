import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { badRequest } from '../../errors.ts';
import { ProjectParams } from '../../schemas/dashboard.ts';
import { CreateWebhookBody, UpdateWebhookBody } from '../../schemas/webhooks.ts';
import { ApiKeyParams, CreateApiKeyBody, DashboardDeliveriesQuery, DeliveryParams, RotateSecretBody, WebhookParams } from '../../schemas/dashboard-developers.ts';
import {
  createWebhook,
  deleteWebhook,
  getSigningSecrets,
  getWebhook,
  listDeliveries,
  listWebhooks,
  pendingDeliveries,
  redeliver,
  rotateSigningSecret,
  updateWebhook,
  WEBHOOK_EVENT_TYPES,
  type WebhookInput,
  type WebhookView,
} from '../../services/webhooks.ts';
import { createApiKey, forgetCachedKeys, listApiKeys, revokeApiKey } from '../../services/api-keys.ts';
import { writeAuditEntries } from '../../services/audit.ts';
import { withinTransaction, type Queryable } from '../../db/database.ts';
import { actorOfRequest, memberOf } from './access.ts';

const hide = true;

/** The dashboard's Webhooks and API keys pages: both need the `configure` permission. */
export async function developerRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.deps;
  const allowPrivate = config.allowPrivateOutbound;
  const P = '/projects/:projectId';

  const audit = (request: FastifyRequest, value: string, comment: string | null, tx: Queryable = db) => {
    const actor = actorOfRequest(request);
    return writeAuditEntries(tx, memberOf(request).projectId, [{ kind: 'config', actorKeyId: null, actorUserId: actor.userId ?? null, actorEmail: actor.email ?? null, value, comment }]);
  };

  // ------------------------------------------------------------ webhooks

  app.get(`${P}/webhooks`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const [webhooks, latest] = await Promise.all([
      listWebhooks(db, projectId),
      // One index probe per webhook (webhook_deliveries_webhook), however long the logs are.
      db.query(
        `SELECT w.id AS webhook_id, d.success, d.status_code, d.created_at FROM webhooks w
         CROSS JOIN LATERAL (SELECT success, status_code, created_at FROM webhook_deliveries WHERE webhook_id = w.id ORDER BY id DESC LIMIT 1) d
         WHERE w.project_id = $1`,
        [projectId],
      ),
    ]);
    const last = new Map(latest.rows.map((r) => [r.webhook_id as string, { success: r.success as boolean, statusCode: (r.status_code as number | null) ?? null, at: Number(r.created_at) }]));
    return { webhooks: webhooks.map((w) => ({ ...w, lastDelivery: last.get(w.id) ?? null })), eventTypes: WEBHOOK_EVENT_TYPES };
  });

  app.post(`${P}/webhooks`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams, body: CreateWebhookBody } }, async (request, reply) => {
    const webhook = await db.transaction(async (tx) => {
      const created = await createWebhook(tx, memberOf(request).projectId, request.body as WebhookInput, allowPrivate);
      await audit(request, 'webhook', `created "${created.name}" → ${created.url} (${created.events.join(', ')})`, withinTransaction(db, tx));
      return created;
    });
    return reply.status(201).send({ webhook });
  });

  app.put(`${P}/webhooks/:webhookId`, { config: { access: 'configure' }, schema: { hide, params: WebhookParams, body: UpdateWebhookBody } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const webhook = await db.transaction(async (tx) => {
      const q = withinTransaction(db, tx);
      const before = await getWebhook(q, projectId, request.params.webhookId);
      const after = await updateWebhook(q, projectId, request.params.webhookId, request.body as Partial<WebhookInput>, allowPrivate);
      await audit(request, 'webhook', `updated "${after.name}": ${describeChange(before, after)}`, q);
      return after;
    });
    return { webhook };
  });

  app.delete(`${P}/webhooks/:webhookId`, { config: { access: 'configure' }, schema: { hide, params: WebhookParams } }, async (request) => {
    const webhook = await db.transaction(async (tx) => {
      const q = withinTransaction(db, tx);
      const removed = await deleteWebhook(q, memberOf(request).projectId, request.params.webhookId);
      await audit(request, 'webhook', `deleted "${removed.name}" → ${removed.url}`, q);
      return removed;
    });
    return { deleted: true, webhook };
  });

  app.get(`${P}/webhooks/:webhookId/deliveries`, { config: { access: 'configure' }, schema: { hide, params: WebhookParams, querystring: DashboardDeliveriesQuery } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const { before } = request.query;
    const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
    if (limit < 1 || limit > 200) throw badRequest('limit must be from 1 to 200', [{ message: 'out of range', path: '/querystring/limit' }]);
    const log = await listDeliveries(db, projectId, request.params.webhookId, { limit, ...(before !== undefined ? { before } : {}) });
    // Pending jobs are shown only on the first page: they are what happens next, not history.
    const pending = before === undefined ? await pendingDeliveries(db, projectId, request.params.webhookId) : [];
    return { ...log, pending, maxAttempts: config.webhooks.maxAttempts };
  });

  app.post(`${P}/webhook-deliveries/:deliveryId/redeliver`, { config: { access: 'configure' }, schema: { hide, params: DeliveryParams } }, async (request, reply) => {
    const queued = await redeliver(db, memberOf(request).projectId, request.params.deliveryId);
    await audit(request, 'webhook', `redelivery of event ${queued.eventId} to webhook ${queued.webhookId}`);
    app.deps.outbox.poke();
    return reply.status(202).send({ queued: true, ...queued });
  });

  // The secret is shown only when asked for, and every showing is audited: it proves to
  // receivers that a request came from this service.
  app.get(`${P}/webhook-secret`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams } }, async (request) => {
    const secrets = await getSigningSecrets(db, memberOf(request).projectId);
    await audit(request, 'webhook_secret', 'revealed');
    return { secret: secrets.current, previousSecretValidUntil: secrets.previousValidUntil };
  });

  app.get(`${P}/webhook-secret/status`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const secrets = await getSigningSecrets(db, projectId);
    const { rows } = await db.query('SELECT rotated_at, created_at FROM webhook_secrets WHERE project_id = $1', [projectId]);
    return {
      previousSecretValidUntil: secrets.previousValidUntil,
      rotatedAt: rows[0]?.rotated_at == null ? null : Number(rows[0].rotated_at),
      createdAt: rows[0] ? Number(rows[0].created_at) : null,
      graceMs: config.webhooks.secretGraceMs,
    };
  });

  app.post(`${P}/webhook-secret/rotate`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams, body: RotateSecretBody } }, async (request) => {
    const secrets = await rotateSigningSecret(db, memberOf(request).projectId, config.webhooks.secretGraceMs);
    await audit(
      request,
      'webhook_secret',
      secrets.previousValidUntil === null ? 'rotated; the old secret stopped signing at once' : `rotated; the old secret also signs until ${new Date(secrets.previousValidUntil).toISOString()}`,
    );
    return { secret: secrets.current, previousSecretValidUntil: secrets.previousValidUntil };
  });

  // ------------------------------------------------------------ API keys

  app.get(`${P}/api-keys`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams } }, async (request) => {
    await app.deps.keyUse.flush().catch(() => {});
    const keys = await listApiKeys(db, memberOf(request).projectId);
    return { apiKeys: keys.map(({ projectId: _projectId, ...key }) => key) };
  });

  app.post(`${P}/api-keys`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams, body: CreateApiKeyBody } }, async (request, reply) => {
    const name = request.body.name.trim();
    const created = await db.transaction(async (tx) => {
      const q = withinTransaction(db, tx);
      const made = await createApiKey(q, memberOf(request).projectId, name, undefined, request.dashboard.user.email);
      await audit(request, 'api_key', `created "${name}" (${made.info.prefix}…)`, q);
      return made;
    });
    const { projectId: _projectId, ...info } = created.info;
    // The only time the key is ever shown: the store keeps its hash.
    return reply.status(201).send({ apiKey: info, key: created.key });
  });

  app.delete(`${P}/api-keys/:keyId`, { config: { access: 'configure' }, schema: { hide, params: ApiKeyParams } }, async (request) => {
    const revoked = await db.transaction(async (tx) => {
      const q = withinTransaction(db, tx);
      const key = await revokeApiKey(q, request.params.keyId, memberOf(request).projectId);
      await audit(request, 'api_key', `revoked "${key.name}" (${key.prefix}…)`, q);
      return key;
    });
    // Dropped again after COMMIT: a lookup that raced the transaction must not keep the key alive here.
    forgetCachedKeys();
    const { projectId: _projectId, ...info } = revoked;
    return { apiKey: info };
  });
}

function describeChange(before: WebhookView, after: WebhookView): string {
  const changes: string[] = [];
  for (const field of ['name', 'url', 'description', 'events', 'enabled']) {
    const a = JSON.stringify(before[field as keyof WebhookView]);
    const b = JSON.stringify(after[field as keyof WebhookView]);
    if (a !== b) changes.push(`${field} ${a} → ${b}`);
  }
  return changes.length > 0 ? changes.join('; ') : 'no change';
}
