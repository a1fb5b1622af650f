import type { Database, Queryable } from '../../db/database.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { generatePassword, hashPassword, passwordProblem } from '../../lib/passwords.ts';
import { isRole, type Role } from '../../core/roles.ts';
import { isUniqueViolation } from '../channels.ts';

/** Dashboard users and their memberships (role per project). */

export interface DashboardUser {
  id: string;
  email: string;
  name: string;
  mustChangePassword: boolean;
  createdAt: number;
}

export interface Membership {
  projectId: string;
  projectName: string;
  role: Role;
  /** Moderators limited to some queues; null: every queue. */
  queueIds: string[] | null;
}

export interface Member extends DashboardUser {
  role: Role;
  queueIds: string[] | null;
  memberSince: number;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkEmail(email: string, path = '/email'): string {
  const normalized = normalizeEmail(email);
  if (!EMAIL.test(normalized) || normalized.length > 320) throw badRequest('Invalid email address', [{ message: 'expected name@domain', path }]);
  return normalized;
}

export function checkPassword(password: string, path = '/password'): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(problem, [{ message: problem, path }]);
}

function checkRole(role: string, path = '/role'): Role {
  if (!isRole(role)) throw badRequest(`Unknown role "${role}": use admin, developer or moderator`, [{ message: 'unknown role', path }]);
  return role;
}

const toUser = (r: Record<string, unknown>): DashboardUser => ({
  id: r.id as string,
  email: r.email as string,
  name: r.name as string,
  mustChangePassword: r.must_change_password as boolean,
  createdAt: r.created_at as number,
});

export async function countUsers(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM dashboard_users');
  return Number(rows[0]!.n);
}

export async function findUserByEmail(db: Queryable, email: string): Promise<(DashboardUser & { passwordHash: string }) | null> {
  const { rows } = await db.query('SELECT * FROM dashboard_users WHERE email = $1', [normalizeEmail(email)]);
  return rows[0] ? { ...toUser(rows[0]), passwordHash: rows[0].password_hash as string } : null;
}

export async function getUser(db: Queryable, userId: string): Promise<DashboardUser> {
  const { rows } = await db.query('SELECT * FROM dashboard_users WHERE id = $1', [userId]);
  if (!rows[0]) throw notFound(`User "${userId}"`);
  return toUser(rows[0]);
}

/** A user by id or email. */
export async function findUser(db: Queryable, idOrEmail: string): Promise<DashboardUser | null> {
  const { rows } = await db.query('SELECT * FROM dashboard_users WHERE id = $1 OR email = $2', [idOrEmail, normalizeEmail(idOrEmail)]);
  return rows[0] ? toUser(rows[0]) : null;
}

export interface NewUser {
  email: string;
  name?: string;
  /** Omitted: a one-time password is generated, returned once, and must be changed at first sign-in. */
  password?: string;
}

/** Creates a user; returns the one-time password when one was generated. */
export async function createUser(db: Queryable, input: NewUser): Promise<{ user: DashboardUser; oneTimePassword: string | null }> {
  const email = checkEmail(input.email);
  if (input.password !== undefined) checkPassword(input.password);
  const oneTimePassword = input.password === undefined ? generatePassword() : null;
  const hash = await hashPassword(input.password ?? oneTimePassword!);
  const now = Date.now();
  try {
    const { rows } = await db.query(
      `INSERT INTO dashboard_users (id, email, name, password_hash, must_change_password, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
      [newId('usr'), email, (input.name ?? '').trim(), hash, oneTimePassword !== null, now],
    );
    return { user: toUser(rows[0]!), oneTimePassword };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A user with email "${email}" already exists`, [{ message: 'duplicate email', path: '/email' }]);
    throw error;
  }
}

/** Sets a password; every session of the user except `keepSessionId` ends. */
export async function setPassword(db: Database, userId: string, password: string, options: { oneTime: boolean; keepSessionId?: string }): Promise<void> {
  checkPassword(password, '/newPassword');
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const { rowCount } = await tx.query('UPDATE dashboard_users SET password_hash = $2, must_change_password = $3, updated_at = $4 WHERE id = $1', [
      userId,
      hash,
      options.oneTime,
      Date.now(),
    ]);
    if (rowCount !== 1) throw notFound(`User "${userId}"`);
    await tx.query('UPDATE dashboard_sessions SET revoked_at = $3 WHERE user_id = $1 AND revoked_at IS NULL AND id IS DISTINCT FROM $2', [
      userId,
      options.keepSessionId ?? null,
      Date.now(),
    ]);
  });
}

/** A new one-time password for the user; all their sessions end. */
export async function resetPassword(db: Database, idOrEmail: string): Promise<{ user: DashboardUser; oneTimePassword: string }> {
  const user = await findUser(db, idOrEmail);
  if (!user) throw notFound(`User "${idOrEmail}"`);
  const oneTimePassword = generatePassword();
  await setPassword(db, user.id, oneTimePassword, { oneTime: true });
  return { user: { ...user, mustChangePassword: true }, oneTimePassword };
}

export async function membershipsOf(db: Queryable, userId: string): Promise<Membership[]> {
  const { rows } = await db.query(
    `SELECT m.project_id, p.name AS project_name, m.role, m.queue_ids FROM dashboard_memberships m JOIN projects p ON p.id = m.project_id
     WHERE m.user_id = $1 ORDER BY p.created_at, p.id`,
    [userId],
  );
  return rows.map((r) => ({
    projectId: r.project_id as string,
    projectName: r.project_name as string,
    role: r.role as Role,
    queueIds: (r.queue_ids as string[] | null) ?? null,
  }));
}

export async function membership(db: Queryable, userId: string, projectId: string): Promise<Membership | null> {
  const { rows } = await db.query(
    `SELECT m.project_id, p.name AS project_name, m.role, m.queue_ids FROM dashboard_memberships m JOIN projects p ON p.id = m.project_id
     WHERE m.user_id = $1 AND m.project_id = $2`,
    [userId, projectId],
  );
  const r = rows[0];
  return r ? { projectId: r.project_id as string, projectName: r.project_name as string, role: r.role as Role, queueIds: (r.queue_ids as string[] | null) ?? null } : null;
}

export async function listMembers(db: Queryable, projectId: string): Promise<Member[]> {
  const { rows } = await db.query(
    `SELECT u.*, m.role, m.queue_ids, m.created_at AS member_since FROM dashboard_memberships m JOIN dashboard_users u ON u.id = m.user_id
     WHERE m.project_id = $1 ORDER BY u.email`,
    [projectId],
  );
  return rows.map((r) => ({ ...toUser(r), role: r.role as Role, queueIds: (r.queue_ids as string[] | null) ?? null, memberSince: r.member_since as number }));
}

async function checkQueues(db: Queryable, projectId: string, queueIds: readonly string[] | null | undefined): Promise<void> {
  if (!queueIds || queueIds.length === 0) return;
  const { rows } = await db.query<{ id: string }>('SELECT id FROM queues WHERE project_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))', [
    projectId,
    JSON.stringify(queueIds),
  ]);
  const known = new Set(rows.map((r) => r.id));
  const index = queueIds.findIndex((id) => !known.has(id));
  if (index >= 0) throw badRequest(`Queue "${queueIds[index]}" not found`, [{ message: 'unknown queue', path: `/queueIds/${index}` }]);
}

/** Adds or replaces a membership (role and queue limit). */
export async function setMembership(db: Database, userId: string, projectId: string, role: string, queueIds?: string[] | null): Promise<Member> {
  const checked = checkRole(role);
  await checkQueues(db, projectId, queueIds);
  // Only moderators are limited to queues.
  const limit = checked === 'moderator' && queueIds ? JSON.stringify([...new Set(queueIds)]) : null;
  return db.transaction(async (tx) => {
    await lockProjectMembers(tx, projectId);
    const current = await membership(tx, userId, projectId);
    if (current?.role === 'admin' && checked !== 'admin') await refuseLastAdmin(tx, projectId, 'change the role of');
    const now = Date.now();
    await tx.query(
      `INSERT INTO dashboard_memberships (user_id, project_id, role, queue_ids, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (user_id, project_id) DO UPDATE SET role = EXCLUDED.role, queue_ids = EXCLUDED.queue_ids, updated_at = EXCLUDED.updated_at`,
      [userId, projectId, checked, limit, now],
    );
    const member = (await listMembers(tx, projectId)).find((m) => m.id === userId);
    if (!member) throw notFound(`User "${userId}"`);
    return member;
  });
}

export async function removeMembership(db: Database, userId: string, projectId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockProjectMembers(tx, projectId);
    const current = await membership(tx, userId, projectId);
    if (!current) throw notFound(`Member "${userId}"`);
    if (current.role === 'admin') await refuseLastAdmin(tx, projectId, 'remove');
    await tx.query('DELETE FROM dashboard_memberships WHERE user_id = $1 AND project_id = $2', [userId, projectId]);
  });
}

/** Deletes a user (sessions and memberships go with them), unless they are the last admin of a project. */
export async function deleteUser(db: Database, idOrEmail: string): Promise<DashboardUser> {
  return db.transaction(async (tx) => {
    const user = await findUser(tx, idOrEmail);
    if (!user) throw notFound(`User "${idOrEmail}"`);
    for (const m of await membershipsOf(tx, user.id)) {
      await lockProjectMembers(tx, m.projectId);
      if (m.role === 'admin') await refuseLastAdmin(tx, m.projectId, 'delete');
    }
    const { rowCount } = await tx.query('DELETE FROM dashboard_users WHERE id = $1', [user.id]);
    if (rowCount !== 1) throw notFound(`User "${idOrEmail}"`);
    return user;
  });
}

// Two admins demoting each other at once must not leave a project without an admin.
async function lockProjectMembers(tx: Queryable, projectId: string): Promise<void> {
  await tx.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
}

async function refuseLastAdmin(tx: Queryable, projectId: string, verb: string): Promise<void> {
  const { rows } = await tx.query<{ n: number }>("SELECT count(*) AS n FROM dashboard_memberships WHERE project_id = $1 AND role = 'admin'", [projectId]);
  if (Number(rows[0]!.n) <= 1) throw conflict(`Cannot ${verb} the last admin of the project: make another member admin first`);
}

export async function renameUser(db: Queryable, userId: string, name: string): Promise<void> {
  await db.query('UPDATE dashboard_users SET name = $2, updated_at = $3 WHERE id = $1', [userId, name.trim(), Date.now()]);
}

export const BOOTSTRAP_ADMIN_DEFAULT_EMAIL = 'admin@localhost';
const BOOTSTRAP_ADMIN_LOCK_KEY = 4_815_162_344;

/**
 * First start: when no dashboard user exists, an admin of the first project. The password is
 * the configured one, or a generated one-time password returned here to be printed once.
 */
export async function bootstrapAdmin(
  db: Database,
  options: { email: string | null; password: string | null },
): Promise<{ email: string; oneTimePassword: string | null; projectId: string } | null> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_ADMIN_LOCK_KEY]);
    if ((await countUsers(tx)) > 0) return null;
    const { rows } = await tx.query<{ id: string }>('SELECT id FROM projects ORDER BY created_at, id LIMIT 1');
    if (!rows[0]) return null;
    const { user, oneTimePassword } = await createUser(tx, {
      email: options.email ?? BOOTSTRAP_ADMIN_DEFAULT_EMAIL,
      name: 'Admin',
      ...(options.password !== null ? { password: options.password } : {}),
    });
    const now = Date.now();
    await tx.query(
      "INSERT INTO dashboard_memberships (user_id, project_id, role, queue_ids, created_at, updated_at) VALUES ($1, $2, 'admin', NULL, $3, $3)",
      [user.id, rows[0].id, now],
    );
    return { email: user.email, oneTimePassword, projectId: rows[0].id };
  });
}
