import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The one place where the environment becomes configuration. Everything else
 * receives a validated `Config`; nothing reads `process.env` directly.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  /** postgres:// URL; null selects the embedded PGlite store in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  logLevel: LogLevel;
  bootstrapApiKey: string | null;
  /** First dashboard admin (created when no dashboard user exists). */
  bootstrapAdmin: { email: string | null; password: string | null };
  dashboard: {
    /** A session unused this long ends. */
    sessionIdleMs: number;
    /** A session ends this long after sign-in, however active. */
    sessionAbsoluteMs: number;
    /** Failed sign-ins per account within the window before sign-in is refused. */
    loginMaxFailures: number;
    loginThrottleWindowMs: number;
  };
  customData: {
    timeoutMs: number;
    maxResponseBytes: number;
    /** How long an author's answer is reused. */
    cacheMs: number;
  };
  /** PEM certificates trusted for outbound custom-data calls besides the system's (a private CA). */
  outboundCa: string | null;
  allowPrivateOutbound: boolean;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  rateLimits: {
    /** Requests per window per API key; 0: unlimited. */
    perKey: number;
    /** Requests per window per project, all its keys together; 0: unlimited. */
    perProject: number;
    /** The fixed window both limits count in. */
    windowMs: number;
    /** POST /v1/moderate requests per project per calendar month (UTC); 0: unlimited. */
    quotaPerProjectPerMonth: number;
    /** How often a node adds its counts to the shared counter and reads the cluster's totals. */
    syncMs: number;
  };
  /** redis:// URL of the shared rate-limit counters; null: a table of the store. */
  redisUrl: string | null;
  /** Worker threads for long texts (0: every text on the event loop), and from how many characters a text goes there. */
  textWorkers: { size: number; minChars: number; maxQueue: number; busyRequests: number; busyQueue: number };
  /** Bearer token that opens GET /metrics to any client; null: loopback clients only. */
  metricsToken: string | null;
  /** A request whose headers and body have not all arrived within this time is answered 408 and closed. */
  requestTimeoutMs: number;
  /** Connections in the PostgreSQL pool. */
  databasePoolSize: number;
  /** Group-commit batches of /v1/moderate writes in flight at once (PostgreSQL; PGlite has one connection). */
  writeBatchSlots: number;
  /** Writes that must be waiting before a further batch runs beside a busy one. */
  writeBatchMinParallel: number;
  /** Public URL printed at start (dashboard and API base). */
  publicUrl: string | null;
  modelBackend: { url: string; apiKey: string | null; model: string; timeoutMs: number; trusted: boolean } | null;
  /** Images, video, audio and web pages (docs/media.md). */
  media: MediaConfig;
  /** Background delivery of outbox events (webhooks, expiries). */
  outbox: { pollMs: number; leaseMs: number };
  /**
   * The recount of each review queue's open items (src/services/queue-counts.ts): at most this
   * often per queue, and each count at most `timeoutMs` long.
   */
  queueCounts: { intervalMs: number; timeoutMs: number };
  webhooks: {
    /** Delay before the 2nd attempt; doubles with every failure up to `retryCapMs`. */
    retryBaseMs: number;
    retryCapMs: number;
    maxAttempts: number;
    timeoutMs: number;
    /** How long the previous signing secret still signs after a rotation. */
    secretGraceMs: number;
  };
}

/** An operator-run HTTP backend (transcription, vision), configured like the model backend. */
export interface MediaBackendConfig {
  url: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
  /** Operator's own network: skip the public-address check (timeouts and caps stay). */
  trusted: boolean;
}

export interface MediaConfig {
  /** Worker threads for the image models (nsfwjs + OCR); 0 turns image analysis off (images: not analysed). */
  workers: number;
  /** Images waiting for a worker beyond which a request with media gets 503 + Retry-After. */
  maxQueue: number;
  /** Read text in images (OCR) and run it through the text policies. */
  ocr: boolean;
  /** Tests and development only: fetch from loopback addresses (127.0.0.0/8, ::1) over plain http. */
  allowLoopbackForTests: boolean;
  /** Byte cap per kind of fetched body (`url` is the HTML page). */
  maxBytes: { image: number; video: number; audio: number; url: number };
  /** Time cap per kind for the fetch (DNS, connect, redirects, body). */
  fetchTimeoutMs: { image: number; video: number; audio: number; url: number };
  /** Images with more pixels than this are refused before decoding (decompression bombs). */
  maxImagePixels: number;
  video: { maxFrames: number; timeoutMs: number; maxSeconds: number; ffmpegPath: string };
  /** Images of a web page moderated with it, at most. */
  pageMaxImages: number;
  /** OpenAI-compatible POST /v1/audio/transcriptions; null: audio is reported as not analysed. */
  transcription: MediaBackendConfig | null;
  /** OpenAI-compatible chat with image input for violence, weapons, gore, drugs, hate symbols; null: those labels are absent. */
  vision: MediaBackendConfig | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const MIN_API_KEY_LENGTH = 24;

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const databaseUrl = read('DATABASE_URL') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for the embedded store)');
  }

  const logLevel = (read('LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const bootstrapApiKey = read('BOOTSTRAP_API_KEY') ?? null;
  if (bootstrapApiKey !== null && (bootstrapApiKey.length < MIN_API_KEY_LENGTH || /\s/.test(bootstrapApiKey))) {
    problems.push(`BOOTSTRAP_API_KEY must be at least ${MIN_API_KEY_LENGTH} characters without spaces`);
  }

  const redisUrl = read('REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\/\S+$/.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');

  const metricsToken = read('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && (metricsToken.length < 16 || /\s/.test(metricsToken))) problems.push('METRICS_TOKEN must be at least 16 characters without spaces');
  const bootstrapAdminEmail = read('BOOTSTRAP_ADMIN_EMAIL') ?? null;
  if (bootstrapAdminEmail !== null && !/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(bootstrapAdminEmail)) problems.push('BOOTSTRAP_ADMIN_EMAIL must be an email address');
  const bootstrapAdminPassword = env.BOOTSTRAP_ADMIN_PASSWORD === undefined || env.BOOTSTRAP_ADMIN_PASSWORD === '' ? null : env.BOOTSTRAP_ADMIN_PASSWORD;
  if (bootstrapAdminPassword !== null && (bootstrapAdminPassword.length < 12 || bootstrapAdminPassword.length > 200)) {
    problems.push('BOOTSTRAP_ADMIN_PASSWORD must be 12 to 200 characters');
  }

  let outboundCa: string | null = null;
  const caFile = read('OUTBOUND_CA_FILE');
  if (caFile !== undefined) {
    try {
      outboundCa = fs.readFileSync(caFile, 'utf8');
      if (!outboundCa.includes('-----BEGIN CERTIFICATE-----')) problems.push(`OUTBOUND_CA_FILE (${caFile}) holds no PEM certificate`);
    } catch (error) {
      problems.push(`OUTBOUND_CA_FILE cannot be read: ${(error as Error).message}`);
    }
  }

  const publicUrl = read('PUBLIC_URL') ?? null;
  if (publicUrl !== null && !/^https?:\/\/[^\s]+$/.test(publicUrl)) problems.push('PUBLIC_URL must be an http(s) URL');

  const modelUrl = read('MODEL_BACKEND_URL');
  let modelBackend: Config['modelBackend'] = null;
  if (modelUrl !== undefined) {
    if (!/^https?:\/\/[^\s]+$/.test(modelUrl)) problems.push('MODEL_BACKEND_URL must be an http(s) URL');
    modelBackend = {
      url: modelUrl.replace(/\/+$/, ''),
      apiKey: read('MODEL_BACKEND_API_KEY') ?? null,
      model: read('MODEL_BACKEND_MODEL') ?? 'gpt-4o-mini',
      timeoutMs: integer('MODEL_BACKEND_TIMEOUT_MS', 10_000, 100, 120_000),
      trusted: boolean('MODEL_BACKEND_TRUSTED', false),
    };
  }

  const mediaBackend = (prefix: string, defaultModel: string): MediaBackendConfig | null => {
    const url = read(`${prefix}_URL`);
    if (url === undefined) return null;
    if (!/^https?:\/\/[^\s]+$/.test(url)) problems.push(`${prefix}_URL must be an http(s) URL`);
    return {
      url: url.replace(/\/+$/, ''),
      apiKey: read(`${prefix}_API_KEY`) ?? null,
      model: read(`${prefix}_MODEL`) ?? defaultModel,
      timeoutMs: integer(`${prefix}_TIMEOUT_MS`, 30_000, 100, 600_000),
      trusted: boolean(`${prefix}_TRUSTED`, false),
    };
  };
  const MB = 1_048_576;
  const media: MediaConfig = {
    workers: integer('MEDIA_WORKERS', 1, 0, 32),
    maxQueue: integer('MEDIA_QUEUE', 32, 1, 10_000),
    ocr: boolean('MEDIA_OCR', true),
    allowLoopbackForTests: boolean('MEDIA_ALLOW_LOOPBACK_FOR_TESTS', false),
    maxBytes: {
      image: integer('MEDIA_MAX_IMAGE_BYTES', 20 * MB, 1024, 512 * MB),
      video: integer('MEDIA_MAX_VIDEO_BYTES', 100 * MB, 1024, 4096 * MB),
      audio: integer('MEDIA_MAX_AUDIO_BYTES', 25 * MB, 1024, 1024 * MB),
      url: integer('MEDIA_MAX_PAGE_BYTES', 5 * MB, 1024, 100 * MB),
    },
    fetchTimeoutMs: {
      image: integer('MEDIA_IMAGE_FETCH_TIMEOUT_MS', 10_000, 100, 600_000),
      video: integer('MEDIA_VIDEO_FETCH_TIMEOUT_MS', 30_000, 100, 600_000),
      audio: integer('MEDIA_AUDIO_FETCH_TIMEOUT_MS', 20_000, 100, 600_000),
      url: integer('MEDIA_PAGE_FETCH_TIMEOUT_MS', 10_000, 100, 600_000),
    },
    maxImagePixels: integer('MEDIA_MAX_IMAGE_PIXELS', 50_000_000, 1, 1_000_000_000),
    video: {
      maxFrames: integer('MEDIA_VIDEO_MAX_FRAMES', 16, 1, 500),
      timeoutMs: integer('MEDIA_VIDEO_TIMEOUT_MS', 30_000, 1_000, 600_000),
      maxSeconds: integer('MEDIA_VIDEO_MAX_SECONDS', 600, 1, 86_400),
      ffmpegPath: read('FFMPEG_PATH') ?? 'ffmpeg',
    },
    pageMaxImages: integer('MEDIA_PAGE_MAX_IMAGES', 5, 0, 50),
    transcription: mediaBackend('TRANSCRIPTION_BACKEND', 'whisper-1'),
    vision: mediaBackend('VISION_BACKEND', 'gpt-4o-mini'),
  };

  const config: Config = {
    port: integer('PORT', 3000, 0, 65535),
    host: read('HOST') ?? '127.0.0.1',
    databaseUrl,
    dataDir: path.resolve(read('DATA_DIR') ?? './data'),
    logLevel,
    bootstrapApiKey,
    bootstrapAdmin: { email: bootstrapAdminEmail, password: bootstrapAdminPassword },
    dashboard: {
      sessionIdleMs: integer('DASHBOARD_SESSION_IDLE_MINUTES', 480, 1, 43_200) * 60_000,
      sessionAbsoluteMs: integer('DASHBOARD_SESSION_MAX_HOURS', 168, 1, 8_760) * 3_600_000,
      loginMaxFailures: integer('DASHBOARD_LOGIN_MAX_FAILURES', 10, 3, 1_000),
      loginThrottleWindowMs: integer('DASHBOARD_LOGIN_WINDOW_MINUTES', 15, 1, 1_440) * 60_000,
    },
    customData: {
      timeoutMs: integer('CUSTOM_DATA_TIMEOUT_MS', 3_000, 100, 10_000),
      maxResponseBytes: 262_144,
      cacheMs: integer('CUSTOM_DATA_CACHE_SECONDS', 60, 0, 3_600) * 1000,
    },
    outboundCa,
    allowPrivateOutbound: boolean('ALLOW_PRIVATE_OUTBOUND', false),
    bodyLimit: integer('BODY_LIMIT_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    metricsToken,
    textWorkers: {
      size: integer('TEXT_WORKERS', Math.max(1, Math.min(4, os.availableParallelism() - 1)), 0, 64),
      minChars: integer('TEXT_WORKER_MIN_CHARS', 8_000, 1, 1_000_000),
      maxQueue: integer('TEXT_WORKER_QUEUE', 256, 1, 100_000),
      busyRequests: integer('TEXT_WORKER_BUSY_REQUESTS', 4, 0, 100_000),
      busyQueue: integer('TEXT_WORKER_BUSY_QUEUE', 64, 0, 100_000),
    },
    rateLimits: {
      perKey: integer('RATE_LIMIT_PER_KEY', 60_000, 0, 100_000_000),
      perProject: integer('RATE_LIMIT_PER_PROJECT', 0, 0, 100_000_000),
      windowMs: integer('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400) * 1000,
      quotaPerProjectPerMonth: integer('QUOTA_PER_PROJECT_PER_MONTH', 0, 0, 1_000_000_000_000),
      syncMs: integer('RATE_LIMIT_SYNC_MS', 250, 10, 60_000),
    },
    redisUrl,
    requestTimeoutMs: integer('REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 200),
    writeBatchSlots: integer('WRITE_BATCH_SLOTS', 3, 1, 100),
    writeBatchMinParallel: integer('WRITE_BATCH_MIN_PARALLEL', 12, 1, 500),
    publicUrl,
    modelBackend,
    media,
    outbox: {
      pollMs: integer('OUTBOX_POLL_MS', 500, 10, 60_000),
      leaseMs: integer('OUTBOX_LEASE_MS', 60_000, 1_000, 3_600_000),
    },
    queueCounts: {
      intervalMs: integer('QUEUE_COUNT_INTERVAL_MS', 60_000, 100, 86_400_000),
      timeoutMs: integer('QUEUE_COUNT_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    },
    webhooks: {
      retryBaseMs: integer('WEBHOOK_RETRY_BASE_MS', 30_000, 1, 3_600_000),
      retryCapMs: integer('WEBHOOK_RETRY_CAP_MS', 3_600_000, 1, 86_400_000),
      maxAttempts: integer('WEBHOOK_MAX_ATTEMPTS', 8, 5, 50),
      timeoutMs: 5_000,
      secretGraceMs: integer('WEBHOOK_SECRET_GRACE_MS', 86_400_000, 0, 30 * 86_400_000),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
