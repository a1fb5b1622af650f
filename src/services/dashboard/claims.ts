import type { Queryable } from '../../db/database.ts';
import { conflict } from '../../errors.ts';

/**
 * "Being reviewed by": a moderator who opens an item claims it for a short while and renews
 * the claim while the item stays open, so a second moderator sees who is on it. A claim only
 * informs; it never blocks acting on the item.
 */

export const CLAIM_TTL_MS = 120_000;

export interface Claim {
  userId: string;
  email: string;
  name: string;
  mine: boolean;
  claimedAt: number;
  expiresAt: number;
}

const toClaim = (r: Record<string, unknown>, viewerId: string): Claim => ({
  userId: r.user_id as string,
  email: r.email as string,
  name: r.name as string,
  mine: r.user_id === viewerId,
  claimedAt: Number(r.claimed_at),
  expiresAt: Number(r.expires_at),
});

/** Live claims of the given items (internal ids), by item. */
export async function claimsFor(db: Queryable, projectId: string, contentIds: readonly string[], viewerId: string, now = Date.now()): Promise<Map<string, Claim>> {
  const claims = new Map<string, Claim>();
  if (contentIds.length === 0) return claims;
  const { rows } = await db.query(
    `SELECT c.content_id, c.user_id, c.claimed_at, c.expires_at, u.email, u.name FROM dashboard_item_claims c JOIN dashboard_users u ON u.id = c.user_id
     WHERE c.project_id = $1 AND c.content_id IN (SELECT jsonb_array_elements_text($2::jsonb)) AND c.expires_at > $3`,
    [projectId, JSON.stringify(contentIds), now],
  );
  for (const r of rows) claims.set(r.content_id as string, toClaim(r, viewerId));
  return claims;
}

/** Claims or renews; 409 when another user holds a live claim, unless `force` takes it over. */
export async function claimItem(db: Queryable, projectId: string, contentId: string, userId: string, force: boolean, now = Date.now()): Promise<Claim> {
  // Claims long over are dropped as new ones are made, so the table stays the size of the work in progress.
  await db.query('DELETE FROM dashboard_item_claims WHERE project_id = $1 AND expires_at < $2', [projectId, now - 3_600_000]);
  const { rows } = await db.query(
    `INSERT INTO dashboard_item_claims (project_id, content_id, user_id, claimed_at, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project_id, content_id) DO UPDATE
       SET user_id = EXCLUDED.user_id, expires_at = EXCLUDED.expires_at,
           claimed_at = CASE WHEN dashboard_item_claims.user_id = EXCLUDED.user_id AND dashboard_item_claims.expires_at > $4
                             THEN dashboard_item_claims.claimed_at ELSE EXCLUDED.claimed_at END
       WHERE dashboard_item_claims.user_id = EXCLUDED.user_id OR dashboard_item_claims.expires_at <= $4 OR $6
     RETURNING content_id`,
    [projectId, contentId, userId, now, now + CLAIM_TTL_MS, force],
  );
  const current = (await claimsFor(db, projectId, [contentId], userId, now)).get(contentId)!;
  if (rows.length === 0) {
    throw conflict(`${current.name || current.email} (${current.email}) is reviewing this item; their claim ends at ${new Date(current.expiresAt).toISOString()} unless renewed`, [
      { message: `claimed by ${current.email}`, path: '/claim' },
    ]);
  }
  return current;
}

export async function releaseClaim(db: Queryable, projectId: string, contentId: string, userId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM dashboard_item_claims WHERE project_id = $1 AND content_id = $2 AND user_id = $3', [projectId, contentId, userId]);
  return rowCount > 0;
}
