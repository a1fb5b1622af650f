import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: number;
  createdBy: string | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export function useApiKeys(projectId: string) {
  return useResource(`${projectId}/api-keys`, (signal) => api.get<{ apiKeys: ApiKey[] }>(projectPath(projectId, '/api-keys'), undefined, signal).then((r) => r.apiKeys));
}

export const createApiKey = (projectId: string, name: string) => api.post<{ apiKey: ApiKey; key: string }>(projectPath(projectId, '/api-keys'), { name });
export const revokeApiKey = (projectId: string, keyId: string) => api.delete<{ apiKey: ApiKey }>(projectPath(projectId, `/api-keys/${seg(keyId)}`));
