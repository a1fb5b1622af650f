import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { outboxBacklog } from '../outbox/outbox.ts';
import { openCounts } from '../services/queue-counts.ts';
import { listAllQueues, queueView } from '../services/queues.ts';

/** Queues whose backlog is reported; a queue the background job has not counted yet is counted here. */
const MAX_REPORTED_QUEUES = 200;
const QUEUE_BACKLOG_TTL_MS = 30_000;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * GET /metrics in Prometheus' text format. Without METRICS_TOKEN only loopback clients are
 * answered; with it, only requests carrying it as a bearer token (a reverse proxy on the same host
 * would otherwise make every client look local).
 */
export async function metricsRoutes(app: FastifyInstance): Promise<void> {
  const { metrics, db, config } = app.deps;
  metrics.gauge('om_store_connections', 'Store connections (PGlite: statements in the worker) by state', ['state'], (set) => {
    const stats = db.stats();
    set({ state: 'busy' }, stats.busy);
    set({ state: 'idle' }, stats.idle);
    set({ state: 'waiting' }, stats.waiting);
  });
  metrics.gauge('om_group_commit_queued_writes', 'Writes of POST /v1/moderate waiting for a group-commit batch', [], (set) => {
    set({}, app.deps.submissions.queued());
  });
  metrics.gauge('om_text_worker_jobs', 'Long texts in the text worker pool, running or waiting', ['state'], (set) => {
    const pool = app.deps.textWorkers?.pool;
    set({ state: 'running' }, pool?.busy() ?? 0);
    set({ state: 'waiting' }, pool?.queued() ?? 0);
  });
  metrics.gauge('om_media_worker_jobs', 'Image model jobs (nsfwjs, OCR) in the media worker pool, running or waiting', ['state'], (set) => {
    const pool = app.deps.media.parts.pool;
    set({ state: 'running' }, pool?.busy() ?? 0);
    set({ state: 'waiting' }, pool?.queued() ?? 0);
  });
  metrics.gauge('om_media_refused_requests', 'Requests with media refused with 503 because the media worker queue was full (since start)', [], (set) => {
    set({}, app.deps.media.parts.pool?.refusedCount() ?? 0);
  });
  let outbox: Promise<{ pending: number; lagMs: number }> | null = null;
  const readOutbox = () => (outbox ??= outboxBacklog(db).finally(() => setImmediate(() => (outbox = null))));
  metrics.gauge('om_outbox_pending_events', 'Outbox events due and not yet delivered', [], async (set) => set({}, (await readOutbox()).pending));
  metrics.gauge('om_outbox_lag_seconds', 'How long the oldest due outbox event has been waiting', [], async (set) => set({}, (await readOutbox()).lagMs / 1000));
  let backlogs: { at: number; values: Array<{ projectId: string; queueId: string; unresolved: number }> } | null = null;
  metrics.gauge(
    'om_queue_backlog_items',
    `Unresolved items per review queue (the first ${MAX_REPORTED_QUEUES} queues, read at most every ${QUEUE_BACKLOG_TTL_MS / 1000} s from the background counts; a queue not counted yet is counted on the scrape)`,
    ['project_id', 'queue_id'],
    async (set) => {
      if (!backlogs || Date.now() - backlogs.at > QUEUE_BACKLOG_TTL_MS) {
        const values = [];
        // A scrape every 30 s must not count millions of items per queue: the background job already does.
        const counted = await openCounts(db, null);
        for (const queue of await listAllQueues(db, MAX_REPORTED_QUEUES)) {
          const open = counted.get(queue.id)?.open ?? (await queueView(db, queue)).unresolvedItemsCount;
          values.push({ projectId: queue.projectId, queueId: queue.id, unresolved: open });
        }
        backlogs = { at: Date.now(), values };
      }
      for (const b of backlogs.values) set({ project_id: b.projectId, queue_id: b.queueId }, b.unresolved);
    },
  );

  const token = config.metricsToken === null ? null : Buffer.from(config.metricsToken);
  const admitted = (request: FastifyRequest): boolean => {
    if (token === null) return LOOPBACK.has(request.socket.remoteAddress ?? '');
    const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    return presented !== undefined && Buffer.byteLength(presented) === token.length && timingSafeEqual(Buffer.from(presented), token);
  };

  app.get('/metrics', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (!admitted(request)) {
      throw token === null
        ? new ApiError('FORBIDDEN', 'Metrics are served to loopback clients only; set METRICS_TOKEN to scrape from elsewhere')
        : new ApiError('UNAUTHORIZED', 'Send the metrics token: "Authorization: Bearer <METRICS_TOKEN>"');
    }
    const text = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).send(text);
  });
}
