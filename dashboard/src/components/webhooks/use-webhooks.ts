import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';

export interface Webhook {
  id: string;
  name: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  /** Set for an action's webhook (edited with the action). */
  moderationActionId: string | null;
  createdAt: number;
  updatedAt: number;
  lastDelivery: { success: boolean; statusCode: number | null; at: number } | null;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  manual: boolean;
  statusCode: number | null;
  success: boolean;
  error: string | null;
  durationMs: number;
  createdAt: number;
}

export interface PendingDelivery {
  outboxId: string;
  eventId: string;
  eventType: string;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  manual: boolean;
}

export interface DeliveryLog {
  deliveries: Delivery[];
  pending: PendingDelivery[];
  nextCursor: string | null;
  maxAttempts: number;
}

export interface SecretStatus {
  previousSecretValidUntil: number | null;
  rotatedAt: number | null;
  createdAt: number | null;
  graceMs: number;
}

export type WebhookBody = { name: string; url: string; description: string | null; events: string[]; enabled: boolean };

export function useWebhooks(projectId: string) {
  return useResource(`${projectId}/webhooks`, (signal) => api.get<{ webhooks: Webhook[]; eventTypes: string[] }>(projectPath(projectId, '/webhooks'), undefined, signal));
}

export function useDeliveryLog(projectId: string, webhookId: string, before: string | null) {
  return useResource(
    `${projectId}/webhooks/${webhookId}/deliveries?${before ?? ''}`,
    (signal) => api.get<DeliveryLog>(projectPath(projectId, `/webhooks/${seg(webhookId)}/deliveries`), { before }, signal),
    { refreshMs: before === null ? 5_000 : undefined },
  );
}

export function useSecretStatus(projectId: string) {
  return useResource(`${projectId}/webhook-secret/status`, (signal) => api.get<SecretStatus>(projectPath(projectId, '/webhook-secret/status'), undefined, signal));
}

export const createWebhook = (projectId: string, body: WebhookBody) => api.post<{ webhook: Webhook }>(projectPath(projectId, '/webhooks'), body);
export const updateWebhook = (projectId: string, id: string, body: Partial<WebhookBody>) => api.put<{ webhook: Webhook }>(projectPath(projectId, `/webhooks/${seg(id)}`), body);
export const deleteWebhook = (projectId: string, id: string) => api.delete<{ deleted: boolean }>(projectPath(projectId, `/webhooks/${seg(id)}`));
export const redeliver = (projectId: string, deliveryId: string) => api.post<{ queued: boolean }>(projectPath(projectId, `/webhook-deliveries/${seg(deliveryId)}/redeliver`));
export const revealSecret = (projectId: string) => api.get<{ secret: string; previousSecretValidUntil: number | null }>(projectPath(projectId, '/webhook-secret'));
export const rotateSecret = (projectId: string) => api.post<{ secret: string; previousSecretValidUntil: number | null }>(projectPath(projectId, '/webhook-secret/rotate'), { confirm: true });

export const EVENT_DESCRIPTIONS: Record<string, string> = {
  QUEUE_ITEM_NEW: 'an item enters a queue',
  QUEUE_ITEM_ACTION: 'an action is taken on a queue item',
  QUEUE_ITEM_COMPLETED: 'an item is resolved in a queue',
  AUTHOR_BLOCKED: 'an author is blocked',
  AUTHOR_UNBLOCKED: 'an author is unblocked',
  AUTHOR_SUSPENDED: 'an author is suspended (temporary block)',
  AUTHOR_UPDATED: 'an author’s fields change',
  AUTHOR_TRUST_LEVEL_CHANGED: 'an author’s trust level changes',
  AUTHOR_DELETED: 'an author is deleted',
  AUTHOR_ACTION: 'an action is taken on an author',
};
