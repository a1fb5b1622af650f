import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { decoyHash, verifyPassword } from '../../lib/passwords.ts';
import { findUserByEmail, normalizeEmail, type DashboardUser } from './users.ts';

/**
 * Dashboard sessions: an opaque random token in an HttpOnly cookie, stored as its SHA-256 only.
 * A session ends when idle too long, at its absolute end, at sign-out, or when its user's
 * password changes. The CSRF token is derived from the session token, so a page that holds the
 * session (and only such a page) can send it in `x-csrf-token`.
 */

export const SESSION_COOKIE = 'om_session';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
  /** Failed sign-ins per account within `throttleWindowMs` before sign-in is refused. */
  maxFailures: number;
  throttleWindowMs: number;
}

export interface Session {
  id: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  /** When the session ends unless used before: min(last use + idle, absolute end). */
  idleExpiresAt: number;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const csrfTokenFor = (sessionToken: string) => createHash('sha256').update(`csrf\u0000${sessionToken}`).digest('base64url');

export function csrfMatches(sessionToken: string, presented: string | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Seconds until sign-in is allowed again for this email, or 0. */
export async function throttledFor(db: Queryable, email: string, policy: SessionPolicy, now = Date.now()): Promise<number> {
  const { rows } = await db.query<{ n: number; oldest: number | null }>(
    `SELECT count(*) AS n, min(failed_at) AS oldest FROM (
       SELECT failed_at FROM dashboard_login_failures WHERE email = $1 AND failed_at > $2 ORDER BY failed_at DESC LIMIT $3) recent`,
    [normalizeEmail(email), now - policy.throttleWindowMs, policy.maxFailures],
  );
  const { n, oldest } = rows[0]!;
  if (Number(n) < policy.maxFailures || oldest === null) return 0;
  return Math.max(1, Math.ceil((Number(oldest) + policy.throttleWindowMs - now) / 1000));
}

export interface SignedIn {
  token: string;
  session: Session;
  user: DashboardUser;
}

/**
 * Checks the password and opens a session. Wrong email and wrong password fail alike (same
 * message, same work); each failure counts against the email tried, and the account is refused
 * for the rest of the window once it reaches the limit, right password or not.
 */
export async function signIn(
  db: Queryable,
  credentials: { email: string; password: string },
  policy: SessionPolicy,
  client: { userAgent: string | null; ip: string | null },
): Promise<SignedIn> {
  const email = normalizeEmail(credentials.email);
  const now = Date.now();
  const wait = await throttledFor(db, email, policy, now);
  if (wait > 0) throw tooManyAttempts(policy, wait);
  const user = await findUserByEmail(db, email);
  const valid = await verifyPassword(credentials.password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !valid) {
    await db.query('INSERT INTO dashboard_login_failures (email, failed_at) VALUES ($1, $2)', [email, now]);
    // Old failures are of no further use.
    await db.query('DELETE FROM dashboard_login_failures WHERE email = $1 AND failed_at <= $2', [email, now - policy.throttleWindowMs]);
    const waitNow = await throttledFor(db, email, policy, now);
    if (waitNow > 0) throw tooManyAttempts(policy, waitNow);
    throw new ApiError('UNAUTHORIZED', 'Wrong email or password');
  }
  await db.query('DELETE FROM dashboard_login_failures WHERE email = $1', [email]);
  // Ended sessions are of no further use; a day's grace keeps them for a look after an incident.
  await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1 AND (expires_at < $2 OR revoked_at < $2)', [user.id, now - 86_400_000]);
  const token = randomBytes(32).toString('base64url');
  const session: Session = {
    id: newId('ses'),
    userId: user.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + policy.absoluteMs,
    idleExpiresAt: Math.min(now + policy.idleMs, now + policy.absoluteMs),
  };
  await db.query(
    `INSERT INTO dashboard_sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, user_agent, ip)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7)`,
    [session.id, user.id, sha256(token), now, session.expiresAt, client.userAgent?.slice(0, 500) ?? null, client.ip],
  );
  const { passwordHash: _hash, ...publicUser } = user;
  return { token, session, user: publicUser };
}

function tooManyAttempts(policy: SessionPolicy, waitSeconds: number): ApiError {
  const minutes = Math.round(policy.throttleWindowMs / 60_000);
  return new ApiError(
    'TOO_MANY_REQUESTS',
    `Too many failed sign-ins for this account (${policy.maxFailures} within ${minutes} minutes). Try again in ${Math.ceil(waitSeconds / 60)} minute(s), or ask an admin to reset the password.`,
    [],
    { 'retry-after': String(waitSeconds) },
  );
}

// Writing last_seen_at on every request would cost a write per click; a minute of slack is enough.
const TOUCH_EVERY_MS = 60_000;

/** The live session of a cookie token, or null (unknown, revoked, idle too long, past its end). */
export async function sessionOf(db: Queryable, token: string, policy: SessionPolicy, now = Date.now()): Promise<Session | null> {
  const { rows } = await db.query<{ id: string; user_id: string; created_at: number; last_seen_at: number; expires_at: number }>(
    'SELECT id, user_id, created_at, last_seen_at, expires_at FROM dashboard_sessions WHERE token_hash = $1 AND revoked_at IS NULL',
    [sha256(token)],
  );
  const row = rows[0];
  if (!row) return null;
  const lastSeen = Number(row.last_seen_at);
  const expiresAt = Number(row.expires_at);
  if (now >= expiresAt || now >= lastSeen + policy.idleMs) return null;
  let seen = lastSeen;
  if (now - lastSeen >= TOUCH_EVERY_MS) {
    await db.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id = $1', [row.id, now]);
    seen = now;
  }
  return { id: row.id, userId: row.user_id, createdAt: Number(row.created_at), lastSeenAt: seen, expiresAt, idleExpiresAt: Math.min(seen + policy.idleMs, expiresAt) };
}

export async function revokeSession(db: Queryable, sessionId: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE dashboard_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, Date.now()]);
  return rowCount === 1;
}

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

export function sessionCookie(token: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${options.maxAgeSeconds}${options.secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
