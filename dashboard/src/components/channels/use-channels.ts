import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';
import type { Catalog, Channel, ConfigChange } from './types.ts';

export function useCatalog(projectId: string) {
  return useResource(`${projectId}/config/catalog`, (signal) => api.get<Catalog>(projectPath(projectId, '/config/catalog'), undefined, signal));
}

export function useChannels(projectId: string) {
  return useResource(`${projectId}/channels`, (signal) => api.get<{ channels: Channel[] }>(projectPath(projectId, '/channels'), undefined, signal).then((r) => r.channels));
}

export function useChannel(projectId: string, channelId: string) {
  return useResource(`${projectId}/channels/${channelId}`, (signal) => api.get<{ channel: Channel }>(projectPath(projectId, `/channels/${seg(channelId)}`), undefined, signal).then((r) => r.channel));
}

export const createChannel = (projectId: string, body: { key: string; name: string }) => api.post<{ channel: Channel }>(projectPath(projectId, '/channels'), body).then((r) => r.channel);

export const updateChannel = (projectId: string, channelId: string, body: Partial<Omit<Channel, 'id' | 'isDefault' | 'createdAt' | 'updatedAt' | 'triage'>> & { triage?: unknown }) =>
  api.put<{ channel: Channel; changes: ConfigChange[] }>(projectPath(projectId, `/channels/${seg(channelId)}`), body);

export const deleteChannel = (projectId: string, channelId: string) => api.delete<{ deleted: true }>(projectPath(projectId, `/channels/${seg(channelId)}`));

/** "toxicity_severe" → "Toxicity severe"; wordlist policies keep their list's key. */
export const policyName = (id: string) => id.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
