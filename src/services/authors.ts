import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import type { Database, Queryable } from '../db/database.ts';
import { enqueue } from '../outbox/outbox.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { trustLevel, type TrustFacts, type TrustLevel } from '../core/trust.ts';
import { evaluateRisk, isNightTime, type RiskEvaluation, type RiskFacts } from '../core/risk.ts';
import { isUniqueViolation } from './channels.ts';
// A cycle (webhooks.ts renders authors with toAuthorRecord); both sides use the other's exports only inside functions.
import { emitEvents, eventRow, subscribedEventsSql, type EventDraft } from './webhooks.ts';

export type AuthorStatus = 'enabled' | 'suspended' | 'blocked';
export const AUTHOR_BLOCK_EXPIRED_TOPIC = 'author.block_expired';

/** The author as it appears in a submission result. */
export interface AuthorSummary {
  id: string;
  external_id: string;
  status: AuthorStatus;
  block: { until: number | null; reason: string | null } | null;
  trust_level: TrustLevel;
}

/** The author as the authors API answers it (the SDK 3.7.0 shape, plus documented extras). */
export interface AuthorRecord extends AuthorSummary {
  name: string | null;
  email: string | null;
  profile_picture: string | null;
  external_link: string | null;
  first_seen: number;
  last_seen: number;
  last_incident: number | null;
  risk_evaluation: RiskEvaluation;
  metrics: {
    total_content: number;
    flagged_content: number;
    average_sentiment: number | null;
    violation_count: number;
    report_count: number;
    flagged_content_ratio: number;
  };
  metadata: Record<string, unknown>;
  content_types: string[];
}

/** Content types as bits of `authors.content_type_mask`. */
export const CONTENT_TYPE_BITS: Record<string, number> = { text: 1, image: 2, video: 4, audio: 8, object: 16, url: 32 };

const requireFromHere = createRequire(import.meta.url);
const disposableDomains = new Set<string>(requireFromHere('disposable-email-domains') as string[]);
const disposableWildcards = requireFromHere('disposable-email-domains/wildcard.json') as string[];

/** Whether an email domain belongs to a disposable-address provider (the maintained `disposable-email-domains` list). */
export function isDisposableDomain(domain: string): boolean {
  const lower = domain.toLowerCase();
  if (disposableDomains.has(lower)) return true;
  return disposableWildcards.some((base) => lower === base || lower.endsWith(`.${base}`));
}

type Row = Record<string, unknown>;

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function recentFlagged(row: Row): number {
  const bits = row.recent_flags;
  if (typeof bits !== 'string') return 0;
  let count = 0;
  for (const c of bits) if (c === '1') count++;
  return count;
}

export function trustFactsOf(row: Row): TrustFacts {
  return {
    firstSeen: num(row.first_seen),
    totalContent: num(row.total_content),
    flaggedContent: num(row.flagged_content),
    recentCount: num(row.recent_count),
    recentFlagged: recentFlagged(row),
    metadata: (row.metadata as Record<string, unknown> | null) ?? {},
    manualTrustLevel: numOrNull(row.manual_trust_level),
  };
}

function riskFactsOf(row: Row): RiskFacts {
  return {
    firstSeen: num(row.first_seen),
    email: (row.email as string | null) ?? null,
    metadata: (row.metadata as Record<string, unknown> | null) ?? {},
    totalContent: num(row.total_content),
    flaggedContent: num(row.flagged_content),
    lastIncident: numOrNull(row.last_incident),
    hourBucket: num(row.hour_bucket),
    hourCount: num(row.hour_count),
    hourNightCount: num(row.hour_night_count),
    minuteBucket: num(row.minute_bucket),
    minuteCount: num(row.minute_count),
    peakMinuteCount: num(row.peak_minute_count),
    nightContent: num(row.night_content),
    spoofedContent: num(row.spoofed_content),
    linkCount: num(row.link_count),
    duplicateContent: num(row.duplicate_content),
  };
}

/** Status and block as they stand at `now`: a suspension whose time has passed reads as enabled even before the expiry job ran. */
function effectiveStatus(row: Row, now: number): Pick<AuthorSummary, 'status' | 'block'> {
  const status = row.status as AuthorStatus;
  const until = numOrNull(row.block_until);
  if (status === 'enabled' || (status === 'suspended' && until !== null && until <= now)) return { status: 'enabled', block: null };
  return { status, block: { until, reason: (row.block_reason as string | null) ?? null } };
}

export function toAuthorSummary(row: Row, now = Date.now()): AuthorSummary {
  return {
    id: row.id as string,
    external_id: row.external_id as string,
    ...effectiveStatus(row, now),
    trust_level: trustLevel(trustFactsOf(row), now),
  };
}

export function toAuthorRecord(row: Row, now = Date.now()): AuthorRecord {
  const mask = num(row.content_type_mask);
  return {
    ...toAuthorSummary(row, now),
    name: (row.name as string | null) ?? null,
    email: (row.email as string | null) ?? null,
    profile_picture: (row.profile_picture as string | null) ?? null,
    external_link: (row.external_link as string | null) ?? null,
    first_seen: num(row.first_seen),
    last_seen: num(row.last_seen),
    last_incident: numOrNull(row.last_incident),
    risk_evaluation: evaluateRisk(riskFactsOf(row), now, isDisposableDomain),
    metrics: {
      total_content: num(row.total_content),
      flagged_content: num(row.flagged_content),
      average_sentiment: row.average_sentiment === null || row.average_sentiment === undefined ? null : Math.round(Number(row.average_sentiment) * 10_000) / 10_000,
      violation_count: num(row.violation_count),
      report_count: num(row.report_count),
      flagged_content_ratio: Math.round(Number(row.flagged_ratio ?? 0) * 10_000) / 10_000,
    },
    metadata: (row.metadata as Record<string, unknown> | null) ?? {},
    content_types: Object.entries(CONTENT_TYPE_BITS)
      .filter(([, bit]) => (mask & bit) !== 0)
      .map(([type]) => type),
  };
}

/** Authors as webhook payloads carry them: the full author record, metadata included; by internal id. */
export async function authorPayloads(db: Queryable, projectId: string, authorIds: readonly string[]): Promise<Map<string, AuthorRecord>> {
  const byId = new Map<string, AuthorRecord>();
  const unique = [...new Set(authorIds)];
  if (unique.length === 0) return byId;
  const { rows } = await db.query(
    `SELECT authors.*, authors.recent_flags::text AS recent_flags FROM authors
     WHERE project_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
    [projectId, JSON.stringify(unique)],
  );
  const now = Date.now();
  for (const row of rows) byId.set(row.id as string, toAuthorRecord(row, now));
  return byId;
}

// recent_flags is read as text so the flagged count needs no second query.
const SELECT_COLUMNS = 'authors.*, authors.recent_flags::text AS recent_flags';

/** The author by internal id or external id, or null. */
export async function findAuthorRow(db: Queryable, projectId: string, idOrExternalId: string, forUpdate = false): Promise<Row | null> {
  const { rows } = await db.query(
    `SELECT ${SELECT_COLUMNS} FROM authors WHERE project_id = $1 AND (id = $2 OR external_id = $2)
     ORDER BY (id = $2) DESC LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`,
    [projectId, idOrExternalId],
  );
  return rows[0] ?? null;
}

/** What moved an author's stored trust level, as AUTHOR_TRUST_LEVEL_CHANGED reports it. */
export type TrustChangeCause = 'update' | 'submission' | 'time';

/** The AUTHOR_TRUST_LEVEL_CHANGED payload: the author as they stand now, and the stored level before. */
function trustChangedData(author: AuthorRecord, previousTrustLevel: number, cause: TrustChangeCause): Record<string, unknown> {
  return { author, previousTrustLevel, trustLevel: author.trust_level.level, cause };
}

/**
 * Writes new stored trust levels and, in the same statement, their
 * AUTHOR_TRUST_LEVEL_CHANGED events for the projects whose webhooks subscribe
 * (none subscribed: only the UPDATE does anything).
 */
async function storeTrustLevels(db: Queryable, moves: ReadonlyArray<{ row: Row; level: number }>, cause: TrustChangeCause, now: number): Promise<void> {
  if (moves.length === 0) return;
  const events = moves.map(({ row, level }) =>
    eventRow({ projectId: row.project_id as string, type: 'AUTHOR_TRUST_LEVEL_CHANGED', data: trustChangedData(toAuthorRecord(row, now), num(row.trust_level), cause) }, now),
  );
  await db.query(
    `WITH moved AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::smallint[], $4::text[], $5::text[]) AS m(author_id, project_id, level, id, body)
     ), stored AS (
       UPDATE authors SET trust_level = m.level FROM moved m WHERE authors.project_id = m.project_id AND authors.id = m.author_id
     ), trust_events AS (
       SELECT id, project_id, 'AUTHOR_TRUST_LEVEL_CHANGED'::text AS type, body FROM moved
     ),
     ${subscribedEventsSql('trust_events', '$6')}`,
    [
      moves.map(({ row }) => row.id),
      moves.map(({ row }) => row.project_id),
      moves.map(({ level }) => level),
      events.map((e) => e.id),
      events.map((e) => e.body),
      now,
    ],
  );
  for (const { row, level } of moves) row.trust_level = level;
}

/** Keeps the stored (sortable) trust level equal to the computed one; writes only when it moved. */
async function syncTrustLevel(db: Queryable, row: Row, now: number): Promise<void> {
  const level = trustLevel(trustFactsOf(row), now).level;
  if (level === num(row.trust_level)) return;
  await storeTrustLevels(db, [{ row, level }], 'time', now);
}

/** GET /v1/authors/{id}: by internal or external id; 404 when not in this project. */
export async function getAuthor(db: Queryable, projectId: string, idOrExternalId: string): Promise<AuthorRecord> {
  const row = await findAuthorRow(db, projectId, idOrExternalId);
  if (!row) throw notFound(`Author "${idOrExternalId}"`);
  const now = Date.now();
  // Time alone promotes authors; bring the sort column along when it is read.
  await syncTrustLevel(db, row, now);
  return toAuthorRecord(row, now);
}

/** The author by external id as the recommendation needs it (status, trust, risk), or null for a new author. */
export async function findAuthor(db: Queryable, projectId: string, externalId: string): Promise<AuthorRecord | null> {
  const { rows } = await db.query(`SELECT ${SELECT_COLUMNS} FROM authors WHERE project_id = $1 AND external_id = $2`, [projectId, externalId]);
  return rows[0] ? toAuthorRecord(rows[0]) : null;
}

// The submission path reads an author's status, trust and risk before every verdict. Served from
// memory for up to a second; author changes made through this node clear the project's entries.
const AUTHOR_SNAPSHOT_TTL_MS = 1_000;
const snapshots = new TtlCache<AuthorRecord | null>(AUTHOR_SNAPSHOT_TTL_MS);

/** `findAuthor` for the hot path: at most one second old, fresh after changes made through this node. */
export async function findAuthorSnapshot(db: Queryable, projectId: string, externalId: string): Promise<AuthorRecord | null> {
  const key = `${projectId}\u0000${externalId}`;
  const cached = snapshots.get(key);
  if (cached !== undefined) return cached;
  const author = await findAuthor(db, projectId, externalId);
  snapshots.set(key, author);
  return author;
}

/** Folds what a submission just wrote (status, block, trust) into the cached snapshot, so the next verdict sees it. */
export function refreshAuthorSnapshot(projectId: string, summary: AuthorSummary): void {
  const key = `${projectId}\u0000${summary.external_id}`;
  const cached = snapshots.get(key);
  if (cached) snapshots.set(key, { ...cached, status: summary.status, block: summary.block, trust_level: summary.trust_level });
  else snapshots.delete(key);
}

/** Drops a project's cached author snapshots (status, trust or profile changed, authors created or deleted). */
export function forgetAuthorSnapshots(projectId: string): void {
  snapshots.deleteWhere((key) => key.startsWith(`${projectId}\u0000`));
}

export async function findAuthorSummary(db: Queryable, projectId: string, externalId: string): Promise<AuthorSummary | null> {
  const { rows } = await db.query(`SELECT ${SELECT_COLUMNS} FROM authors WHERE project_id = $1 AND external_id = $2`, [projectId, externalId]);
  return rows[0] ? toAuthorSummary(rows[0]) : null;
}

export interface StatusChange {
  status: AuthorStatus;
  /** Suspensions only: when the author is enabled again (ms). */
  until?: number | null;
  reason?: string | null;
}

/**
 * Enables, suspends or blocks an author (by internal or external id) inside
 * the caller's transaction. A suspension schedules an `author.block_expired`
 * outbox event at `until`, in the same transaction, whose handler enables the
 * author again unless the block changed meanwhile. Blocking or suspending an
 * enabled author counts as an incident (violation count, last incident).
 */
export async function setAuthorStatus(tx: Queryable, projectId: string, authorId: string, change: StatusChange): Promise<AuthorRecord> {
  forgetAuthorSnapshots(projectId);
  if (change.status === 'suspended' && (change.until === undefined || change.until === null)) {
    throw badRequest('A suspension needs an end time', [{ message: 'until is required when status is suspended', path: '/until' }]);
  }
  const current = await findAuthorRow(tx, projectId, authorId, true);
  if (!current) throw notFound(`Author "${authorId}"`);
  const now = Date.now();
  const until = change.status === 'suspended' ? change.until! : null;
  const reason = change.status === 'enabled' ? null : (change.reason ?? null);
  const { rows } = await tx.query(
    `UPDATE authors SET
       status = $3, block_until = $4, block_reason = $5, updated_at = $6,
       violation_count = violation_count + CASE WHEN status = 'enabled' AND $3 <> 'enabled' THEN 1 ELSE 0 END,
       last_incident = CASE WHEN status = 'enabled' AND $3 <> 'enabled' THEN $6 ELSE last_incident END
     WHERE project_id = $1 AND id = $2
     RETURNING ${SELECT_COLUMNS}`,
    [projectId, current.id, change.status, until, reason, now],
  );
  if (until !== null) {
    await enqueue(tx, { projectId, topic: AUTHOR_BLOCK_EXPIRED_TOPIC, payload: { authorId: current.id, until }, availableAt: until });
  }
  return toAuthorRecord(rows[0]!, now);
}

/**
 * The `author.block_expired` handler's work: enables the author if the
 * suspension it was scheduled for is still the one in place. Returns whether
 * the author was enabled.
 */
export async function expireAuthorBlock(db: Queryable, projectId: string, authorId: string, until: number): Promise<boolean> {
  forgetAuthorSnapshots(projectId);
  const { rowCount } = await db.query(
    `UPDATE authors SET status = 'enabled', block_until = NULL, block_reason = NULL, updated_at = $4
     WHERE project_id = $1 AND id = $2 AND status = 'suspended' AND block_until = $3`,
    [projectId, authorId, until, Date.now()],
  );
  return rowCount > 0;
}

/** What one stored submission tells about its author. */
export interface SubmissionFacts {
  /** The submission's timestamp (its `timestamp`, or when it arrived). */
  seenAt: number;
  flagged: boolean;
  contentType: string;
  /** Sentiment score (−1..1) when a sentiment insight ran, else null. */
  sentiment: number | null;
  spoofed: boolean;
  linkCount: number;
  /** Normalized-text fingerprint for duplicate detection, or null for short or non-text content. */
  fingerprint: string | null;
}

/** One submission by an author, as the group commit hands it over. */
export interface AuthorSighting {
  projectId: string;
  externalId: string;
  facts: SubmissionFacts;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

// One multi-row upsert for a wave of sightings of distinct authors. The new
// row's values double as this submission's facts in DO UPDATE (EXCLUDED.*).
const UPSERT_AUTHORS_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::smallint[], $7::float8[],
                       $8::int[], $9::int[], $10::int[], $11::text[])
    AS t(id, project_id, external_id, seen_at, flagged, type_bit, sentiment, night, spoofed, links, fingerprint)
), facts AS (
  SELECT input.*,
    CASE WHEN input.fingerprint IS NOT NULL AND EXISTS (
      SELECT 1 FROM content_fingerprints f
      WHERE f.project_id = input.project_id AND f.fingerprint = input.fingerprint
        AND f.author_id IS DISTINCT FROM (SELECT a.id FROM authors a WHERE a.project_id = input.project_id AND a.external_id = input.external_id))
    THEN 1 ELSE 0 END AS duplicate
  FROM input
), upserted AS (
  INSERT INTO authors AS a (id, project_id, external_id, first_seen, last_seen, created_at, updated_at,
    total_content, flagged_content, flagged_ratio, sentiment_sum, sentiment_count, average_sentiment,
    violation_count, last_incident, content_type_mask, recent_flags, recent_count,
    hour_bucket, hour_count, hour_night_count, minute_bucket, minute_count, peak_minute_count,
    night_content, spoofed_content, link_count, duplicate_content)
  SELECT id, project_id, external_id, seen_at, seen_at, $12, $12,
    1, flagged, flagged, COALESCE(sentiment, 0), CASE WHEN sentiment IS NULL THEN 0 ELSE 1 END, sentiment,
    flagged, CASE WHEN flagged = 1 THEN seen_at END, type_bit, flagged::bit(100), 1,
    seen_at / ${HOUR_MS}, 1, night, seen_at / ${MINUTE_MS}, 1, 1,
    night, spoofed, links, duplicate
  FROM facts
  -- A fixed lock order, so two batches touching the same authors cannot deadlock.
  ORDER BY project_id, external_id
  ON CONFLICT (project_id, external_id) DO UPDATE SET
    first_seen = LEAST(a.first_seen, EXCLUDED.first_seen),
    last_seen = GREATEST(a.last_seen, EXCLUDED.last_seen),
    updated_at = EXCLUDED.updated_at,
    total_content = a.total_content + 1,
    flagged_content = a.flagged_content + EXCLUDED.flagged_content,
    flagged_ratio = (a.flagged_content + EXCLUDED.flagged_content)::float8 / (a.total_content + 1),
    sentiment_sum = a.sentiment_sum + EXCLUDED.sentiment_sum,
    sentiment_count = a.sentiment_count + EXCLUDED.sentiment_count,
    average_sentiment = CASE WHEN EXCLUDED.sentiment_count = 0 THEN a.average_sentiment
                             ELSE (a.sentiment_sum + EXCLUDED.sentiment_sum) / (a.sentiment_count + 1) END,
    violation_count = a.violation_count + EXCLUDED.violation_count,
    last_incident = CASE WHEN EXCLUDED.last_incident IS NULL THEN a.last_incident
                         ELSE GREATEST(COALESCE(a.last_incident, 0), EXCLUDED.last_incident) END,
    content_type_mask = a.content_type_mask | EXCLUDED.content_type_mask,
    recent_flags = (a.recent_flags << 1) | EXCLUDED.recent_flags,
    recent_count = LEAST(a.recent_count + 1, 100),
    hour_bucket = GREATEST(a.hour_bucket, EXCLUDED.hour_bucket),
    hour_count = CASE WHEN EXCLUDED.hour_bucket > a.hour_bucket THEN 1
                      WHEN EXCLUDED.hour_bucket = a.hour_bucket THEN a.hour_count + 1 ELSE a.hour_count END,
    hour_night_count = CASE WHEN EXCLUDED.hour_bucket > a.hour_bucket THEN EXCLUDED.hour_night_count
                            WHEN EXCLUDED.hour_bucket = a.hour_bucket THEN a.hour_night_count + EXCLUDED.hour_night_count
                            ELSE a.hour_night_count END,
    minute_bucket = GREATEST(a.minute_bucket, EXCLUDED.minute_bucket),
    minute_count = CASE WHEN EXCLUDED.minute_bucket > a.minute_bucket THEN 1
                        WHEN EXCLUDED.minute_bucket = a.minute_bucket THEN a.minute_count + 1 ELSE a.minute_count END,
    peak_minute_count = GREATEST(a.peak_minute_count,
                                 CASE WHEN EXCLUDED.minute_bucket = a.minute_bucket THEN a.minute_count + 1 ELSE 1 END),
    night_content = a.night_content + EXCLUDED.night_content,
    spoofed_content = a.spoofed_content + EXCLUDED.spoofed_content,
    link_count = a.link_count + EXCLUDED.link_count,
    duplicate_content = a.duplicate_content + EXCLUDED.duplicate_content
  RETURNING a.*, a.recent_flags::text AS recent_flags
), fingerprinted AS (
  INSERT INTO content_fingerprints (project_id, fingerprint, author_id, first_seen)
  SELECT u.project_id, i.fingerprint, u.id, i.seen_at
  FROM upserted u JOIN input i ON i.project_id = u.project_id AND i.external_id = u.external_id
  WHERE i.fingerprint IS NOT NULL
  ON CONFLICT DO NOTHING
)
SELECT * FROM upserted`;

/**
 * Records stored submissions against their authors, creating authors on
 * first sight: timestamps, metrics, recent history and behaviour counters.
 * Runs inside the submissions' transaction as one statement per wave (a wave
 * holds at most one sighting per author, so a batch with no repeated author
 * is one statement). A further statement runs only when trust levels moved.
 * Returns one summary per sighting, in order.
 */
export async function recordAuthorsSeen(tx: Queryable, sightings: readonly AuthorSighting[]): Promise<AuthorSummary[]> {
  const now = Date.now();
  const results: AuthorSummary[] = new Array(sightings.length);
  const latestRows = new Map<string, Row>();
  const keyOf = (projectId: string, externalId: string) => `${projectId}\u0000${externalId}`;
  const waves: number[][] = [];
  const seenCount = new Map<string, number>();
  sightings.forEach((s, i) => {
    const key = keyOf(s.projectId, s.externalId);
    const wave = seenCount.get(key) ?? 0;
    seenCount.set(key, wave + 1);
    (waves[wave] ??= []).push(i);
  });
  for (const wave of waves) {
    const items = wave.map((i) => sightings[i]!);
    const column = <T>(pick: (s: AuthorSighting) => T) => items.map(pick);
    const { rows } = await tx.query(UPSERT_AUTHORS_SQL, [
      column(() => newId('auth')),
      column((s) => s.projectId),
      column((s) => s.externalId),
      column((s) => s.facts.seenAt),
      column((s) => (s.facts.flagged ? 1 : 0)),
      column((s) => CONTENT_TYPE_BITS[s.facts.contentType] ?? 0),
      column((s) => s.facts.sentiment ?? null),
      column((s) => (isNightTime(s.facts.seenAt) ? 1 : 0)),
      column((s) => (s.facts.spoofed ? 1 : 0)),
      column((s) => s.facts.linkCount ?? 0),
      column((s) => s.facts.fingerprint ?? null),
      now,
    ], { name: 'upsert_authors' });
    const byKey = new Map(rows.map((row) => [keyOf(row.project_id as string, row.external_id as string), row]));
    wave.forEach((i) => {
      const s = sightings[i]!;
      const row = byKey.get(keyOf(s.projectId, s.externalId))!;
      latestRows.set(keyOf(s.projectId, s.externalId), row);
      results[i] = toAuthorSummary(row, now);
    });
  }
  const moved = [...latestRows.values()]
    .map((row) => ({ row, level: trustLevel(trustFactsOf(row), now).level }))
    .filter(({ row, level }) => level !== num(row.trust_level));
  await storeTrustLevels(tx, moved, 'submission', now);
  return results;
}

/** A re-submission of an item the author already has: counted again only when its verdict changed. */
export interface RepeatedSighting {
  projectId: string;
  externalId: string;
  /** +1 when the item is now flagged and was not, −1 the other way, 0 when the verdict stands. */
  flaggedDelta: -1 | 0 | 1;
}

// Only flagged content, its ratio and violations follow a changed verdict: the item was counted once
// already, and its timing and behaviour counters describe the first time it was sent.
const RECORD_REPEATS_SQL = `
WITH input AS (
  SELECT project_id, external_id, sum(delta)::int AS delta
  FROM unnest($1::text[], $2::text[], $3::int[]) AS t(project_id, external_id, delta)
  GROUP BY project_id, external_id
), changed AS (
  UPDATE authors AS a SET
    flagged_content = GREATEST(a.flagged_content + i.delta, 0),
    flagged_ratio = GREATEST(a.flagged_content + i.delta, 0)::float8 / GREATEST(a.total_content, 1),
    violation_count = a.violation_count + GREATEST(i.delta, 0),
    last_incident = CASE WHEN i.delta > 0 THEN $4 ELSE a.last_incident END,
    updated_at = $4
  FROM input i
  WHERE a.project_id = i.project_id AND a.external_id = i.external_id AND i.delta <> 0
  RETURNING a.*, a.recent_flags::text AS recent_flags
)
SELECT * FROM changed
UNION ALL
SELECT a.*, a.recent_flags::text AS recent_flags FROM authors a JOIN input i USING (project_id, external_id) WHERE i.delta = 0`;

/**
 * Summaries for re-submitted items, moving the authors' flagged counters only where the verdict
 * changed; the caller holds the items' locks, so a retry storm counts each item once.
 */
export async function recordRepeatedSightings(tx: Queryable, repeats: readonly RepeatedSighting[]): Promise<AuthorSummary[]> {
  const now = Date.now();
  const { rows } = await tx.query(RECORD_REPEATS_SQL, [repeats.map((r) => r.projectId), repeats.map((r) => r.externalId), repeats.map((r) => r.flaggedDelta), now]);
  const byKey = new Map(rows.map((row) => [`${row.project_id as string}\u0000${row.external_id as string}`, row]));
  const moved = rows
    .map((row) => ({ row, level: trustLevel(trustFactsOf(row), now).level }))
    .filter(({ row, level }) => level !== num(row.trust_level));
  await storeTrustLevels(tx, moved, 'submission', now);
  return repeats.map((r) => toAuthorSummary(byKey.get(`${r.projectId}\u0000${r.externalId}`)!, now));
}

/** One sighting; see recordAuthorsSeen. */
export async function recordAuthorSeen(tx: Queryable, projectId: string, externalId: string, facts: SubmissionFacts): Promise<AuthorSummary> {
  const [summary] = await recordAuthorsSeen(tx, [{ projectId, externalId, facts }]);
  return summary!;
}

// ---------------------------------------------------------------------------
// Authors API

export interface AuthorFields {
  name?: string | null;
  email?: string | null;
  profile_picture?: string | null;
  external_link?: string | null;
  metadata?: Record<string, unknown>;
  manual_trust_level?: number | null;
  first_seen?: number;
  last_seen?: number;
}

const WRITABLE = ['name', 'email', 'profile_picture', 'external_link', 'metadata', 'manual_trust_level', 'first_seen', 'last_seen'] as const;

function checkTimes(firstSeen: number, lastSeen: number): void {
  if (firstSeen > lastSeen) throw badRequest('first_seen must not be after last_seen', [{ message: 'first_seen is after last_seen', path: '/first_seen' }]);
}

export async function createAuthor(db: Queryable, projectId: string, body: AuthorFields & { external_id: string }): Promise<AuthorRecord> {
  forgetAuthorSnapshots(projectId);
  const now = Date.now();
  const firstSeen = body.first_seen ?? Math.min(now, body.last_seen ?? now);
  const lastSeen = body.last_seen ?? Math.max(now, firstSeen);
  checkTimes(firstSeen, lastSeen);
  const metadata = body.metadata ?? {};
  const manual = body.manual_trust_level ?? null;
  const level = trustLevel(
    { firstSeen, totalContent: 0, flaggedContent: 0, recentCount: 0, recentFlagged: 0, metadata, manualTrustLevel: manual },
    now,
  ).level;
  try {
    const { rows } = await db.query(
      `INSERT INTO authors (id, project_id, external_id, first_seen, last_seen, created_at, updated_at,
         name, email, profile_picture, external_link, metadata, manual_trust_level, trust_level)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9, $10, $11, $12, $13)
       RETURNING ${SELECT_COLUMNS}`,
      [newId('auth'), projectId, body.external_id, firstSeen, lastSeen, now, body.name ?? null, body.email ?? null,
        body.profile_picture ?? null, body.external_link ?? null, JSON.stringify(metadata), manual, level],
    );
    return toAuthorRecord(rows[0]!, now);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(`An author with external_id "${body.external_id}" already exists`, [{ message: 'duplicate external_id', path: '/external_id' }]);
    }
    throw error;
  }
}

/**
 * PUT /v1/authors/{id}: the fields sent replace the stored ones (metadata as a
 * whole); the rest stay. In the same transaction: AUTHOR_UPDATED when a field
 * changed, AUTHOR_TRUST_LEVEL_CHANGED when the stored trust level moved.
 */
export async function updateAuthor(db: Database, projectId: string, idOrExternalId: string, body: AuthorFields): Promise<AuthorRecord> {
  forgetAuthorSnapshots(projectId);
  return db.transaction(async (tx) => {
    const current = await findAuthorRow(tx, projectId, idOrExternalId, true);
    if (!current) throw notFound(`Author "${idOrExternalId}"`);
    const next: Row = { ...current };
    for (const field of WRITABLE) if (body[field] !== undefined) next[field] = body[field];
    checkTimes(num(next.first_seen), num(next.last_seen));
    const now = Date.now();
    next.trust_level = trustLevel(trustFactsOf(next), now).level;
    const { rows } = await tx.query(
      `UPDATE authors SET name = $3, email = $4, profile_picture = $5, external_link = $6, metadata = $7,
         manual_trust_level = $8, first_seen = $9, last_seen = $10, trust_level = $11, updated_at = $12
       WHERE project_id = $1 AND id = $2 RETURNING ${SELECT_COLUMNS}`,
      [projectId, current.id, next.name, next.email, next.profile_picture, next.external_link, JSON.stringify(next.metadata ?? {}),
        next.manual_trust_level, next.first_seen, next.last_seen, next.trust_level, now],
    );
    const updated = toAuthorRecord(rows[0]!, now);
    const changedFields = WRITABLE.filter((field) => body[field] !== undefined && !isDeepStrictEqual(current[field] ?? (field === 'metadata' ? {} : null), body[field]));
    const events: EventDraft[] = [];
    if (changedFields.length > 0) events.push({ type: 'AUTHOR_UPDATED', data: { author: updated, changedFields } });
    if (num(current.trust_level) !== num(next.trust_level)) {
      events.push({ type: 'AUTHOR_TRUST_LEVEL_CHANGED', data: trustChangedData(updated, num(current.trust_level), 'update') });
    }
    await emitEvents(tx, projectId, events, now);
    return updated;
  });
}

export async function deleteAuthor(db: Queryable, projectId: string, idOrExternalId: string): Promise<void> {
  forgetAuthorSnapshots(projectId);
  const row = await findAuthorRow(db, projectId, idOrExternalId);
  if (!row) throw notFound(`Author "${idOrExternalId}"`);
  await db.query('DELETE FROM authors WHERE project_id = $1 AND id = $2', [projectId, row.id]);
}

export const AUTHOR_SORT_KEYS = {
  trustLevel: 'trust_level',
  violationCount: 'violation_count',
  reportCount: 'report_count',
  memberSince: 'first_seen',
  lastActive: 'last_seen',
  contentCount: 'total_content',
  flaggedContentRatio: 'flagged_ratio',
  averageSentiment: 'average_sentiment',
} as const;
export type AuthorSortKey = keyof typeof AUTHOR_SORT_KEYS;

export interface TimeRange {
  from: number | null;
  to: number | null;
}

export interface AuthorListQuery {
  pageSize: number;
  pageNumber: number;
  sortBy: AuthorSortKey | null;
  sortDirection: 'asc' | 'desc';
  memberSince: TimeRange | null;
  lastActive: TimeRange | null;
  contentTypeMask: number | null;
}

export interface AuthorPage {
  authors: AuthorRecord[];
  pagination: { total: number; pageSize: number; pageNumber: number; hasNextPage: boolean; hasPreviousPage: boolean };
}

/**
 * GET /v1/authors. Every sort key has an index on (project_id, key, id) and
 * ties break on id in the same direction, so a page is an index range scan.
 */
export async function listAuthors(db: Queryable, projectId: string, query: AuthorListQuery): Promise<AuthorPage> {
  const where = ['project_id = $1'];
  const params: unknown[] = [projectId];
  const range = (column: string, r: TimeRange | null) => {
    if (!r) return;
    if (r.from !== null) where.push(`${column} >= $${params.push(r.from)}`);
    if (r.to !== null) where.push(`${column} < $${params.push(r.to)}`);
  };
  range('first_seen', query.memberSince);
  range('last_seen', query.lastActive);
  if (query.contentTypeMask !== null) where.push(`(content_type_mask & $${params.push(query.contentTypeMask)}::smallint) <> 0`);

  const dir = query.sortDirection === 'asc' ? 'ASC' : 'DESC';
  const column = query.sortBy ? AUTHOR_SORT_KEYS[query.sortBy] : null;
  // Matches the sentiment index (NULLS FIRST ascending), so both directions scan it.
  const nulls = column === 'average_sentiment' ? (dir === 'ASC' ? ' NULLS FIRST' : ' NULLS LAST') : '';
  const order = column ? `${column} ${dir}${nulls}, id ${dir}` : `id ${dir}`;
  const offset = (query.pageNumber - 1) * query.pageSize;
  const whereSql = where.join(' AND ');
  // Unfiltered: the trigger-kept counter (a few rows); filtered: an exact count of the matching rows.
  const countSql =
    where.length === 1
      ? `SELECT COALESCE(sum(value), 0)::bigint AS n FROM project_counters WHERE project_id = $1 AND name = 'authors'`
      : `SELECT count(*) AS n FROM authors WHERE ${whereSql}`;
  const [page, count] = await Promise.all([
    db.query(`SELECT ${SELECT_COLUMNS} FROM authors WHERE ${whereSql} ORDER BY ${order} LIMIT ${query.pageSize} OFFSET ${offset}`, params),
    db.query<{ n: number }>(countSql, where.length === 1 ? [projectId] : params),
  ]);
  const total = Number(count.rows[0]!.n);
  const now = Date.now();
  return {
    authors: page.rows.map((row) => toAuthorRecord(row, now)),
    pagination: {
      total,
      pageSize: query.pageSize,
      pageNumber: query.pageNumber,
      hasNextPage: offset + page.rows.length < total,
      hasPreviousPage: query.pageNumber > 1,
    },
  };
}
