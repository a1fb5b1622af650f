import type { Queryable } from '../db/database.ts';
import { announceChange } from '../db/change-notifications.ts';
import type { PolicySettings } from '../core/policy.ts';
import { DEFAULT_TRIAGE, TRIAGE_PRESETS, type TriagePreset, type TriageThresholds } from '../core/recommendation.ts';
import type { RecommendationRule } from '../core/rules.ts';
import { ApiError, badRequest, conflict, notFound, type ErrorIssue } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { defaultChannelPolicies, findPolicy, normalizePolicyList } from '../policies/registry.ts';
import { insightIds } from '../policies/insights.ts';
import { borderlineRescoreIssues, type BorderlineRescoreSettings } from '../policies/rescore.ts';
import type { CreateChannelBody, UpdateChannelBody, ChannelView } from '../schemas/channel.ts';

export const DEFAULT_CHANNEL_KEY = 'default';
// On PostgreSQL another node's channel edits are announced and dropped from this node's cache at
// once (db/change-notifications.ts); this bound holds only while the LISTEN connection is down.
const CHANNEL_CACHE_TTL_MS = 5_000;

/** The settings a channel applies to every submission; stored as one jsonb document. */
export interface ChannelConfig {
  policies: PolicySettings[];
  insights: string[];
  unicodeNormalization: boolean;
  /** Thresholds, and the preset they came from when one was chosen. */
  triage: TriageThresholds & { preset?: TriagePreset };
  /** Policies whose flag always sends to review / always rejects. */
  alwaysReview: string[];
  alwaysReject: string[];
  /** Ordered recommendation rules; the first match decides. */
  rules: RecommendationRule[];
  /** Answer allow / not flagged; store the real result. */
  dryRun: boolean;
  /** Borderline built-in classifier scores re-judged by the model backend; null = off. */
  borderlineRescore: BorderlineRescoreSettings | null;
  /** What content with media nothing analysed is recommended: review (default) or allow. */
  unanalysedMedia: 'review' | 'allow';
}

type TriageInput = TriageThresholds | { preset: TriagePreset };

/** A preset becomes its thresholds; numbers are kept as sent. */
const resolveTriage = (input: TriageInput): ChannelConfig['triage'] =>
  'preset' in input ? { ...TRIAGE_PRESETS[input.preset], preset: input.preset } : { review: input.review, reject: input.reject };

export interface Channel {
  id: string;
  projectId: string;
  key: string;
  name: string;
  isDefault: boolean;
  config: ChannelConfig;
  createdAt: number;
  updatedAt: number;
}

const cache = new TtlCache<Channel>(CHANNEL_CACHE_TTL_MS);
// Moved by every drop, so a lookup that read the store before a change never caches what it read.
let cacheEpoch = 0;

export function defaultChannelConfig(): ChannelConfig {
  return {
    policies: defaultChannelPolicies(),
    insights: [],
    unicodeNormalization: true,
    triage: { ...DEFAULT_TRIAGE },
    alwaysReview: [],
    alwaysReject: [],
    rules: [],
    dryRun: false,
    borderlineRescore: null,
    unanalysedMedia: 'review',
  };
}

function validateConfig(config: ChannelConfig): ChannelConfig {
  const issues: ErrorIssue[] = [];
  const policies = normalizePolicyList(config.policies as unknown as Record<string, unknown>[], '/policies');
  issues.push(...policies.issues);
  const known = insightIds();
  config.insights.forEach((id, i) => {
    if (!known.includes(id)) issues.push({ message: `Unknown insight "${id}". Known insights: ${known.join(', ') || 'none'}`, path: `/insights/${i}` });
  });
  if (new Set(config.insights).size !== config.insights.length) issues.push({ message: 'Insights are listed twice', path: '/insights' });
  if (config.triage.review > config.triage.reject) {
    issues.push({ message: 'triage.review must not be above triage.reject', path: '/triage' });
  }
  issues.push(...recommendationIssues(config));
  issues.push(...borderlineRescoreIssues(config.borderlineRescore, '/borderlineRescore'));
  if (issues.length > 0) throw badRequest('Invalid channel settings', issues);
  return { ...config, policies: policies.value };
}

function recommendationIssues(config: ChannelConfig): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const known = (id: string, path: string) => {
    if (!findPolicy(id)) issues.push({ message: `Unknown policy "${id}"`, path });
  };
  config.alwaysReview.forEach((id, i) => known(id, `/alwaysReview/${i}`));
  config.alwaysReject.forEach((id, i) => known(id, `/alwaysReject/${i}`));
  config.rules.forEach((rule, r) => {
    const at = `/rules/${r}/when`;
    rule.when.policies?.forEach((c, i) => {
      known(c.id, `${at}/policies/${i}/id`);
      if (c.minProbability !== undefined && c.maxProbability !== undefined && c.minProbability > c.maxProbability) {
        issues.push({ message: 'minProbability is above maxProbability', path: `${at}/policies/${i}` });
      }
    });
    rule.when.labels?.forEach((c, i) => c.policy !== undefined && known(c.policy, `${at}/labels/${i}/policy`));
    for (const range of ['trustLevel', 'riskLevel'] as const) {
      const r2 = rule.when[range];
      if (r2?.min !== undefined && r2.max !== undefined && r2.min > r2.max) issues.push({ message: 'min is above max', path: `${at}/${range}` });
    }
  });
  return issues;
}

const fromRow = (row: Record<string, unknown>): Channel => ({
  id: row.id as string,
  projectId: row.project_id as string,
  key: row.key as string,
  name: row.name as string,
  isDefault: row.is_default as boolean,
  config: { ...defaultChannelConfig(), ...(row.config as Partial<ChannelConfig>) },
  createdAt: row.created_at as number,
  updatedAt: row.updated_at as number,
});

export const toChannelView = (channel: Channel): ChannelView => ({
  id: channel.id,
  key: channel.key,
  name: channel.name,
  isDefault: channel.isDefault,
  policies: channel.config.policies,
  insights: channel.config.insights,
  unicodeNormalization: channel.config.unicodeNormalization,
  triage: channel.config.triage,
  alwaysReview: channel.config.alwaysReview,
  alwaysReject: channel.config.alwaysReject,
  rules: channel.config.rules,
  dryRun: channel.config.dryRun,
  borderlineRescore: channel.config.borderlineRescore,
  unanalysedMedia: channel.config.unanalysedMedia,
  createdAt: channel.createdAt,
  updatedAt: channel.updatedAt,
});

const COLUMNS = 'id, project_id, key, name, is_default, config, created_at, updated_at';

async function insertChannel(db: Queryable, projectId: string, key: string, name: string, config: ChannelConfig, isDefault: boolean) {
  const now = Date.now();
  try {
    const { rows } = await db.query(
      `INSERT INTO channels (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${COLUMNS}`,
      [newId('ch'), projectId, key, name, isDefault, JSON.stringify(config), now],
    );
    return fromRow(rows[0]!);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A channel with key "${key}" already exists`, [{ message: 'duplicate key', path: '/key' }]);
    throw error;
  }
}

export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export function createDefaultChannel(db: Queryable, projectId: string): Promise<Channel> {
  return insertChannel(db, projectId, DEFAULT_CHANNEL_KEY, 'Default', defaultChannelConfig(), true);
}

export async function createChannel(db: Queryable, projectId: string, body: CreateChannelBody): Promise<Channel> {
  const defaults = defaultChannelConfig();
  const config = validateConfig({
    policies: (body.policies as PolicySettings[] | undefined) ?? defaults.policies,
    insights: body.insights ?? defaults.insights,
    unicodeNormalization: body.unicodeNormalization ?? defaults.unicodeNormalization,
    triage: body.triage ? resolveTriage(body.triage) : defaults.triage,
    alwaysReview: body.alwaysReview ?? defaults.alwaysReview,
    alwaysReject: body.alwaysReject ?? defaults.alwaysReject,
    rules: (body.rules as RecommendationRule[] | undefined) ?? defaults.rules,
    dryRun: body.dryRun ?? defaults.dryRun,
    borderlineRescore: body.borderlineRescore === undefined ? defaults.borderlineRescore : body.borderlineRescore,
    unanalysedMedia: body.unanalysedMedia ?? defaults.unanalysedMedia,
  });
  return insertChannel(db, projectId, body.key, body.name, config, false);
}

export async function listChannels(db: Queryable, projectId: string): Promise<Channel[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM channels WHERE project_id = $1 ORDER BY created_at, id`, [projectId]);
  return rows.map(fromRow);
}

async function findChannel(db: Queryable, projectId: string, idOrKey: string): Promise<Channel | null> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM channels WHERE project_id = $1 AND (id = $2 OR key = $2) ORDER BY (id = $2) DESC LIMIT 1`,
    [projectId, idOrKey],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

export async function getChannel(db: Queryable, projectId: string, idOrKey: string): Promise<Channel> {
  const channel = await findChannel(db, projectId, idOrKey);
  if (!channel) throw notFound(`Channel "${idOrKey}"`);
  return channel;
}

/**
 * The hot-path lookup for /v1/moderate: the named channel, or the project's
 * default one. Served from memory; a miss reads the store once.
 */
export async function resolveChannel(db: Queryable, projectId: string, idOrKey: string | undefined): Promise<Channel> {
  const cacheKey = `${projectId}\u0000${idOrKey ?? ''}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const epoch = cacheEpoch;
  let channel: Channel | null;
  if (idOrKey === undefined) {
    const { rows } = await db.query(`SELECT ${COLUMNS} FROM channels WHERE project_id = $1 AND is_default`, [projectId]);
    channel = rows[0] ? fromRow(rows[0]) : null;
  } else {
    channel = await findChannel(db, projectId, idOrKey);
  }
  if (!channel) throw notFound(`Channel "${idOrKey ?? DEFAULT_CHANNEL_KEY}"`);
  if (epoch === cacheEpoch) cache.set(cacheKey, channel);
  return channel;
}

export async function updateChannel(db: Queryable, projectId: string, idOrKey: string, body: UpdateChannelBody): Promise<Channel> {
  const current = await getChannel(db, projectId, idOrKey);
  if (current.isDefault && body.key !== undefined && body.key !== current.key) {
    throw new ApiError('BAD_REQUEST', 'The default channel keeps its key', [{ message: 'cannot change', path: '/key' }]);
  }
  const config = validateConfig({
    policies: (body.policies as PolicySettings[] | undefined) ?? current.config.policies,
    insights: body.insights ?? current.config.insights,
    unicodeNormalization: body.unicodeNormalization ?? current.config.unicodeNormalization,
    triage: body.triage ? resolveTriage(body.triage) : current.config.triage,
    alwaysReview: body.alwaysReview ?? current.config.alwaysReview,
    alwaysReject: body.alwaysReject ?? current.config.alwaysReject,
    rules: (body.rules as RecommendationRule[] | undefined) ?? current.config.rules,
    dryRun: body.dryRun ?? current.config.dryRun,
    borderlineRescore: body.borderlineRescore === undefined ? current.config.borderlineRescore : body.borderlineRescore,
    unanalysedMedia: body.unanalysedMedia ?? current.config.unanalysedMedia,
  });
  try {
    const { rows } = await db.query(
      `UPDATE channels SET key = $3, name = $4, config = $5, updated_at = $6 WHERE project_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [projectId, current.id, body.key ?? current.key, body.name ?? current.name, JSON.stringify(config), Date.now()],
    );
    await announceChange(db, 'channels', projectId);
    forgetCachedChannels(projectId);
    return fromRow(rows[0]!);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A channel with key "${body.key}" already exists`, [{ message: 'duplicate key', path: '/key' }]);
    throw error;
  }
}

export async function deleteChannel(db: Queryable, projectId: string, idOrKey: string): Promise<Channel> {
  const current = await getChannel(db, projectId, idOrKey);
  if (current.isDefault) throw new ApiError('BAD_REQUEST', 'The default channel cannot be deleted');
  await db.query('DELETE FROM channels WHERE project_id = $1 AND id = $2', [projectId, current.id]);
  await announceChange(db, 'channels', projectId);
  forgetCachedChannels(projectId);
  return current;
}

/** Drops the cached channels of a project (null: of every project) after a change here or on another node. */
export function forgetCachedChannels(projectId: string | null): void {
  cacheEpoch++;
  if (projectId === null) cache.clear();
  else cache.deleteWhere((key) => key.startsWith(`${projectId}\u0000`));
}
