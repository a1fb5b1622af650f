import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { GroupCommitter } from './db/group-commit.ts';
import { OutboxDispatcher } from './outbox/outbox.ts';
import { submissionCommitter, type SubmissionWrite, type SubmissionWritten } from './services/submissions.ts';
import { outboxHandlers } from './outbox/handlers.ts';
import { ApiError, ERROR_STATUS, MAX_PATH_PARAM_LENGTH, pathParameterTooLong, tooManyRequests, type ErrorCode, type ErrorIssue } from './errors.ts';
import { ErrorBodySchema } from './schemas/common.ts';
import { authenticate, cachedPrincipal, KeyUseTracker, type Principal } from './services/api-keys.ts';
import { healthRoutes } from './routes/health.ts';
import { moderateRoutes } from './routes/moderate.ts';
import { channelRoutes } from './routes/channels.ts';
import { authorRoutes } from './routes/authors.ts';
import { openapiRoutes } from './routes/openapi.ts';
import { queueRoutes } from './routes/queues.ts';
import { actionRoutes } from './routes/actions.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { wordlistRoutes } from './routes/wordlists.ts';
import { imageHashListRoutes } from './routes/image-hash-lists.ts';
import { accountRoutes } from './routes/account.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { Metrics } from './observability/metrics.ts';
import { TextWorkerPool } from './pipeline/text-workers.ts';
import type { PipelineDeps } from './pipeline/moderate.ts';
import { createMediaStageFromConfig } from './media/setup.ts';
import type { MediaStage } from './media/stage.ts';
import { Redis } from 'ioredis';
import { fixedWindow, perCalendarMonth, RateLimiter, redisCounters, storeCounters } from './services/rate-limits.ts';
import { dashboardApiRoutes, DASHBOARD_API_PREFIX, type DashboardRouteInfo } from './routes/dashboard-api/index.ts';
import { dashboardAppRoutes } from './routes/dashboard-app.ts';
import { checkStorableStrings, mayHoldUnstorable } from './lib/storable-strings.ts';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from './lib/json-depth.ts';
import { loadModels as loadClassifierModels } from './core/classifiers/index.ts';
import { listenForChanges, type ChangeListener } from './db/change-notifications.ts';
import { dropCachedCopies } from './services/cache-invalidation.ts';
import { QueueCountJob } from './services/queue-counts.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export interface AppDeps {
  config: Config;
  db: Database;
  /** Group commit of /v1/moderate writes. */
  submissions: GroupCommitter<SubmissionWrite, SubmissionWritten>;
  /** Delivers outbox events; `poke()` after a commit that enqueued some. */
  outbox: OutboxDispatcher;
  metrics: Metrics;
  rateLimiter: RateLimiter;
  /** API keys' last use, noted per request and written every few seconds. */
  keyUse: KeyUseTracker;
  /** Long texts' analysis off the event loop; null with TEXT_WORKERS=0. */
  textWorkers: NonNullable<PipelineDeps['textWorkers']> | null;
  /** Images, video, audio and web pages (docs/media.md); its worker pool starts with the first image. */
  media: MediaStage;
  /** Recounts each review queue's open items for the overview; `poke()` after a queue is created or its filter changes. */
  queueCounts: QueueCountJob;
  /** Every dashboard API route with its access rule (filled as they register). */
  dashboardRoutes: DashboardRouteInfo[];
}

export type App = FastifyInstance & { withTypeProvider(): FastifyInstance };

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

export async function buildApp(config: Config, db: Database): Promise<FastifyInstance> {
  // At start, not on the first request: a model that cannot be loaded stops the start instead of
  // failing (and being retried by) every request, and the first requests are not slow.
  loadClassifierModels();
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization'] },
    bodyLimit: config.bodyLimit,
    // Node's default leaves a request whose body stops short of its Content-Length open for good.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(config.requestTimeoutMs, 60_000),
      // How often Node looks for requests past their time: the answer comes at most this late.
      connectionsCheckingInterval: Math.min(config.requestTimeoutMs / 2, 5_000),
    },
    // Honour a caller's request id when it is sane, so logs can be joined across systems.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    },
    ajv: {
      customOptions: {
        // Strict validation: no type coercion, unknown fields are rejected (schemas say additionalProperties: false).
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        allErrors: false,
        discriminator: true,
      },
    },
    return503OnClosing: true,
    // Author external ids may be 200 characters, percent-encoded in a path up to 9 bytes each.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // Errors Fastify and Node answer before routing answer with the catalog's body too.
    frameworkErrors: (error, _request, reply) => sendError(reply, frameworkError(error)),
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const metrics = new Metrics();
  const deps = { config, db, metrics, submissions: submissionCommitter(db, config, metrics.groupCommit), dashboardRoutes: [] } as unknown as AppDeps;
  deps.outbox = new OutboxDispatcher(db, outboxHandlers(deps), {
    pollMs: config.outbox.pollMs,
    leaseMs: config.outbox.leaseMs,
    onError: (error, event) => {
      metrics.deliveryFailures.inc({ topic: event?.topic ?? 'poll' });
      app.log.warn({ err: error, outboxId: event?.id, topic: event?.topic }, 'outbox delivery failed');
    },
  });
  deps.rateLimiter = createRateLimiter(config, db, (error) => app.log.warn({ err: error }, 'rate-limit counters unreachable: limiting on this node\'s own counts'));
  deps.keyUse = new KeyUseTracker(db);
  deps.queueCounts = new QueueCountJob(db, {
    ...config.queueCounts,
    onError: (error) => app.log.warn({ err: error }, 'counting the open items of review queues failed'),
  });
  deps.textWorkers =
    config.textWorkers.size > 0
      ? {
          pool: new TextWorkerPool({ size: config.textWorkers.size, maxQueue: config.textWorkers.maxQueue }),
          minChars: config.textWorkers.minChars,
          busyRequests: config.textWorkers.busyRequests,
          // Short texts never take the last places of the queue, where a long text would be refused.
          busyQueue: Math.min(config.textWorkers.busyQueue, config.textWorkers.maxQueue - 1),
          active: 0,
        }
      : null;
  deps.media = createMediaStageFromConfig(config, db);
  app.decorate('deps', deps);
  app.decorateRequest('principal', null as unknown as Principal);
  app.addSchema(ErrorBodySchema);

  // Set when the request arrives, so that every answer carries it, errors included; a callback
  // hook, because this runs for every request and an async one costs a promise each time.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // No id or parameter may hold U+0000 (PostgreSQL text cannot).
    if (request.url.includes('%00')) return done(new ApiError('BAD_REQUEST', 'The URL holds an encoded U+0000 (%00), which no path or query parameter may contain'));
    done();
  });
  // The default JSON parser, then checks that the body can be stored and read back: its depth
  // (lib/json-depth.ts) and every string (lib/storable-strings.ts).
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string; // parseAs: 'string'
    parseJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      if (jsonNestedDeeperThan(text, MAX_JSON_DEPTH)) {
        return done(new ApiError('BAD_REQUEST', `The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`, [{ message: 'nested too deeply', path: '/' }]), undefined);
      }
      if (!mayHoldUnstorable(text)) return done(null, parsed);
      const moderating = request.routeOptions.url === '/v1/moderate';
      const issues = checkStorableStrings(parsed, (path) => moderating && isSubmittedText(path));
      if (issues.length > 0) return done(new ApiError('BAD_REQUEST', 'Strings must be well-formed Unicode without U+0000', issues), undefined);
      done(null, parsed);
    });
  });
  // Route patterns, never raw URLs, as labels: an id in a path must not make a new series.
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, new ApiError('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Open Moderation API',
        version: '1.0.0',
        description: 'Self-hosted content moderation, wire-compatible with the Moderation API SDK.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) || `def-${i}` },
  });

  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', requireApiKey);
      await v1.register(moderateRoutes);
      await v1.register(channelRoutes);
      await v1.register(authorRoutes);
      await v1.register(queueRoutes);
      await v1.register(actionRoutes);
      await v1.register(webhookRoutes);
      await v1.register(wordlistRoutes);
      await v1.register(imageHashListRoutes);
      await v1.register(accountRoutes);
      await v1.register(openapiRoutes);
    },
    { prefix: '/v1' },
  );
  await app.register((scope) => dashboardApiRoutes(scope, deps.dashboardRoutes), { prefix: DASHBOARD_API_PREFIX });
  await app.register(dashboardAppRoutes);
  // Several nodes on one PostgreSQL: changes to keys, channels and wordlists made anywhere drop this
  // node's cached copies at once. The embedded store is single-process and needs no listener.
  let changeListener: ChangeListener | null = null;
  metrics.gauge('om_change_listener_connected', 'PostgreSQL: 1 while the LISTEN connection for cache invalidation is up (0: caches fall back on their 5 s TTL); absent on PGlite', [], (set) => {
    if (changeListener) set({}, changeListener.connected ? 1 : 0);
  });
  app.addHook('onReady', async () => {
    deps.outbox.start();
    deps.rateLimiter.start();
    deps.queueCounts.start();
    deps.keyUse.start(KEY_USE_FLUSH_MS, (error) => app.log.warn({ err: error }, 'could not record when API keys were last used'));
    if (config.databaseUrl && db.kind === 'postgres') {
      changeListener = listenForChanges(config.databaseUrl, {
        onChange: dropCachedCopies,
        onConnectionLost: (error) => app.log.warn({ err: error }, 'cache invalidation: LISTEN connection lost, reconnecting (cached keys, channels and wordlists expire after 5 s meanwhile)'),
      });
    }
  });
  app.addHook('onClose', async () => {
    await changeListener?.close();
    await deps.submissions.drained();
    await deps.queueCounts.stop();
    await deps.outbox.stop();
    await deps.rateLimiter.stop();
    await deps.keyUse.stop();
    await deps.textWorkers?.pool.close();
    await deps.media.parts.pool?.close();
    await deps.media.parts.pages?.close?.();
  });
  return app;
}


/**
 * The text a caller submits for moderation is accepted with U+0000 and unpaired surrogates: the
 * Unicode analysis reports them as `illegal` (NUL is a classic filter-evasion character) and the
 * pipeline stores a copy with U+FFFD in their place. A client that cut a message inside an emoji
 * still gets a verdict.
 */
const isSubmittedText = (path: readonly string[]): boolean =>
  path[0] === 'content' && ((path.length === 2 && path[1] === 'text') || (path.length === 4 && path[1] === 'data' && path[3] === 'text'));

function frameworkError(error: FastifyError): ApiError {
  if (error.code === 'FST_ERR_BAD_URL') return new ApiError('BAD_REQUEST', 'Malformed URL: a path segment is not valid percent-encoding', [{ message: error.message, path: '/params' }]);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return pathParameterTooLong();
  return new ApiError('BAD_REQUEST', error.message);
}

/** Requests Node's HTTP parser rejects never reach Fastify's routing: the answer is written on the socket. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('REQUEST_HEADER_FIELDS_TOO_LARGE', 'The request line and headers are larger than the server accepts')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('REQUEST_TIMEOUT', 'The request was not received in time')
        : new ApiError('BAD_REQUEST', 'Malformed HTTP request');
  if (socket.writable) {
    const body = JSON.stringify(answer.toBody());
    socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

// "Last used" of API keys is at most this old in the dashboard.
const KEY_USE_FLUSH_MS = 5_000;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** A callback hook that answers at once from the key cache, and asks the store only on a miss. */
function requireApiKey(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  if (!match) return done(new ApiError('UNAUTHORIZED', 'Missing API key: send the header "Authorization: Bearer <API key>"'));
  const cached = cachedPrincipal(match[1]!);
  // No closure on the cached path: under tsx every named closure costs a defineProperty per request.
  if (cached !== undefined) return admit(request, reply, cached, done);
  authenticate(request.server.deps.db, match[1]!).then((principal) => admit(request, reply, principal, done), done);
}

function admit(request: FastifyRequest, reply: FastifyReply, principal: Principal | null, done: (error?: Error) => void): void {
  if (!principal) return done(new ApiError('UNAUTHORIZED', 'Invalid or revoked API key'));
  request.principal = principal;
  const { rateLimiter, metrics, keyUse } = request.server.deps;
  keyUse.note(principal.keyId, Date.now());
  if (rateLimiter.enabled) {
    const decision = rateLimiter.check(principal.keyId, principal.projectId, request.routeOptions.url === MODERATE_ROUTE);
    if (!decision.allowed) {
      metrics.rateLimited.inc({ scope: decision.scope });
      return done(tooManyRequests(decision.scope === 'quota' ? 'Monthly quota' : 'Rate limit', decision.retryAfterMs, decision.resetAt, decision.limit));
    }
    if (decision.limit > 0) {
      reply.header('x-ratelimit-limit', decision.limit);
      reply.header('x-ratelimit-remaining', decision.remaining);
      reply.header('x-ratelimit-reset', Math.ceil(decision.resetAt / 1000));
    }
  }
  done();
}

const MODERATE_ROUTE = '/v1/moderate';

function createRateLimiter(config: Config, db: Database, onSyncError: (error: unknown) => void): RateLimiter {
  const { perKey, perProject, windowMs, quotaPerProjectPerMonth, syncMs } = config.rateLimits;
  let shared = storeCounters(db);
  if (config.redisUrl) {
    // Commands fail at once while Redis is down (no offline queue): the limiter then counts locally.
    const redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    redis.on('error', () => {});
    shared = redisCounters(redis);
  }
  return new RateLimiter({
    rules: {
      key: perKey > 0 ? fixedWindow('key', perKey, windowMs) : null,
      project: perProject > 0 ? fixedWindow('project', perProject, windowMs) : null,
      quota: quotaPerProjectPerMonth > 0 ? perCalendarMonth('quota', quotaPerProjectPerMonth) : null,
    },
    shared,
    syncMs,
    onSyncError,
  });
}

function sendError(reply: FastifyReply, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  void reply.status(error.status).send(error.toBody());
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_TYPE: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_TYPE: 'BAD_REQUEST',
};

function errorHandler(this: FastifyInstance, error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof ApiError) return sendError(reply, error);
  if (error.validation) {
    const issues: ErrorIssue[] = error.validation.map((v) => ({
      message: describeValidation(v as { keyword: string; message?: string; params: Record<string, unknown> }),
      path: `${error.validationContext === 'body' ? '' : `/${error.validationContext}`}${v.instancePath}` || '/',
    }));
    return sendError(reply, new ApiError('BAD_REQUEST', `Invalid request ${error.validationContext ?? 'input'}`, issues));
  }
  const code = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (code) return sendError(reply, new ApiError(code, error.message));
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return sendError(reply, new ApiError('BAD_REQUEST', 'Malformed JSON body', [{ message: error.message }]));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const known = (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] ?? 'BAD_REQUEST') as ErrorCode;
    return sendError(reply, new ApiError(known, error.message));
  }
  request.log.error({ err: error }, 'unhandled error');
  sendError(reply, new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error'));
}

function describeValidation(v: { keyword: string; message?: string; params: Record<string, unknown> }): string {
  if (v.keyword === 'additionalProperties') return `Unknown field "${String(v.params.additionalProperty)}"`;
  if (v.keyword === 'required') return `Missing required field "${String(v.params.missingProperty)}"`;
  if (v.keyword === 'discriminator' && v.params.tag) return `Unknown or missing "${String(v.params.tag)}"`;
  return v.message ?? v.keyword;
}
