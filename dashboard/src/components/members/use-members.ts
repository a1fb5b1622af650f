import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';
import type { Role } from '../session/session.tsx';

export interface Member {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Moderators only: the queues they may see; null means every queue. */
  queueIds: string[] | null;
  memberSince: number;
  mustChangePassword: boolean;
}

export function useMembers(projectId: string) {
  return useResource(`${projectId}/members`, (signal) => api.get<{ members: Member[] }>(projectPath(projectId, '/members'), undefined, signal).then((r) => r.members));
}

export const addMember = (projectId: string, body: { email: string; name?: string; role: Role; queueIds: string[] | null }) =>
  api.post<{ member: Member; oneTimePassword: string | null }>(projectPath(projectId, '/members'), body);
export const updateMember = (projectId: string, userId: string, body: { role?: Role; queueIds?: string[] | null }) =>
  api.put<{ member: Member }>(projectPath(projectId, `/members/${seg(userId)}`), body);
export const removeMember = (projectId: string, userId: string) => api.delete<{ removed: boolean }>(projectPath(projectId, `/members/${seg(userId)}`));

export const ROLE_INFO: Record<Role, { name: string; what: string }> = {
  moderator: { name: 'Moderator', what: 'reviews queues and acts on items and authors; can be limited to some queues' },
  developer: { name: 'Developer', what: 'moderates and configures (channels, queues, actions, webhooks, API keys)' },
  admin: { name: 'Admin', what: 'everything, and manages the members of the project' },
};
