import { api, projectPath, seg, type Query } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';
import type { ItemPage, QueueItem, QueueView } from './types.ts';

export function useQueues(projectId: string) {
  return useResource(`${projectId}/queues`, (signal) => api.get<{ queues: QueueView[] }>(projectPath(projectId, '/queues'), undefined, signal).then((r) => r.queues), { refreshMs: 30_000 });
}

export function useQueue(projectId: string, queueId: string) {
  return useResource(`${projectId}/queues/${queueId}`, (signal) => api.get<{ queue: QueueView }>(projectPath(projectId, `/queues/${seg(queueId)}`), undefined, signal).then((r) => r.queue));
}

/** The list query of the queue view, as kept in the page's URL. */
export const ITEM_QUERY_KEYS = ['labels', 'authorId', 'conversationIds', 'filteredActionIds', 'afterDate', 'beforeDate', 'includeResolved', 'sortField', 'sortDirection', 'pageNumber'] as const;

export function itemQuery(search: URLSearchParams): Query {
  const query: Query = { pageSize: 50 };
  for (const key of ITEM_QUERY_KEYS) {
    const value = search.get(key);
    if (value) query[key] = value;
  }
  return query;
}

export function useQueueItems(projectId: string, queueId: string, query: Query) {
  const key = `${projectId}/queues/${queueId}/items?${JSON.stringify(query)}`;
  return useResource(key, (signal) => api.get<ItemPage>(projectPath(projectId, `/queues/${seg(queueId)}/items`), query, signal), { refreshMs: 20_000 });
}

export const BULK_LIMIT = 1000;

/** Every item id the filter matches, up to BULK_LIMIT, page by page (pages of 100). */
export async function idsMatching(projectId: string, queueId: string, query: Query): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let total = 0;
  for (let page = 1; ids.length < BULK_LIMIT; page++) {
    const result = await api.get<ItemPage>(projectPath(projectId, `/queues/${seg(queueId)}/items`), { ...query, pageSize: 100, pageNumber: page });
    total = result.pagination.totalItems;
    ids.push(...result.items.map((i) => i.id));
    if (!result.pagination.hasNextPage || result.items.length === 0) break;
  }
  return { ids: ids.slice(0, BULK_LIMIT), total };
}

// The order of the items the moderator last saw in a queue, so the item page can move on with j/k
// and go to the next item after acting.
const cursors = new Map<string, { ids: string[]; search: string }>();
export const rememberQueueOrder = (queueId: string, items: QueueItem[], search: string) => cursors.set(queueId, { ids: items.map((i) => i.id), search });
export const queueOrder = (queueId: string) => cursors.get(queueId) ?? { ids: [], search: '' };
