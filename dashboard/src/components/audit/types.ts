export type AuditActor = { type: 'user'; userId: string; email: string } | { type: 'api_key'; keyId: string } | { type: 'system' };

export interface AuditEntry {
  id: string;
  kind: string;
  actor: AuditActor;
  actionId: string | null;
  actionKey: string | null;
  actionName: string | null;
  actionType: string | null;
  queueId: string | null;
  contentId: string | null;
  authorId: string | null;
  value: string | null;
  comment: string | null;
  /** Configuration changes: each changed setting, before and after. */
  diff?: { path: string; before?: unknown; after?: unknown }[] | null;
  createdAt: number;
}

export function actorName(actor: AuditActor | null | undefined): string {
  if (!actor) return 'unknown';
  if (actor.type === 'user') return actor.email;
  if (actor.type === 'api_key') return `API key ${actor.keyId}`;
  return 'Automatic';
}
