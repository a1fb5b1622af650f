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
): Promise<{ key: string; info: ApiKeyInfo }> {
  const key = explicitKey ?? generateKey();
  const info: ApiKeyInfo = {
    id: newId('key'),
    projectId,
    name,
    prefix: key.slice(0, KEY_PREFIX_LENGTH),
    createdAt: Date.now(),
    revokedAt: null,
  };
  await db.query(
    'INSERT INTO api_keys (id, project_id, name, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [info.id, projectId, name, info.prefix, hashKey(key), info.createdAt],
  );
  await announceChange(db, 'api_keys', projectId);
  forgetCachedKeys();
  return { key, info };
}

export async function listApiKeys(db: Queryable, projectId?: string): Promise<ApiKeyInfo[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT id, project_id, name, prefix, created_at, revoked_at FROM api_keys
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
  }));
}

export async function revokeApiKey(db: Queryable, keyIdOrPrefix: string): Promise<ApiKeyInfo> {
  const { rows } = await db.query<{ id: string; project_id: string }>(
    `UPDATE api_keys SET revoked_at = $2 WHERE (id = $1 OR prefix = $1) AND revoked_at IS NULL RETURNING id, project_id`,
    [keyIdOrPrefix, Date.now()],
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
