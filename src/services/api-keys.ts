import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { newId } from '../lib/ids.ts';
import { TtlCache } from '../lib/ttl-cache.ts';
import { notFound } from '../errors.ts';
import { announceChange } from '../db/change-notifications.ts';

export const KEY_PREFIX_LENGTH = 12;
// On PostgreSQL a key created or revoked anywhere is announced to every node, which drops its cache
// at once (db/change-notifications.ts); this bound holds only while a node's LISTEN connection is down.
const AUTH_CACHE_TTL_MS = 5_000;

export interface ApiKeyInfo {
  id: string;
  projectId: string;
  name: string;
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
  /** The dashboard user who created it (null: CLI or bootstrap). */
  createdBy: string | null;
}

export interface Principal {
  projectId: string;
  keyId: string;
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** 32 random bytes in base64url behind a recognisable prefix: `om_` + 43 characters. */
export const generateKey = () => `om_${randomBytes(32).toString('base64url')}`;

// Valid and invalid keys are remembered apart: a stream of made-up keys fills only the second
// cache and can never push the keys of real clients out of the first.
const authCache = new TtlCache<Principal>(AUTH_CACHE_TTL_MS);
const refusedKeys = new TtlCache<true>(AUTH_CACHE_TTL_MS);
// Moved by every drop, so a lookup that read the store before a change never caches what it read.
let cacheEpoch = 0;

/** Drops every cached key decision (a key was created or revoked, here or on another node). */
export function forgetCachedKeys(): void {
  cacheEpoch++;
  authCache.clear();
  refusedKeys.clear();
}

export async function createApiKey(
  db: Queryable,
  projectId: string,
  name: string,
  explicitKey?: string,
  createdBy: string | null = null,
): Promise<{ key: string; info: ApiKeyInfo }> {
  const key = explicitKey ?? generateKey();
  const info: ApiKeyInfo = {
    id: newId('key'),
    projectId,
    name,
    prefix: key.slice(0, KEY_PREFIX_LENGTH),
    createdAt: Date.now(),
    revokedAt: null,
    lastUsedAt: null,
    createdBy,
  };
  await db.query(
    'INSERT INTO api_keys (id, project_id, name, prefix, key_hash, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [info.id, projectId, name, info.prefix, hashKey(key), info.createdAt, createdBy],
  );
  await announceChange(db, 'api_keys', projectId);
  forgetCachedKeys();
  return { key, info };
}

export async function listApiKeys(db: Queryable, projectId?: string): Promise<ApiKeyInfo[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT id, project_id, name, prefix, created_at, revoked_at, last_used_at, created_by FROM api_keys
     WHERE ($1::text IS NULL OR project_id = $1) ORDER BY created_at, id`,
    [projectId ?? null],
  );
  return rows.map((r) => ({
    id: r.id as string,
    projectId: r.project_id as string,
    name: r.name as string,
    prefix: r.prefix as string,
    createdAt: r.created_at as number,
    revokedAt: (r.revoked_at as number | null) ?? null,
    lastUsedAt: r.last_used_at == null ? null : Number(r.last_used_at),
    createdBy: (r.created_by as string | null) ?? null,
  }));
}

/** Revokes a key (by id or prefix); `projectId` confines it to one project (the dashboard). */
export async function revokeApiKey(db: Queryable, keyIdOrPrefix: string, projectId: string | null = null): Promise<ApiKeyInfo> {
  const { rows } = await db.query<{ id: string; project_id: string }>(
    `UPDATE api_keys SET revoked_at = $2 WHERE (id = $1 OR prefix = $1) AND revoked_at IS NULL AND ($3::text IS NULL OR project_id = $3)
     RETURNING id, project_id`,
    [keyIdOrPrefix, Date.now(), projectId],
  );
  if (rows.length !== 1) throw notFound('Active API key');
  await announceChange(db, 'api_keys', rows[0]!.project_id);
  forgetCachedKeys();
  const keys = await listApiKeys(db);
  return keys.find((k) => k.id === rows[0]!.id)!;
}

// Most traffic comes with one key: its hash is remembered instead of computed for every request
// (the key itself, the last one presented, stays in memory until another arrives).
let lastPresented: string | null = null;
let lastHash = '';
function presentedHash(presentedKey: string): string {
  if (presentedKey !== lastPresented) {
    lastHash = hashKey(presentedKey);
    lastPresented = presentedKey;
  }
  return lastHash;
}

/** The key's principal when the cache knows it (null: known to be invalid), undefined when the store must be asked. */
export function cachedPrincipal(presentedKey: string): Principal | null | undefined {
  const hash = presentedHash(presentedKey);
  return authCache.get(hash) ?? (refusedKeys.get(hash) ? null : undefined);
}

/** Resolves a presented key to its project; null for unknown or revoked keys. */
export async function authenticate(db: Queryable, presentedKey: string): Promise<Principal | null> {
  const hash = presentedHash(presentedKey);
  const cached = authCache.get(hash) ?? (refusedKeys.get(hash) ? null : undefined);
  if (cached !== undefined) return cached;
  const epoch = cacheEpoch;
  const { rows } = await db.query<{ id: string; project_id: string }>(
    'SELECT id, project_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [hash],
  );
  const principal = rows[0] ? { projectId: rows[0].project_id, keyId: rows[0].id } : null;
  if (epoch !== cacheEpoch) return principal;
  if (principal) authCache.set(hash, principal);
  else refusedKeys.set(hash, true);
  return principal;
}

// ---------------------------------------------------------------- last use

/**
 * "Last used" without a write per request: the /v1 hot path notes the time in memory, and a
 * timer (app.ts) writes the notes in one statement every few seconds, and once more at close.
 */
export class KeyUseTracker {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: Queryable) {}

  note(keyId: string, now: number): void {
    this.pending.set(keyId, now);
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.timer ??= setInterval(() => this.flush().catch(onError), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush().catch(() => {});
  }

  /** Writes the noted times; a time never moves backwards (several nodes write). */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending].map(([id, at]) => ({ id, at }));
    this.pending.clear();
    await this.db.query(
      `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), u.at)
       FROM jsonb_to_recordset($1::jsonb) AS u(id text, at bigint) WHERE k.id = u.id`,
      [JSON.stringify(batch)],
    );
  }
}
