import { api, projectPath, seg, type Query } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';
import type { AuthorDetail, AuthorList, AuthorRecord } from './types.ts';

export const SORT_KEYS: [string, string][] = [
  ['lastActive', 'Last active'],
  ['memberSince', 'Member since'],
  ['trustLevel', 'Trust level'],
  ['violationCount', 'Violations'],
  ['reportCount', 'Reports'],
  ['contentCount', 'Content'],
  ['flaggedContentRatio', 'Flagged share'],
  ['averageSentiment', 'Average sentiment'],
];

export const AUTHOR_QUERY_KEYS = ['sortBy', 'sortDirection', 'pageNumber', 'memberSinceDate', 'lastActiveDate', 'contentTypes'] as const;

export function useAuthors(projectId: string, query: Query) {
  return useResource(`${projectId}/authors?${JSON.stringify(query)}`, (signal) => api.get<AuthorList>(projectPath(projectId, '/authors'), { pageSize: 25, ...query }, signal));
}

export function useAuthor(projectId: string, authorId: string) {
  return useResource(`${projectId}/authors/${authorId}`, (signal) => api.get<AuthorDetail>(projectPath(projectId, `/authors/${seg(authorId)}`), undefined, signal));
}

const authorPath = (projectId: string, authorId: string, rest: string) => projectPath(projectId, `/authors/${seg(authorId)}${rest}`);

export const blockAuthor = (projectId: string, authorId: string, body: { reason?: string; durationMs?: number }) => api.post<{ author: AuthorRecord }>(authorPath(projectId, authorId, '/block'), body);
export const unblockAuthor = (projectId: string, authorId: string, body: { reason?: string }) => api.post<{ author: AuthorRecord }>(authorPath(projectId, authorId, '/unblock'), body);
export const setTrustLevel = (projectId: string, authorId: string, body: { level: number | null; reason: string }) => api.put<{ author: AuthorRecord }>(authorPath(projectId, authorId, '/trust-level'), body);
