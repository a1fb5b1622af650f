import { useCallback, useEffect, useState } from 'react';
import { api, projectPath, type Query } from '../../api/client.ts';
import type { AuditEntry } from './types.ts';

/** Pages through the audit log with the server's cursor; `more()` appends the next page. */
export function useAuditLog(projectId: string, filters: Query) {
  const key = JSON.stringify(filters);
  const [entries, setEntries] = useState<AuditEntry[] | undefined>(undefined);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const load = useCallback(
    async (before: string | null, append: boolean, signal?: AbortSignal) => {
      setLoading(true);
      setError(undefined);
      try {
        const page = await api.get<{ entries: AuditEntry[]; nextCursor: string | null }>(projectPath(projectId, '/audit'), { ...filters, limit: 50, before }, signal);
        setEntries((old) => (append ? [...(old ?? []), ...page.entries] : page.entries));
        setCursor(page.nextCursor);
      } catch (failure) {
        if ((failure as Error).name !== 'AbortError') setError(failure);
      } finally {
        setLoading(false);
      }
    },
    // `key` stands for the filters: a new object with the same filters must not reload.
    [projectId, key],
  );
  useEffect(() => {
    const controller = new AbortController();
    void load(null, false, controller.signal);
    return () => controller.abort();
  }, [load]);
  return { entries, error, loading, hasMore: cursor !== null, more: () => void load(cursor, true), reload: () => void load(null, false) };
}
