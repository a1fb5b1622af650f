import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';
import type { ActionView } from '../queues/types.ts';

/** One key per built-in action (by its type, which is also its hosted-API key); custom actions are buttons without a shortcut. */
export const ACTION_SHORTCUTS: Record<string, string> = {
  ITEM_REJECT: 'r',
  ITEM_ALLOW: 'a',
  AUTHOR_BLOCK: 'b',
  AUTHOR_BLOCK_TEMP: 't',
  AUTHOR_UNBLOCK: 'u',
  AUTHOR_WARN: 'w',
  AUTHOR_REPORT: 'p',
  AUTHOR_DELETE: 'D',
};

export const shortcutFor = (action: ActionView) => (action.builtIn && action.type ? ACTION_SHORTCUTS[action.type] : undefined);

export function useQueueActions(projectId: string, queueId: string | null) {
  return useResource(queueId ? `${projectId}/${queueId}/actions` : null, (signal) =>
    api.get<{ actions: ActionView[] }>(projectPath(projectId, `/queues/${seg(queueId!)}/actions`), undefined, signal).then((r) => r.actions),
  );
}

export interface ExecuteInput {
  actionId: string;
  queueId?: string;
  contentIds?: string[];
  authorIds?: string[];
  value?: string;
  comment?: string;
  durationMs?: number;
}

export interface ExecuteResult {
  actionId: string;
  actionName: string;
  contentIds: string[];
  authorIds: string[];
  count: number;
}

export const executeAction = (projectId: string, input: ExecuteInput) => api.post<ExecuteResult>(projectPath(projectId, '/actions/execute'), input);

export const resolveItem = (projectId: string, queueId: string, itemId: string, comment?: string) =>
  api.post<{ resolved: true; resolvedAt: number }>(projectPath(projectId, `/queues/${seg(queueId)}/items/${seg(itemId)}/resolve`), comment ? { comment } : {});

export const unresolveItem = (projectId: string, queueId: string, itemId: string, comment?: string) =>
  api.post<{ resolved: false }>(projectPath(projectId, `/queues/${seg(queueId)}/items/${seg(itemId)}/unresolve`), comment ? { comment } : {});
