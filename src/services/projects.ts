import type { Database, Queryable } from '../db/database.ts';
import { newId } from '../lib/ids.ts';
import { notFound } from '../errors.ts';
import { createApiKey } from './api-keys.ts';
import { createDefaultChannel } from './channels.ts';

export interface Project {
  id: string;
  name: string;
  createdAt: number;
}

/** A project with its default channel and a first API key, in one transaction. */
export async function createProject(db: Database, name: string, explicitKey?: string): Promise<{ project: Project; apiKey: string }> {
  return db.transaction((tx) => insertProject(tx, name, explicitKey));
}

async function insertProject(tx: Queryable, name: string, explicitKey?: string): Promise<{ project: Project; apiKey: string }> {
  {
    const project: Project = { id: newId('proj'), name, createdAt: Date.now() };
    await tx.query('INSERT INTO projects (id, name, created_at) VALUES ($1, $2, $3)', [project.id, project.name, project.createdAt]);
    await createDefaultChannel(tx, project.id);
    const { key } = await createApiKey(tx, project.id, 'initial key', explicitKey);
    return { project, apiKey: key };
  }
}

export async function countProjects(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM projects');
  return rows[0]!.n;
}

export async function firstProject(db: Database): Promise<Project | null> {
  const { rows } = await db.query<{ id: string; name: string; created_at: number }>(
    'SELECT id, name, created_at FROM projects ORDER BY created_at, id LIMIT 1',
  );
  return rows[0] ? { id: rows[0].id, name: rows[0].name, createdAt: rows[0].created_at } : null;
}

/**
 * First start on an empty store: one project, its default channel and a key
 * (BOOTSTRAP_API_KEY when set). Returns null when the store already has data.
 */
export async function bootstrap(db: Database, explicitKey: string | null): Promise<{ project: Project; apiKey: string } | null> {
  return db.transaction(async (tx) => {
    // Nodes starting together on one empty PostgreSQL create one project, not several.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
    const { rows } = await tx.query<{ n: number }>('SELECT count(*) AS n FROM projects');
    if (rows[0]!.n > 0) return null;
    return insertProject(tx, 'Default project', explicitKey ?? undefined);
  });
}

const BOOTSTRAP_LOCK_KEY = 4_815_162_343;

export async function getProject(db: Queryable, projectId: string): Promise<Project> {
  const { rows } = await db.query<{ id: string; name: string; created_at: number }>('SELECT id, name, created_at FROM projects WHERE id = $1', [projectId]);
  if (!rows[0]) throw notFound(`Project "${projectId}"`);
  return { id: rows[0].id, name: rows[0].name, createdAt: rows[0].created_at };
}
