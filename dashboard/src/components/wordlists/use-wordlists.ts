import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';

export interface WordlistOverview {
  id: string;
  key: string | null;
  name: string | null;
  description: string | null;
  createdAt: string | null;
  updatedAt: number;
  wordCount: number;
  usedBy: { id: string; key: string; name: string }[];
}

export interface WordPage {
  words: string[];
  matching: number;
  totalWords: number;
  nextAfter: string | null;
}

const base = (projectId: string, wordlistId = '') => projectPath(projectId, `/wordlists${wordlistId ? `/${seg(wordlistId)}` : ''}`);

export const useWordlists = (projectId: string) =>
  useResource(`${projectId}/wordlists`, (signal) => api.get<{ wordlists: WordlistOverview[] }>(base(projectId), undefined, signal).then((r) => r.wordlists));

export const useWordlist = (projectId: string, wordlistId: string) =>
  useResource(`${projectId}/wordlists/${wordlistId}`, (signal) => api.get<{ wordlist: WordlistOverview }>(base(projectId, wordlistId), undefined, signal).then((r) => r.wordlist));

/** One page of words, searched and paged on the server (`after` is the previous page's last word). */
export const useWords = (projectId: string, wordlistId: string, contains: string, after: string | null, version: number) =>
  useResource(`${projectId}/wordlists/${wordlistId}/words?${contains}&${after ?? ''}&${version}`, (signal) =>
    api.get<WordPage>(`${base(projectId, wordlistId)}/words`, { contains, after, limit: 100 }, signal),
  );

export const createWordlist = (projectId: string, body: { name: string; key?: string; description?: string }) =>
  api.post<{ wordlist: WordlistOverview }>(base(projectId), body).then((r) => r.wordlist);
export const updateWordlist = (projectId: string, wordlistId: string, body: { name?: string; key?: string; description?: string }) =>
  api.put<{ wordlist: WordlistOverview }>(base(projectId, wordlistId), body).then((r) => r.wordlist);
export const deleteWordlist = (projectId: string, wordlistId: string) => api.delete<{ deleted: true }>(base(projectId, wordlistId));
export const addWords = (projectId: string, wordlistId: string, words: string[]) =>
  api.post<{ addedCount: number; totalCount: number }>(`${base(projectId, wordlistId)}/words`, { words });
export const removeWords = (projectId: string, wordlistId: string, words: string[]) =>
  api.post<{ removedCount: number; totalCount: number }>(`${base(projectId, wordlistId)}/words/remove`, { words });
export const importCsv = (projectId: string, wordlistId: string, csv: string, replace: boolean) =>
  api.post<{ imported: number; addedCount: number; totalCount: number }>(`${base(projectId, wordlistId)}/import`, { csv, replace });
export const exportUrl = (projectId: string, wordlistId: string) => `/dashboard/api${base(projectId, wordlistId)}/export`;

/** Words typed or pasted: one per line, or separated by commas. */
export const splitWords = (text: string) => text.split(/[\n,]/).map((w) => w.trim()).filter(Boolean);
