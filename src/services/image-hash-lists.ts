import type { Database, Queryable } from '../db/database.ts';
import { announceChange } from '../db/change-notifications.ts';
import { ApiError, badRequest, conflict, notFound, type ErrorIssue } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { DataUrlError, parseDataUrl } from '../media/data-url.ts';
import {
  computeImageHash,
  DEFAULT_HASH_THRESHOLD,
  HALF_HASH_HEX_LENGTH,
  hashWords,
  ImageHashError,
  normalizeImageHash,
  wordsDistance,
} from '../media/image-hash.ts';
import {
  MAX_HASHES_PER_LIST,
  MAX_IMAGE_BYTES,
  type AddImageHashesBody,
  type CreateImageHashListBody,
  type ImageHashListView,
  type UpdateImageHashListBody,
} from '../schemas/image-hash-lists.ts';

/**
 * Image hash lists: known-bad pictures per project (a scam screenshot, an abusive meme), kept
 * as perceptual hashes, never as pictures. Lists are managed like wordlists; the moderation
 * pipeline asks `matchImageHashes` whether an image's hash lies within a list's threshold of an
 * entry. Lists of another project are simply not found.
 */

interface ListRow {
  id: string;
  project_id: string;
  key: string | null;
  name: string;
  description: string | null;
  threshold: number;
  version: number;
  created_at: number;
  updated_at: number;
}

const COLUMNS = 'id, project_id, key, name, description, threshold, version, created_at, updated_at';

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export interface HashEntryInput {
  hash: string;
  label: string | null;
}

/** Normalizes hashes given as text; the first label given for a hash wins. */
export function normalizeHashEntries(raw: ReadonlyArray<string | { hash: string; label?: string | undefined }>, path = '/hashes'): HashEntryInput[] {
  const byHash = new Map<string, HashEntryInput>();
  const issues: ErrorIssue[] = [];
  raw.forEach((item, index) => {
    const text = typeof item === 'string' ? item : item.hash;
    const hash = normalizeImageHash(text);
    if (hash === null) issues.push({ message: 'A hash is 32 or 16 hex digits', path: `${path}/${index}` });
    else if (!byHash.has(hash)) byHash.set(hash, { hash, label: typeof item === 'string' ? null : (item.label?.trim() || null) });
  });
  if (issues.length > 0) throw badRequest('Invalid hashes', issues.slice(0, 20));
  return [...byHash.values()];
}

/** The hash of an image given as bytes; a picture that cannot be decoded is a 400 naming where it was. */
export async function hashImageBytes(bytes: Uint8Array, path: string, maxPixels?: number): Promise<string> {
  if (bytes.length === 0) throw badRequest('The image is empty', [{ message: 'empty image', path }]);
  if (bytes.length > MAX_IMAGE_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `An image may have at most ${MAX_IMAGE_BYTES} bytes`, [{ message: 'image too large', path }]);
  try {
    return await computeImageHash(bytes, maxPixels === undefined ? {} : { maxPixels });
  } catch (error) {
    if (error instanceof ImageHashError) throw badRequest(error.message, [{ message: error.code, path }]);
    throw error;
  }
}

export async function hashDataUrl(url: string, path: string, maxPixels?: number): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = parseDataUrl(url, MAX_IMAGE_BYTES).bytes;
  } catch (error) {
    if (error instanceof DataUrlError) {
      if (error.code === 'too_large') throw new ApiError('PAYLOAD_TOO_LARGE', error.message, [{ message: error.code, path }]);
      throw badRequest(error.message, [{ message: error.code, path }]);
    }
    throw error;
  }
  return hashImageBytes(bytes, path, maxPixels);
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

async function countHashes(db: Queryable, listId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM image_hash_list_entries WHERE list_id = $1', [listId]);
  return rows[0]!.n;
}

async function viewOf(db: Queryable, row: ListRow): Promise<ImageHashListView> {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    threshold: row.threshold,
    hashCount: await countHashes(db, row.id),
    projectId: row.project_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** By id, or by key for convenience; another project's list is simply not found. */
async function findRow(db: Queryable, projectId: string, idOrKey: string, lock = false): Promise<ListRow> {
  const { rows } = await db.query<ListRow>(
    `SELECT ${COLUMNS} FROM image_hash_lists WHERE project_id = $1 AND (id = $2 OR key = $2) ORDER BY (id = $2) DESC LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    [projectId, idOrKey],
  );
  if (!rows[0]) throw notFound(`Image hash list "${idOrKey}"`);
  return rows[0];
}

async function insertEntries(db: Queryable, listId: string, entries: readonly HashEntryInput[]): Promise<string[]> {
  if (entries.length === 0) return [];
  const { rows } = await db.query<{ hash: string }>(
    `INSERT INTO image_hash_list_entries (list_id, hash, label, created_at)
     SELECT $1, e.hash, e.label, $4 FROM unnest($2::text[], $3::text[]) AS e(hash, label)
     ON CONFLICT DO NOTHING RETURNING hash`,
    [listId, entries.map((e) => e.hash), entries.map((e) => e.label), Date.now()],
  );
  return rows.map((r) => r.hash);
}

function keyConflict(key: string | null | undefined) {
  return conflict(`An image hash list with key "${key}" already exists`, [{ message: 'duplicate key', path: '/key' }]);
}

function tooManyHashes(count: number) {
  return badRequest(`A list may hold at most ${MAX_HASHES_PER_LIST} hashes (this change would make ${count})`, [{ message: 'too many hashes', path: '/hashes' }]);
}

export async function listImageHashLists(db: Queryable, projectId: string): Promise<ImageHashListView[]> {
  const { rows } = await db.query<ListRow & { hash_count: number }>(
    `SELECT ${COLUMNS.split(', ').map((c) => `l.${c}`).join(', ')},
            (SELECT count(*)::int FROM image_hash_list_entries e WHERE e.list_id = l.id) AS hash_count
     FROM image_hash_lists l WHERE l.project_id = $1 ORDER BY l.id`,
    [projectId],
  );
  return rows.map((row) => ({
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    threshold: row.threshold,
    hashCount: row.hash_count,
    projectId: row.project_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }));
}

export async function getImageHashList(db: Queryable, projectId: string, idOrKey: string): Promise<ImageHashListView> {
  return viewOf(db, await findRow(db, projectId, idOrKey));
}

export async function createImageHashList(db: Database, projectId: string, body: CreateImageHashListBody): Promise<ImageHashListView> {
  const entries = normalizeHashEntries(body.hashes ?? []);
  const now = Date.now();
  try {
    const row = await db.transaction(async (tx) => {
      const { rows } = await tx.query<ListRow>(
        `INSERT INTO image_hash_lists (id, project_id, key, name, description, threshold, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${COLUMNS}`,
        [newId('ihl'), projectId, body.key ?? null, body.name, body.description ?? null, body.threshold ?? DEFAULT_HASH_THRESHOLD, now],
      );
      await insertEntries(tx, rows[0]!.id, entries);
      await announceChange(tx, 'image_hash_lists', projectId);
      return rows[0]!;
    });
    forgetLoadedImageHashLists(projectId);
    return await viewOf(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw keyConflict(body.key);
    throw error;
  }
}

export async function updateImageHashList(db: Database, projectId: string, idOrKey: string, body: UpdateImageHashListBody): Promise<ImageHashListView> {
  try {
    const row = await db.transaction(async (tx) => {
      const current = await findRow(tx, projectId, idOrKey, true);
      const { rows } = await tx.query<ListRow>(
        `UPDATE image_hash_lists SET key = $2, name = $3, description = $4, threshold = $5, version = version + 1, updated_at = $6
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [
          current.id,
          body.key === undefined ? current.key : body.key,
          body.name ?? current.name,
          body.description === undefined ? current.description : body.description,
          body.threshold ?? current.threshold,
          Date.now(),
        ],
      );
      await announceChange(tx, 'image_hash_lists', projectId);
      return rows[0]!;
    });
    forgetLoadedImageHashLists(projectId);
    return await viewOf(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw keyConflict(body.key);
    throw error;
  }
}

export async function deleteImageHashList(db: Database, projectId: string, idOrKey: string): Promise<ImageHashListView> {
  const view = await db.transaction(async (tx) => {
    const row = await findRow(tx, projectId, idOrKey, true);
    const deleted = await viewOf(tx, row);
    await tx.query('DELETE FROM image_hash_lists WHERE id = $1 AND project_id = $2', [row.id, projectId]);
    await announceChange(tx, 'image_hash_lists', projectId);
    return deleted;
  });
  forgetLoadedImageHashLists(projectId);
  return view;
}

/**
 * Adds hashes given as text and images hashed here. Every image is decoded before the list is
 * touched, so one undecodable picture leaves the list as it was.
 */
export async function addImageHashes(db: Database, projectId: string, idOrKey: string, body: AddImageHashesBody, maxPixels?: number) {
  const entries = normalizeHashEntries(body.hashes ?? []);
  // The list must exist before any image is decoded: a typo costs no decoding work.
  await findRow(db, projectId, idOrKey);
  const imageHashes: string[] = [];
  for (const [index, image] of (body.images ?? []).entries()) {
    const hash = await hashDataUrl(image.data, `/images/${index}/data`, maxPixels);
    imageHashes.push(hash);
    if (!entries.some((e) => e.hash === hash)) entries.push({ hash, label: image.label?.trim() || null });
  }
  return addEntries(db, projectId, idOrKey, entries, imageHashes);
}

/** Adds the hash of one image sent as the raw request body. */
export async function addImageBytes(db: Database, projectId: string, idOrKey: string, bytes: Buffer, label: string | undefined, maxPixels?: number) {
  await findRow(db, projectId, idOrKey);
  const hash = await hashImageBytes(bytes, '/body', maxPixels);
  return addEntries(db, projectId, idOrKey, [{ hash, label: label?.trim() || null }], [hash]);
}

async function addEntries(db: Database, projectId: string, idOrKey: string, entries: HashEntryInput[], imageHashes: string[]) {
  const result = await db.transaction(async (tx) => {
    const row = await findRow(tx, projectId, idOrKey, true);
    const before = await countHashes(tx, row.id);
    if (before + entries.length > MAX_HASHES_PER_LIST) {
      const { rows } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM image_hash_list_entries WHERE list_id = $1 AND hash = ANY($2::text[])',
        [row.id, entries.map((e) => e.hash)],
      );
      const after = before + entries.length - rows[0]!.n;
      if (after > MAX_HASHES_PER_LIST) throw tooManyHashes(after);
    }
    const added = await insertEntries(tx, row.id, entries);
    if (added.length > 0) {
      await tx.query('UPDATE image_hash_lists SET version = version + 1, updated_at = $2 WHERE id = $1', [row.id, Date.now()]);
      await announceChange(tx, 'image_hash_lists', projectId);
    }
    return { addedCount: added.length, addedHashes: added, imageHashes, totalCount: before + added.length };
  });
  forgetLoadedImageHashLists(projectId);
  return result;
}

export async function removeImageHashes(db: Database, projectId: string, idOrKey: string, raw: readonly string[]) {
  const hashes = normalizeHashEntries(raw).map((e) => e.hash);
  const result = await db.transaction(async (tx) => {
    const row = await findRow(tx, projectId, idOrKey, true);
    const { rows } = await tx.query<{ hash: string }>(
      'DELETE FROM image_hash_list_entries WHERE list_id = $1 AND hash = ANY($2::text[]) RETURNING hash',
      [row.id, hashes],
    );
    const removed = rows.map((r) => r.hash);
    if (removed.length > 0) {
      await tx.query('UPDATE image_hash_lists SET version = version + 1, updated_at = $2 WHERE id = $1', [row.id, Date.now()]);
      await announceChange(tx, 'image_hash_lists', projectId);
    }
    return { removedCount: removed.length, removedHashes: removed, totalCount: await countHashes(tx, row.id) };
  });
  forgetLoadedImageHashLists(projectId);
  return result;
}

export async function listImageHashes(db: Queryable, projectId: string, idOrKey: string, options: { limit?: number; after?: string }) {
  const row = await findRow(db, projectId, idOrKey);
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
  const { rows } = await db.query<{ hash: string; label: string | null; created_at: number }>(
    'SELECT hash, label, created_at FROM image_hash_list_entries WHERE list_id = $1 AND hash > $2 ORDER BY hash LIMIT $3',
    [row.id, options.after?.trim().toLowerCase() ?? '', limit + 1],
  );
  const page = rows.slice(0, limit);
  return {
    hashes: page.map((r) => ({ hash: r.hash, label: r.label, createdAt: iso(r.created_at) })),
    totalCount: await countHashes(db, row.id),
    nextAfter: rows.length > limit ? page[page.length - 1]!.hash : null,
  };
}

// ---- matching, for the moderation pipeline ----

export interface ImageHashMatch {
  listId: string;
  listKey: string | null;
  listName: string;
  /** The listed hash that matched. */
  hash: string;
  label: string | null;
  /** Bits that differ, of 128. */
  distance: number;
  threshold: number;
}

export interface ImageHashMatchResult {
  /** Closest first; at most one (the closest entry) per list. */
  matches: ImageHashMatch[];
  /** List refs asked for that this project does not have: the caller reports them, never silently skips. */
  missingLists: string[];
}

interface LoadedList {
  id: string;
  key: string | null;
  name: string;
  threshold: number;
  version: number;
  hashes: string[];
  labels: Array<string | null>;
  /** Four 32-bit words per entry. */
  words: Uint32Array;
  half: Uint8Array;
}

interface LoadedProject {
  lists: LoadedList[];
  checkedAt: number;
}

/** As for wordlists: another node's edits drop this node's copy at once (PostgreSQL NOTIFY), or within this time. */
const RECHECK_AFTER_MS = 5_000;
const MAX_CACHED_PROJECTS = 1_000;

const loaded = new Map<string, LoadedProject>();
const loading = new Map<string, Promise<LoadedProject>>();
const generations = new Map<string, number>();
let everyProjectGeneration = 0;
const generationOf = (projectId: string) => everyProjectGeneration + (generations.get(projectId) ?? 0);

/** Drops this node's loaded lists of a project (null: of every project) after a change here or elsewhere. */
export function forgetLoadedImageHashLists(projectId: string | null): void {
  if (projectId === null) {
    everyProjectGeneration++;
    loaded.clear();
    loading.clear();
    return;
  }
  generations.set(projectId, (generations.get(projectId) ?? 0) + 1);
  loaded.delete(projectId);
  loading.delete(projectId);
}

type ListHead = { id: string; key: string | null; name: string; threshold: number; version: number };

async function loadList(db: Queryable, row: ListHead): Promise<LoadedList> {
  const { rows } = await db.query<{ hash: string; label: string | null }>('SELECT hash, label FROM image_hash_list_entries WHERE list_id = $1', [row.id]);
  const words = new Uint32Array(rows.length * 4);
  const half = new Uint8Array(rows.length);
  rows.forEach((entry, index) => {
    words.set(hashWords(entry.hash), index * 4);
    half[index] = entry.hash.length === HALF_HASH_HEX_LENGTH ? 1 : 0;
  });
  return { ...row, version: Number(row.version), hashes: rows.map((r) => r.hash), labels: rows.map((r) => r.label), words, half };
}

async function loadProject(db: Queryable, projectId: string, previous: LoadedProject | undefined): Promise<LoadedProject> {
  const { rows } = await db.query<ListHead>(
    'SELECT id, key, name, threshold, version FROM image_hash_lists WHERE project_id = $1 ORDER BY id',
    [projectId],
  );
  const lists: LoadedList[] = [];
  for (const row of rows) {
    const kept = previous?.lists.find((list) => list.id === row.id && list.version === Number(row.version));
    lists.push(kept ? { ...kept, key: row.key, name: row.name, threshold: row.threshold } : await loadList(db, row));
  }
  return { lists, checkedAt: Date.now() };
}

async function projectLists(db: Queryable, projectId: string): Promise<LoadedProject> {
  const cached = loaded.get(projectId);
  if (cached && Date.now() - cached.checkedAt < RECHECK_AFTER_MS) return cached;
  const generation = generationOf(projectId);
  let pending = loading.get(projectId);
  if (!pending) {
    pending = loadProject(db, projectId, cached).finally(() => {
      if (loading.get(projectId) === pending) loading.delete(projectId);
    });
    loading.set(projectId, pending);
  }
  const result = await pending;
  if (generationOf(projectId) === generation) {
    if (loaded.size >= MAX_CACHED_PROJECTS && !loaded.has(projectId)) loaded.clear();
    loaded.set(projectId, result);
  }
  return result;
}

/**
 * Which of a project's image hash lists hold a picture within their threshold of `hash` (as
 * `computeImageHash` returns it). `lists` names lists by id or key, or 'all'. Entries are held
 * in memory per project and scanned linearly: 100k entries take about a millisecond.
 */
export async function matchImageHashes(db: Queryable, projectId: string, lists: readonly string[] | 'all', hash: string): Promise<ImageHashMatchResult> {
  const normalized = normalizeImageHash(hash);
  if (normalized === null) throw new Error(`Not an image hash: "${hash.slice(0, 40)}"`);
  const project = await projectLists(db, projectId);
  let chosen: LoadedList[];
  const missingLists: string[] = [];
  if (lists === 'all') chosen = project.lists;
  else {
    const byRef = new Map<string, LoadedList>();
    for (const ref of lists) {
      const list = project.lists.find((l) => l.id === ref) ?? project.lists.find((l) => l.key === ref);
      if (list) byRef.set(list.id, list);
      else missingLists.push(ref);
    }
    chosen = [...byRef.values()];
  }
  const probe = hashWords(normalized);
  const probeHalf = normalized.length === HALF_HASH_HEX_LENGTH;
  const matches: ImageHashMatch[] = [];
  for (const list of chosen) {
    let best = -1;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (let i = 0; i < list.hashes.length; i++) {
      const distance = wordsDistance(probe, probeHalf, list.words, i * 4, list.half[i] === 1);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    }
    if (best >= 0 && bestDistance <= list.threshold) {
      matches.push({ listId: list.id, listKey: list.key, listName: list.name, hash: list.hashes[best]!, label: list.labels[best]!, distance: bestDistance, threshold: list.threshold });
    }
  }
  matches.sort((a, b) => a.distance - b.distance || a.listId.localeCompare(b.listId));
  return { matches, missingLists };
}
