/**
 * Dashboard roles and what each may do. Every dashboard route names the one permission it needs;
 * the dashboard plugin checks it against the member's role, so the rule lives here only.
 */

export const ROLES = ['moderator', 'developer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = ['read', 'moderate', 'configure', 'manage_members'] as const;
/**
 * - read: queues (those a moderator may see), items, authors, audit log;
 * - moderate: execute actions, resolve and unresolve, claim items, block/unblock authors, trust level;
 * - configure: channels, policies, wordlists, actions, queues, webhooks, custom data, API keys;
 * - manage_members: add, change and remove members.
 */
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  moderator: new Set(['read', 'moderate']),
  developer: new Set(['read', 'moderate', 'configure']),
  admin: new Set(['read', 'moderate', 'configure', 'manage_members']),
};

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

export function allows(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

/** A moderator limited to some queues sees only those; other roles see every queue. */
export function mayUseQueue(role: Role, queueIds: readonly string[] | null, queueId: string): boolean {
  return role !== 'moderator' || queueIds === null || queueIds.includes(queueId);
}
