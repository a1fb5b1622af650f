import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';

export interface ActionWebhook {
  id?: string;
  name: string;
  url: string;
  description?: string | null;
}

export interface ConfigAction {
  id: string;
  key: string | null;
  name: string;
  description: string | null;
  type: string | null;
  builtIn: boolean | null;
  queueBehaviour: 'REMOVE' | 'ADD' | 'NO_CHANGE';
  filterInQueueIds: string[];
  position: 'ALL_QUEUES' | 'SOME_QUEUES' | 'HIDDEN';
  possibleValues: { value: string }[];
  valueRequired: boolean;
  freeText: boolean;
  webhooks: ActionWebhook[];
}

export type ActionInput = Omit<ConfigAction, 'id' | 'builtIn'>;

export const useActionConfig = (projectId: string) =>
  useResource(`${projectId}/config/actions`, (signal) => api.get<{ actions: ConfigAction[] }>(projectPath(projectId, '/actions'), undefined, signal).then((r) => r.actions));

export const createAction = (projectId: string, body: ActionInput) => api.post<{ action: ConfigAction }>(projectPath(projectId, '/actions'), body).then((r) => r.action);
export const updateAction = (projectId: string, actionId: string, body: Partial<ActionInput>) => api.put<{ action: ConfigAction }>(projectPath(projectId, `/actions/${seg(actionId)}`), body).then((r) => r.action);
export const deleteAction = (projectId: string, actionId: string) => api.delete<{ deleted: true }>(projectPath(projectId, `/actions/${seg(actionId)}`));
export const reorderActions = (projectId: string, order: string[]) => api.put<{ actions: ConfigAction[] }>(projectPath(projectId, '/actions/order'), { order }).then((r) => r.actions);

export const ACTION_TYPES = ['AUTHOR_BLOCK', 'AUTHOR_BLOCK_TEMP', 'AUTHOR_UNBLOCK', 'AUTHOR_DELETE', 'AUTHOR_REPORT', 'AUTHOR_WARN', 'AUTHOR_CUSTOM', 'ITEM_REJECT', 'ITEM_ALLOW', 'ITEM_CUSTOM'] as const;
