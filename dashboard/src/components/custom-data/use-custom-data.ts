import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';

export type CustomDataItem =
  | { type: 'field'; label?: string; value: string; tooltip?: string }
  | { type: 'status'; label?: string; value: string; variant?: 'default' | 'success' | 'warning' | 'danger' | 'info'; tooltip?: string }
  | { type: 'link'; label: string; url: string; variant?: 'default' | 'outline' | 'ghost'; tooltip?: string }
  | { type: 'metric'; label: string; value: string; tooltip?: string }
  | { type: 'heading'; label: string }
  | { type: 'separator' };

export type CustomData =
  | { status: 'disabled' }
  | { status: 'unavailable'; reason: 'timeout' | 'error' | 'invalid_response' }
  | { status: 'ok'; items: CustomDataItem[]; skipped: { unknownKind: number; invalid: number }; fetchedAt: number; cached: boolean };

/** Loaded apart from the author page, so a slow endpoint never holds the page back. */
export function useCustomData(projectId: string, authorId: string, enabled: boolean) {
  return useResource(enabled ? `${projectId}/authors/${authorId}/custom-data` : null, (signal) => api.get<CustomData>(projectPath(projectId, `/authors/${seg(authorId)}/custom-data`), undefined, signal));
}

export interface CustomDataSettings {
  enabled: boolean;
  endpointUrl: string | null;
  headers: { name: string; hasValue: boolean }[];
  updatedAt: number | null;
  updatedBy: string | null;
}

export const settingsPath = (projectId: string) => projectPath(projectId, '/settings/custom-data');
export const loadSettings = (projectId: string, signal?: AbortSignal) => api.get<CustomDataSettings>(settingsPath(projectId), undefined, signal);
export const saveSettings = (projectId: string, body: { enabled: boolean; endpointUrl: string | null; headers: { name: string; value?: string }[] }) => api.put<CustomDataSettings>(settingsPath(projectId), body);
