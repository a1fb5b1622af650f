import type { Database, Queryable } from '../db/database.ts';
import { announceChange } from '../db/change-notifications.ts';
import { compileWordlist, type CompiledWordlist } from '../core/wordlist/matcher.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import type { CreateWordlistBody, UpdateWordlistBody, WordlistSummary, WordlistView } from '../schemas/wordlists.ts';

/**
 * Wordlists and their words. Words are stored lowercase and de-duplicated (the
 * primary key); the matcher folds case anyway, so "Free" and "free" are one word.
 * Indexing is synchronous: a list is compiled from its words when first used,
 * so there is never pending work for `embedding-status` to report.
 */

interface WordlistRow {
  id: string;
  project_id: string;
  key: string | null;
  name: string | null;
  description: string | null;
  strict: boolean;
  version: number;
  created_at: number;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

const COLUMNS = 'id, project_id, key, name, description, strict, version, created_at';

/** Trims, folds case and collapses inner whitespace; keeps the first of duplicates. */
export function normalizeWords(words: readonly string[], path = '/words'): string[] {
  const seen = new Set<string>();
  const issues: Array<{ message: string; path: string }> = [];
  words.forEach((word, index) => {
    const normalized = word.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
    if (normalized === '') issues.push({ message: 'A word must not be blank', path: `${path}/${index}` });
    else seen.add(normalized);
  });
  if (issues.length > 0) throw badRequest('Invalid words', issues.slice(0, 20));
  return [...seen];
}

const summaryOf = (row: WordlistRow): WordlistSummary => ({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  createdAt: new Date(row.created_at).toISOString(),
  userId: null,
});

async function wordsOf(db: Queryable, wordlistId: string): Promise<string[]> {
  const { rows } = await db.query<{ word: string }>('SELECT word FROM wordlist_words WHERE wordlist_id = $1 ORDER BY word', [wordlistId]);
  return rows.map((r) => r.word);
}

async function countWords(db: Queryable, wordlistId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wordlist_words WHERE wordlist_id = $1', [wordlistId]);
  return rows[0]!.n;
}

async function viewOf(db: Queryable, row: WordlistRow): Promise<WordlistView> {
  const { userId, ...summary } = summaryOf(row);
  return { ...summary, createdAt: summary.createdAt!, organizationId: row.project_id, strict: row.strict, userId, words: await wordsOf(db, row.id) };
}

/** By id, or by key for convenience; another project's list is simply not found. */
async function findRow(db: Queryable, projectId: string, idOrKey: string, lock = false): Promise<WordlistRow> {
  const { rows } = await db.query<WordlistRow>(
    `SELECT ${COLUMNS} FROM wordlists WHERE project_id = $1 AND (id = $2 OR key = $2) ORDER BY (id = $2) DESC LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    [projectId, idOrKey],
  );
  if (!rows[0]) throw notFound(`Wordlist "${idOrKey}"`);
  return rows[0];
}

async function insertWords(db: Queryable, wordlistId: string, words: readonly string[]): Promise<string[]> {
  if (words.length === 0) return [];
  const { rows } = await db.query<{ word: string }>(
    'INSERT INTO wordlist_words (wordlist_id, word) SELECT $1, w FROM unnest($2::text[]) AS w ON CONFLICT DO NOTHING RETURNING word',
    [wordlistId, words],
  );
  return rows.map((r) => r.word);
}

async function touch(db: Queryable, wordlistId: string): Promise<void> {
  await db.query('UPDATE wordlists SET version = version + 1, updated_at = $2 WHERE id = $1', [wordlistId, Date.now()]);
}

function keyConflict(key: string | undefined) {
  return conflict(`A wordlist with key "${key}" already exists`, [{ message: 'duplicate key', path: '/key' }]);
}

export async function listWordlists(db: Queryable, projectId: string): Promise<WordlistSummary[]> {
  const { rows } = await db.query<WordlistRow>(`SELECT ${COLUMNS} FROM wordlists WHERE project_id = $1 ORDER BY id`, [projectId]);
  return rows.map(summaryOf);
}

export async function getWordlist(db: Queryable, projectId: string, idOrKey: string): Promise<WordlistView> {
  return viewOf(db, await findRow(db, projectId, idOrKey));
}

export async function createWordlist(db: Database, projectId: string, body: CreateWordlistBody): Promise<WordlistView> {
  const words = normalizeWords(body.words ?? []);
  const now = Date.now();
  try {
    const row = await db.transaction(async (tx) => {
      const { rows } = await tx.query<WordlistRow>(
        `INSERT INTO wordlists (id, project_id, key, name, description, strict, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${COLUMNS}`,
        [newId('wl'), projectId, body.key ?? null, body.name, body.description ?? null, body.strict ?? false, now],
      );
      await insertWords(tx, rows[0]!.id, words);
      await announceChange(tx, 'wordlists', projectId);
      return rows[0]!;
    });
    forgetCompiledWordlists(projectId);
    return await viewOf(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw keyConflict(body.key);
    throw error;
  }
}

export async function updateWordlist(db: Database, projectId: string, idOrKey: string, body: UpdateWordlistBody): Promise<WordlistView> {
  const words = body.words === undefined ? undefined : normalizeWords(body.words);
  try {
    const row = await db.transaction(async (tx) => {
      const current = await findRow(tx, projectId, idOrKey, true);
      const { rows } = await tx.query<WordlistRow>(
        `UPDATE wordlists SET key = $2, name = $3, description = $4, strict = $5, version = version + 1, updated_at = $6
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [
          current.id,
          body.key ?? current.key,
          body.name ?? current.name,
          body.description ?? current.description,
          body.strict ?? current.strict,
          Date.now(),
        ],
      );
      if (words !== undefined) {
        await tx.query('DELETE FROM wordlist_words WHERE wordlist_id = $1', [current.id]);
        await insertWords(tx, current.id, words);
      }
      await announceChange(tx, 'wordlists', projectId);
      return rows[0]!;
    });
    forgetCompiledWordlists(projectId);
    return await viewOf(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw keyConflict(body.key);
    throw error;
  }
}

export async function deleteWordlist(db: Database, projectId: string, idOrKey: string): Promise<WordlistView> {
  const view = await db.transaction(async (tx) => {
    const row = await findRow(tx, projectId, idOrKey, true);
    const deleted = await viewOf(tx, row);
    await tx.query('DELETE FROM wordlists WHERE id = $1 AND project_id = $2', [row.id, projectId]);
    await announceChange(tx, 'wordlists', projectId);
    return deleted;
  });
  forgetCompiledWordlists(projectId);
  return view;
}

/**
 * Adds or removes words of one list: the list row is locked, its version moves only when
 * something changed, and this node's compiled matchers are dropped afterwards.
 */
async function changeWords<T>(
  db: Database,
  projectId: string,
  idOrKey: string,
  change: (tx: Queryable, wordlistId: string) => Promise<{ changed: string[]; report: (totalCount: number) => T }>,
): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const row = await findRow(tx, projectId, idOrKey, true);
    const { changed, report } = await change(tx, row.id);
    if (changed.length > 0) {
      await touch(tx, row.id);
      await announceChange(tx, 'wordlists', projectId);
    }
    return report(await countWords(tx, row.id));
  });
  forgetCompiledWordlists(projectId);
  return result;
}

export function addWords(db: Database, projectId: string, idOrKey: string, raw: readonly string[]) {
  const words = normalizeWords(raw);
  return changeWords(db, projectId, idOrKey, async (tx, wordlistId) => {
    const added = await insertWords(tx, wordlistId, words);
    return { changed: added, report: (totalCount) => ({ addedCount: added.length, addedWords: added, totalCount }) };
  });
}

export function removeWords(db: Database, projectId: string, idOrKey: string, raw: readonly string[]) {
  const words = normalizeWords(raw);
  return changeWords(db, projectId, idOrKey, async (tx, wordlistId) => {
    const { rows } = await tx.query<{ word: string }>('DELETE FROM wordlist_words WHERE wordlist_id = $1 AND word = ANY($2::text[]) RETURNING word', [
      wordlistId,
      words,
    ]);
    const removed = rows.map((r) => r.word);
    return { changed: removed, report: (totalCount) => ({ removedCount: removed.length, removedWords: removed, totalCount }) };
  });
}

export interface WordlistOverview extends WordlistSummary {
  wordCount: number;
  updatedAt: number;
}

/** Every list with its number of words (the dashboard's list page: no words shipped). */
export async function listWordlistOverviews(db: Queryable, projectId: string): Promise<WordlistOverview[]> {
  const { rows } = await db.query<WordlistRow & { updated_at: number; word_count: number }>(
    `SELECT ${COLUMNS.split(', ').map((c) => `w.${c}`).join(', ')}, w.updated_at,
       (SELECT count(*)::int FROM wordlist_words ww WHERE ww.wordlist_id = w.id) AS word_count
     FROM wordlists w WHERE w.project_id = $1 ORDER BY w.id`,
    [projectId],
  );
  return rows.map((r) => ({ ...summaryOf(r), wordCount: Number(r.word_count), updatedAt: Number(r.updated_at) }));
}

export interface WordSearch {
  /** Words containing this text (case folded as stored words are); empty: every word. */
  contains: string;
  /** Keyset paging: words after this one, in order. */
  after?: string;
  limit: number;
}

/**
 * One page of a list's words, searched on the server: a list may hold 200k words, and the
 * dashboard shows a page at a time. `matching` counts every word the search selects.
 */
export async function searchWords(db: Queryable, projectId: string, idOrKey: string, search: WordSearch) {
  const row = await findRow(db, projectId, idOrKey);
  const needle = search.contains.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
  const params: unknown[] = [row.id];
  const where = ['wordlist_id = $1'];
  if (needle !== '') where.push(`strpos(word, $${params.push(needle)}) > 0`);
  const { rows: counted } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM wordlist_words WHERE ${where.join(' AND ')}`, params);
  if (search.after !== undefined) where.push(`word > $${params.push(search.after)}`);
  const { rows } = await db.query<{ word: string }>(
    `SELECT word FROM wordlist_words WHERE ${where.join(' AND ')} ORDER BY word LIMIT $${params.push(search.limit + 1)}`,
    params,
  );
  const words = rows.slice(0, search.limit).map((r) => r.word);
  return { words, matching: Number(counted[0]!.n), totalWords: await countWords(db, row.id), nextAfter: rows.length > search.limit ? words[words.length - 1]! : null };
}

/** Every word of a list, in order (CSV export). */
export async function allWords(db: Queryable, projectId: string, idOrKey: string): Promise<{ key: string | null; id: string; words: string[] }> {
  const row = await findRow(db, projectId, idOrKey);
  return { id: row.id, key: row.key, words: await wordsOf(db, row.id) };
}

/** Words are compiled when written or first used, never queued: the status is complete with real counts. */
export async function embeddingStatus(db: Queryable, projectId: string, idOrKey: string) {
  const row = await findRow(db, projectId, idOrKey);
  const totalWords = await countWords(db, row.id);
  return { progress: 100, remainingWords: 0, totalWords };
}

// ---- compiled matchers for the /v1/moderate hot path ----

/**
 * On PostgreSQL another node's edits are announced and this node's matchers dropped at once
 * (db/change-notifications.ts); without that (LISTEN connection down) they reach it within this time. Past it, a cheap
 * version query decides whether the compiled matcher can be kept: a 100k-word
 * list costs ~400 ms to compile, so it is recompiled only when it changed.
 */
const RECHECK_AFTER_MS = 5_000;
const MAX_CACHED_LISTS = 1_000;

interface CachedMatcher {
  id: string;
  version: number;
  matcher: CompiledWordlist;
  checkedAt: number;
}

const compiled = new Map<string, CachedMatcher>();
// Bumped by every drop, so a load that started before a change never caches its stale result.
const generations = new Map<string, number>();
let everyProjectGeneration = 0;
const loading = new Map<string, Promise<CachedMatcher | null>>();

const cacheKey = (projectId: string, ref: string) => `${projectId}\u0000${ref}`;

const generationOf = (projectId: string) => everyProjectGeneration + (generations.get(projectId) ?? 0);

/** Drops the compiled matchers of a project (null: of every project) after a change here or on another node. */
export function forgetCompiledWordlists(projectId: string | null): void {
  if (projectId === null) {
    everyProjectGeneration++;
    compiled.clear();
    loading.clear();
    return;
  }
  generations.set(projectId, (generations.get(projectId) ?? 0) + 1);
  const prefix = `${projectId}\u0000`;
  for (const key of compiled.keys()) if (key.startsWith(prefix)) compiled.delete(key);
  for (const key of loading.keys()) if (key.startsWith(prefix)) loading.delete(key);
}

async function loadMatcher(db: Queryable, projectId: string, ref: string, cached: CachedMatcher | undefined): Promise<CachedMatcher | null> {
  const { rows } = await db.query<{ id: string; version: number }>(
    'SELECT id, version FROM wordlists WHERE project_id = $1 AND (id = $2 OR key = $2) ORDER BY (id = $2) DESC LIMIT 1',
    [projectId, ref],
  );
  const row = rows[0];
  if (!row) return null;
  if (cached && cached.id === row.id && cached.version === row.version) return { ...cached, checkedAt: Date.now() };
  const words = await wordsOf(db, row.id);
  return { id: row.id, version: row.version, matcher: compileWordlist(words), checkedAt: Date.now() };
}

/**
 * The compiled matcher of a project's wordlist (`ref` is its key or id), or
 * null when the project has no such list. Served from memory; the store is
 * asked at most once per list every few seconds, and concurrent misses share
 * one load.
 */
export async function compiledWordlist(db: Queryable, projectId: string, ref: string): Promise<CompiledWordlist | null> {
  const key = cacheKey(projectId, ref);
  const cached = compiled.get(key);
  if (cached && Date.now() - cached.checkedAt < RECHECK_AFTER_MS) return cached.matcher;
  const generation = generationOf(projectId);
  let pending = loading.get(key);
  if (!pending) {
    pending = loadMatcher(db, projectId, ref, cached).finally(() => {
      if (loading.get(key) === pending) loading.delete(key);
    });
    loading.set(key, pending);
  }
  const loaded = await pending;
  if (!loaded) {
    compiled.delete(key);
    return null;
  }
  if (generationOf(projectId) !== generation) return loaded.matcher;
  if (compiled.size >= MAX_CACHED_LISTS && !compiled.has(key)) compiled.clear();
  compiled.set(key, loaded);
  return loaded.matcher;
}
