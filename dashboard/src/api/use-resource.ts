import { useCallback, useEffect, useRef, useState } from 'react';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** Replaces the data locally after a change the server confirmed. */
  set: (data: T) => void;
}

/** Loads `load()` whenever `key` changes; a newer load cancels an older one's answer. */
export function useResource<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>, options: { refreshMs?: number } = {}): Resource<T> {
  const [state, setState] = useState<{ key: string | null; data?: T; error?: unknown; loading: boolean }>({ key, loading: key !== null });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setState((s) => ({ key, data: s.key === key ? s.data : undefined, error: undefined, loading: true }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ key, data, loading: false }),
      (error) => !controller.signal.aborted && setState((s) => ({ key, data: s.key === key ? s.data : undefined, error, loading: false })),
    );
    return () => controller.abort();
  }, [key, nonce]);

  useEffect(() => {
    if (!options.refreshMs || key === null) return;
    const timer = window.setInterval(() => setNonce((n) => n + 1), options.refreshMs);
    return () => window.clearInterval(timer);
  }, [key, options.refreshMs]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const set = useCallback((data: T) => setState((s) => ({ ...s, data })), []);
  return { data: state.key === key ? state.data : undefined, error: state.error, loading: state.loading, reload, set };
}
