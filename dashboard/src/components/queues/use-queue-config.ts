import { useEffect, useState } from 'react';
import { api, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';
import type { QueueView } from './types.ts';

export type LabelCondition = 'FLAGGED' | 'NOT_FLAGGED' | 'THRESHOLDS';

/** Every field of a queue filter (src/core/queue-filter.ts). */
export interface FullQueueFilter {
  afterDate?: string;
  beforeDate?: string;
  authorID?: string;
  conversationIds?: (string | null)[];
  filteredActionIds?: string[];
  filteredChannelIds?: string[];
  filterLabels?: { label: string; type: LabelCondition; minThreshold?: number | null; maxThreshold?: number | null }[];
  labels?: string[];
  recommendationActions?: ('review' | 'allow' | 'reject')[];
  showChecked?: boolean;
  flagged?: 'FLAGGED' | 'NOT_FLAGGED' | 'ALL';
  showShadowFlagged?: boolean;
}

export interface QueueInput {
  name: string;
  description: string;
  filter: FullQueueFilter;
}

export const createQueue = (projectId: string, body: QueueInput) => api.post<{ queue: QueueView }>(projectPath(projectId, '/queues'), body).then((r) => r.queue);
export const updateQueue = (projectId: string, queueId: string, body: QueueInput) => api.put<{ queue: QueueView }>(projectPath(projectId, `/queues/${seg(queueId)}`), body).then((r) => r.queue);
export const deleteQueue = (projectId: string, queueId: string) => api.delete<{ deleted: true }>(projectPath(projectId, `/queues/${seg(queueId)}`));

/** Drops empty parts, so the saved filter holds only what was chosen. */
export function cleanFilter(filter: FullQueueFilter): FullQueueFilter {
  const out: FullQueueFilter = {};
  for (const [key, value] of Object.entries(filter) as [keyof FullQueueFilter, unknown][]) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** How many current items the filter selects, asked again a moment after each change. */
export function useFilterPreview(projectId: string, filter: FullQueueFilter) {
  const body = JSON.stringify({ filter: cleanFilter(filter) });
  const [state, setState] = useState<{ body: string; matching?: number; flagged?: number; error?: unknown }>({ body: '' });
  useEffect(() => {
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      api
        .post<{ matching: number; flagged: number }>(projectPath(projectId, '/queues/preview'), JSON.parse(body) as unknown)
        .then((r) => !controller.signal.aborted && setState({ body, ...r }))
        .catch((error: unknown) => !controller.signal.aborted && setState({ body, error }));
    }, 300);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [projectId, body]);
  return { ...state, current: state.body === body };
}

export function useConfigActions(projectId: string) {
  return useResource(`${projectId}/config/actions`, (signal) =>
    api.get<{ actions: { id: string; key: string | null; name: string; position: string }[] }>(projectPath(projectId, '/actions'), undefined, signal).then((r) => r.actions),
  );
}
