import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import type { Config } from '../config.ts';
import { badRequest, notFound } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { outboundFetch, OutboundError } from '../net/outbound.ts';
import { exponentialBackoff, type OutboxEvent, type TopicHandler } from '../outbox/outbox.ts';

/**
 * Webhooks: project webhooks subscribe to event types, action webhooks are
 * called on every execution of their action. An event is written once, with a
 * stable id, in the transaction of the change; each (event, webhook) pair is an
 * outbox job, delivered at least once with exponential backoff, every attempt
 * logged in webhook_deliveries.
 */

export const WEBHOOK_EVENT_TYPES = [
  'QUEUE_ITEM_NEW',
  'QUEUE_ITEM_ACTION',
  'QUEUE_ITEM_COMPLETED',
  'AUTHOR_BLOCKED',
  'AUTHOR_UNBLOCKED',
  'AUTHOR_SUSPENDED',
  'AUTHOR_UPDATED',
  'AUTHOR_TRUST_LEVEL_CHANGED',
  'AUTHOR_DELETED',
  'AUTHOR_ACTION',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const DELIVER_TOPIC = 'webhook.deliver';
export const NEW_QUEUE_ITEM_TOPIC = 'webhook.queue_item_new';
const MAX_RESPONSE_BYTES = 64 * 1024;

// ---------------------------------------------------------------- signing

export interface SigningSecrets {
  current: string;
  /** The secret before the last rotation, while its grace period lasts. */
  previous: string | null;
  previousValidUntil: number | null;
}

const newSecret = () => `whsec_${randomBytes(32).toString('hex')}`;
const hmacHex = (secret: string, data: string) => createHmac('sha256', secret).update(data, 'utf8').digest('hex');

/** The project's signing secrets, created on first use. */
export async function getSigningSecrets(db: Queryable, projectId: string, now = Date.now()): Promise<SigningSecrets> {
  let { rows } = await db.query('SELECT secret, previous_secret, previous_valid_until FROM webhook_secrets WHERE project_id = $1', [projectId]);
  if (rows.length === 0) {
    await db.query('INSERT INTO webhook_secrets (project_id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (project_id) DO NOTHING', [
      projectId,
      newSecret(),
      now,
    ]);
    ({ rows } = await db.query('SELECT secret, previous_secret, previous_valid_until FROM webhook_secrets WHERE project_id = $1', [projectId]));
  }
  const row = rows[0]!;
  const validUntil = (row.previous_valid_until as number | null) ?? null;
  const previousLive = row.previous_secret != null && validUntil !== null && validUntil > now;
  return { current: row.secret as string, previous: previousLive ? (row.previous_secret as string) : null, previousValidUntil: previousLive ? validUntil : null };
}

export async function rotateSigningSecret(db: Database, projectId: string, graceMs: number): Promise<SigningSecrets> {
  await getSigningSecrets(db, projectId);
  const now = Date.now();
  await db.query(
    `UPDATE webhook_secrets SET previous_secret = secret, previous_valid_until = $2, secret = $3, rotated_at = $4 WHERE project_id = $1`,
    [projectId, graceMs > 0 ? now + graceMs : null, newSecret(), now],
  );
  return getSigningSecrets(db, projectId, now);
}

/**
 * The signature headers of one attempt. `modapi-signature` is what the
 * official SDK verifies (HMAC of the body alone); `x-om-signature` also signs
 * the time, so a captured request cannot be replayed later.
 */
export function signatureHeaders(body: string, secrets: SigningSecrets, nowMs = Date.now()): Record<string, string> {
  const t = Math.floor(nowMs / 1000);
  const signed = `${t}.${body}`;
  const versions = [`v1=${hmacHex(secrets.current, signed)}`];
  const headers: Record<string, string> = { 'modapi-signature': hmacHex(secrets.current, body) };
  if (secrets.previous !== null) {
    versions.push(`v1=${hmacHex(secrets.previous, signed)}`);
    headers['modapi-signature-previous'] = hmacHex(secrets.previous, body);
  }
  headers['x-om-signature'] = `t=${t},${versions.join(',')}`;
  return headers;
}

/**
 * Reference check of `x-om-signature` for receivers: true when one `v1`
 * matches and the time is within `toleranceSec` of now.
 */
export function verifyTimestampedSignature(body: string, header: string, secret: string, toleranceSec = 300, nowMs = Date.now()): boolean {
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > toleranceSec) return false;
  const expected = Buffer.from(hmacHex(secret, `${t}.${body}`), 'utf8');
  return parts.some(([k, v]) => {
    if (k !== 'v1' || v === undefined) return false;
    const given = Buffer.from(v, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// ---------------------------------------------------------------- webhooks

export interface WebhookView {
  id: string;
  name: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  moderationActionId: string | null;
  createdAt: number;
  updatedAt: number;
}

const toView = (r: Record<string, unknown>): WebhookView => ({
  id: r.id as string,
  name: r.name as string,
  url: r.url as string,
  description: (r.description as string | null) ?? null,
  events: r.events as WebhookEventType[],
  enabled: r.enabled as boolean,
  moderationActionId: (r.action_id as string | null) ?? null,
  createdAt: r.created_at as number,
  updatedAt: r.updated_at as number,
});

/** Receivers must be http(s) without credentials; https unless private targets are allowed (tests). */
export function checkWebhookUrl(url: string, allowPrivate: boolean, path: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('Invalid webhook URL', [{ message: 'not a URL', path }]);
  }
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) {
    throw badRequest('Webhook URLs must use https', [{ message: 'https only', path }]);
  }
  if (parsed.username || parsed.password) throw badRequest('Webhook URLs must not carry credentials', [{ message: 'credentials in URL', path }]);
}

export interface WebhookInput {
  name: string;
  url: string;
  description?: string | null;
  events?: WebhookEventType[];
  enabled?: boolean;
}

export async function createWebhook(db: Queryable, projectId: string, input: WebhookInput, allowPrivate: boolean): Promise<WebhookView> {
  checkWebhookUrl(input.url, allowPrivate, '/url');
  const now = Date.now();
  const events = input.events && input.events.length > 0 ? [...new Set(input.events)] : [...WEBHOOK_EVENT_TYPES];
  const { rows } = await db.query(
    `INSERT INTO webhooks (id, project_id, action_id, name, url, description, events, enabled, created_at, updated_at)
     VALUES ($1, $2, NULL, $3, $4, $5, $6, $7, $8, $8) RETURNING *`,
    [newId('wh'), projectId, input.name, input.url, input.description ?? null, JSON.stringify(events), input.enabled ?? true, now],
  );
  return toView(rows[0]!);
}

export async function listWebhooks(db: Queryable, projectId: string): Promise<WebhookView[]> {
  const { rows } = await db.query('SELECT * FROM webhooks WHERE project_id = $1 ORDER BY created_at, id', [projectId]);
  return rows.map(toView);
}

export async function getWebhook(db: Queryable, projectId: string, id: string): Promise<WebhookView> {
  const { rows } = await db.query('SELECT * FROM webhooks WHERE project_id = $1 AND id = $2', [projectId, id]);
  if (!rows[0]) throw notFound(`Webhook "${id}"`);
  return toView(rows[0]);
}

export async function updateWebhook(db: Queryable, projectId: string, id: string, input: Partial<WebhookInput>, allowPrivate: boolean): Promise<WebhookView> {
  const current = await getWebhook(db, projectId, id);
  if (input.url !== undefined) checkWebhookUrl(input.url, allowPrivate, '/url');
  if (current.moderationActionId !== null && input.events !== undefined) {
    throw badRequest('Action webhooks fire on their action; they take no event list', [{ message: 'not allowed', path: '/events' }]);
  }
  const events = input.events === undefined ? current.events : input.events.length > 0 ? [...new Set(input.events)] : [...WEBHOOK_EVENT_TYPES];
  const { rows } = await db.query(
    `UPDATE webhooks SET name = $3, url = $4, description = $5, events = $6, enabled = $7, updated_at = $8
     WHERE project_id = $1 AND id = $2 RETURNING *`,
    [
      projectId,
      id,
      input.name ?? current.name,
      input.url ?? current.url,
      input.description === undefined ? current.description : input.description,
      JSON.stringify(events),
      input.enabled ?? current.enabled,
      Date.now(),
    ],
  );
  return toView(rows[0]!);
}

export async function deleteWebhook(db: Queryable, projectId: string, id: string): Promise<WebhookView> {
  const current = await getWebhook(db, projectId, id);
  await db.query('DELETE FROM webhooks WHERE project_id = $1 AND id = $2', [projectId, id]);
  return current;
}

export interface ActionWebhookInput {
  id?: string;
  name: string;
  url: string;
  description?: string | null;
}

/** Makes the action's webhooks exactly `list`: listed ids are updated, new ones created, others removed. */
export async function syncActionWebhooks(tx: Queryable, projectId: string, actionId: string, list: readonly ActionWebhookInput[], allowPrivate: boolean): Promise<void> {
  list.forEach((w, i) => checkWebhookUrl(w.url, allowPrivate, `/webhooks/${i}/url`));
  const { rows } = await tx.query<{ id: string }>('SELECT id FROM webhooks WHERE project_id = $1 AND action_id = $2', [projectId, actionId]);
  const existing = new Set(rows.map((r) => r.id));
  const now = Date.now();
  const kept = new Set<string>();
  for (const [i, w] of list.entries()) {
    if (w.id !== undefined) {
      if (!existing.has(w.id)) throw badRequest(`Webhook "${w.id}" is not a webhook of this action`, [{ message: 'unknown id', path: `/webhooks/${i}/id` }]);
      kept.add(w.id);
      await tx.query('UPDATE webhooks SET name = $3, url = $4, description = $5, updated_at = $6 WHERE project_id = $1 AND id = $2', [
        projectId,
        w.id,
        w.name,
        w.url,
        w.description ?? null,
        now,
      ]);
    } else {
      await tx.query(
        `INSERT INTO webhooks (id, project_id, action_id, name, url, description, events, enabled, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, '[]', true, $7, $7)`,
        [newId('wh'), projectId, actionId, w.name, w.url, w.description ?? null, now],
      );
    }
  }
  const removed = [...existing].filter((id) => !kept.has(id));
  if (removed.length > 0) {
    await tx.query('DELETE FROM webhooks WHERE project_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))', [projectId, JSON.stringify(removed)]);
  }
}

/** Action webhooks as the SDK shows them, by action id. */
export async function actionWebhooks(db: Queryable, projectId: string, actionIds: readonly string[]) {
  const byAction = new Map<string, Array<{ id: string; name: string; url: string; description: string | null; moderationActionId: string }>>();
  if (actionIds.length === 0) return byAction;
  const { rows } = await db.query(
    `SELECT id, action_id, name, url, description FROM webhooks
     WHERE project_id = $1 AND action_id IN (SELECT jsonb_array_elements_text($2::jsonb)) ORDER BY created_at, id`,
    [projectId, JSON.stringify(actionIds)],
  );
  for (const r of rows) {
    const list = byAction.get(r.action_id as string) ?? [];
    list.push({ id: r.id as string, name: r.name as string, url: r.url as string, description: (r.description as string | null) ?? null, moderationActionId: r.action_id as string });
    byAction.set(r.action_id as string, list);
  }
  return byAction;
}

// ---------------------------------------------------------------- events

export interface EventDraft {
  type: WebhookEventType;
  /** Set when the event comes from executing an action: its webhooks receive it too. */
  actionId?: string | null;
  data: Record<string, unknown>;
  /** A deterministic id makes a repeated fan-out a no-op. */
  id?: string;
}

/**
 * Writes the events that have at least one recipient and one outbox job per
 * (event, webhook), in the caller's transaction, with three statements
 * whatever the number of events. Returns the number of deliveries queued.
 */
export async function emitEvents(tx: Queryable, projectId: string, drafts: readonly EventDraft[], now = Date.now()): Promise<number> {
  if (drafts.length === 0) return 0;
  const actionIds = [...new Set(drafts.map((d) => d.actionId).filter((id): id is string => typeof id === 'string'))];
  const { rows: hooks } = await tx.query<{ id: string; action_id: string | null; events: string[] }>(
    `SELECT id, action_id, events FROM webhooks
     WHERE project_id = $1 AND enabled AND (action_id IS NULL OR action_id IN (SELECT jsonb_array_elements_text($2::jsonb)))`,
    [projectId, JSON.stringify(actionIds)],
  );
  if (hooks.length === 0) return 0;
  const events: Array<{ id: string; type: string; body: string }> = [];
  const jobs: Array<{ event_id: string; webhook_id: string }> = [];
  for (const draft of drafts) {
    const recipients = hooks.filter((h) => (h.action_id === null ? h.events.includes(draft.type) : h.action_id === draft.actionId));
    if (recipients.length === 0) continue;
    const id = draft.id ?? newId('evt');
    events.push({ id, type: draft.type, body: JSON.stringify({ id, type: draft.type, timestamp: now, ...draft.data }) });
    for (const hook of recipients) jobs.push({ event_id: id, webhook_id: hook.id });
  }
  if (events.length === 0) return 0;
  const { rows: written } = await tx.query<{ id: string }>(
    `INSERT INTO webhook_events (id, project_id, type, body, created_at)
     SELECT e.id, $1, e.type, e.body, $2 FROM jsonb_to_recordset($3::jsonb) AS e(id text, type text, body text)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [projectId, now, JSON.stringify(events)],
  );
  const fresh = new Set(written.map((r) => r.id));
  const freshJobs = jobs.filter((j) => fresh.has(j.event_id));
  if (freshJobs.length === 0) return 0;
  await tx.query(
    `INSERT INTO outbox (project_id, topic, payload, available_at, created_at)
     SELECT $1, $2, jsonb_build_object('eventId', j.event_id, 'webhookId', j.webhook_id), $3, $3
     FROM jsonb_to_recordset($4::jsonb) AS j(event_id text, webhook_id text)`,
    [projectId, DELIVER_TOPIC, now, JSON.stringify(freshJobs)],
  );
  return freshJobs.length;
}

/**
 * The tail of a WITH query that writes the events of `source` (a CTE with
 * columns id, project_id, type, body) only where an enabled project webhook
 * subscribes to the event's type, plus one outbox delivery job per recipient.
 * With no subscriber it writes nothing, so a hot write path can append it to a
 * statement it runs anyway and pay only an index probe of `webhooks`.
 * `nowParam` is the placeholder of the time (ms).
 */
export function subscribedEventsSql(source: string, nowParam: string): string {
  return `subscribed AS (
    SELECT s.id AS event_id, s.project_id, w.id AS webhook_id FROM ${source} s
    JOIN webhooks w ON w.project_id = s.project_id AND w.enabled AND w.action_id IS NULL AND w.events @> jsonb_build_array(s.type)
  ), written_events AS (
    INSERT INTO webhook_events (id, project_id, type, body, created_at)
    SELECT s.id, s.project_id, s.type, s.body, ${nowParam}::bigint FROM ${source} s WHERE s.id IN (SELECT event_id FROM subscribed)
    ON CONFLICT (id) DO NOTHING RETURNING id
  )
  INSERT INTO outbox (project_id, topic, payload, available_at, created_at)
  SELECT h.project_id, '${DELIVER_TOPIC}', jsonb_build_object('eventId', h.event_id, 'webhookId', h.webhook_id), ${nowParam}::bigint, ${nowParam}::bigint
  FROM subscribed h WHERE h.event_id IN (SELECT id FROM written_events)`;
}

/** An event for project webhooks, in a statement that may span projects. */
export interface ProjectEventDraft {
  projectId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** The row a project event is written as: its id and the exact body every delivery sends. */
export function eventRow(draft: ProjectEventDraft, now: number): { id: string; project_id: string; type: string; body: string } {
  const id = newId('evt');
  return { id, project_id: draft.projectId, type: draft.type, body: JSON.stringify({ id, type: draft.type, timestamp: now, ...draft.data }) };
}

/**
 * Project-webhook events in one statement (any number of events and
 * projects), written only where a webhook subscribes; see subscribedEventsSql.
 */
export async function emitSubscribedEvents(tx: Queryable, drafts: readonly ProjectEventDraft[], now = Date.now()): Promise<void> {
  if (drafts.length === 0) return;
  await tx.query(
    `WITH drafts AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(id text, project_id text, type text, body text)),
     ${subscribedEventsSql('drafts', '$2')}`,
    [JSON.stringify(drafts.map((d) => eventRow(d, now))), now],
  );
}

/** A stable event id derived from what caused it, for fan-outs that may run twice. */
export const derivedEventId = (...parts: string[]) => `evt_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 28)}`;

// ---------------------------------------------------------------- delivery

export interface DeliveryView {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  manual: boolean;
  statusCode: number | null;
  success: boolean;
  error: string | null;
  durationMs: number;
  createdAt: number;
}

const toDelivery = (r: Record<string, unknown>): DeliveryView => ({
  id: r.id as string,
  webhookId: r.webhook_id as string,
  eventId: r.event_id as string,
  eventType: r.event_type as string,
  attempt: r.attempt as number,
  manual: r.manual as boolean,
  statusCode: (r.status_code as number | null) ?? null,
  success: r.success as boolean,
  error: (r.error as string | null) ?? null,
  durationMs: r.duration_ms as number,
  createdAt: r.created_at as number,
});

/** One attempt: sign, POST within the time limit, log the outcome; throws on failure so the outbox retries. */
export async function deliverOnce(
  db: Database,
  config: Config,
  job: { projectId: string; webhookId: string; eventId: string; attempt: number; manual: boolean },
): Promise<DeliveryView | null> {
  const { rows } = await db.query(
    `SELECT w.url, w.enabled, e.body, e.type FROM webhooks w JOIN webhook_events e ON e.id = $2 AND e.project_id = w.project_id
     WHERE w.id = $1 AND w.project_id = $3`,
    [job.webhookId, job.eventId, job.projectId],
  );
  // The webhook (or the project) was deleted, or disabled: nothing left to deliver.
  if (!rows[0] || rows[0].enabled !== true) return null;
  const { url, body, type } = rows[0] as { url: string; body: string; type: string };
  const secrets = await getSigningSecrets(db, job.projectId);
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const response = await outboundFetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'OpenModeration-Webhooks/1',
        'x-om-event-id': job.eventId,
        'x-om-event-type': type,
        'x-om-delivery-attempt': String(job.attempt),
        ...signatureHeaders(body, secrets),
      },
      body,
      timeoutMs: config.webhooks.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      allowPrivate: config.allowPrivateOutbound,
      maxRedirects: 0,
    });
    statusCode = response.status;
    if (response.status < 200 || response.status >= 300) error = `HTTP ${response.status}`;
  } catch (failure) {
    error = failure instanceof OutboundError ? `${failure.code}: ${failure.message}` : failure instanceof Error ? failure.message : String(failure);
  }
  const { rows: logged } = await db.query(
    `INSERT INTO webhook_deliveries (id, project_id, webhook_id, event_id, event_type, attempt, manual, status_code, success, error, duration_ms, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
    [
      newId('whd'),
      job.projectId,
      job.webhookId,
      job.eventId,
      type,
      job.attempt,
      job.manual,
      statusCode,
      error === null,
      error,
      Math.round(performance.now() - started),
      Date.now(),
    ],
  );
  if (error !== null) throw new Error(`webhook ${job.webhookId}: ${error}`);
  return toDelivery(logged[0]!);
}

export function webhookDeliveryHandler(db: Database, config: Config): TopicHandler {
  return {
    maxAttempts: config.webhooks.maxAttempts,
    backoffMs: exponentialBackoff(config.webhooks.retryBaseMs, config.webhooks.retryCapMs),
    async handle(event: OutboxEvent) {
      const payload = event.payload as { eventId: string; webhookId: string; manual?: boolean };
      await deliverOnce(db, config, {
        projectId: event.projectId,
        webhookId: payload.webhookId,
        eventId: payload.eventId,
        attempt: event.attempts,
        manual: payload.manual === true,
      });
    },
  };
}

export async function listDeliveries(
  db: Queryable,
  projectId: string,
  webhookId: string,
  page: { limit: number; before?: string },
): Promise<{ deliveries: DeliveryView[]; nextCursor: string | null }> {
  await getWebhook(db, projectId, webhookId);
  const params: unknown[] = [projectId, webhookId, page.limit + 1];
  let keyset = '';
  if (page.before !== undefined) {
    params.push(page.before);
    keyset = 'AND id < $4';
  }
  const { rows } = await db.query(
    `SELECT * FROM webhook_deliveries WHERE project_id = $1 AND webhook_id = $2 ${keyset} ORDER BY id DESC LIMIT $3`,
    params,
  );
  const deliveries = rows.slice(0, page.limit).map(toDelivery);
  return { deliveries, nextCursor: rows.length > page.limit ? deliveries[deliveries.length - 1]!.id : null };
}

/** Queues the delivery's event again for its webhook, with the same event id and body. */
export async function redeliver(db: Database, projectId: string, deliveryId: string): Promise<{ eventId: string; webhookId: string }> {
  const { rows } = await db.query<{ event_id: string; webhook_id: string }>(
    'SELECT event_id, webhook_id FROM webhook_deliveries WHERE project_id = $1 AND id = $2',
    [projectId, deliveryId],
  );
  if (!rows[0]) throw notFound(`Webhook delivery "${deliveryId}"`);
  const { event_id: eventId, webhook_id: webhookId } = rows[0];
  const now = Date.now();
  await db.query(
    `INSERT INTO outbox (project_id, topic, payload, available_at, created_at) VALUES ($1, $2, $3, $4, $4)`,
    [projectId, DELIVER_TOPIC, JSON.stringify({ eventId, webhookId, manual: true }), now],
  );
  return { eventId, webhookId };
}

export interface PendingDelivery {
  outboxId: string;
  eventId: string;
  eventType: string;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due. */
  nextAttemptAt: number;
  lastError: string | null;
  manual: boolean;
}

/** Deliveries of the webhook still to be attempted (first attempts and retries), soonest first. */
export async function pendingDeliveries(db: Queryable, projectId: string, webhookId: string, limit = 100): Promise<PendingDelivery[]> {
  const { rows } = await db.query(
    `SELECT o.id, o.payload->>'eventId' AS event_id, e.type, o.attempts, o.available_at, o.last_error, (o.payload->>'manual') = 'true' AS manual
     FROM outbox o LEFT JOIN webhook_events e ON e.id = o.payload->>'eventId'
     WHERE o.done_at IS NULL AND o.project_id = $1 AND o.topic = $2 AND o.payload->>'webhookId' = $3
     ORDER BY o.available_at, o.id LIMIT $4`,
    [projectId, DELIVER_TOPIC, webhookId, limit],
  );
  return rows.map((r) => ({
    outboxId: String(r.id),
    eventId: r.event_id as string,
    eventType: (r.type as string | null) ?? 'unknown',
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.available_at),
    lastError: (r.last_error as string | null) ?? null,
    manual: r.manual === true,
  }));
}
