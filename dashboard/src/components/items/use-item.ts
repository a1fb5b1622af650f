import { useEffect, useState } from 'react';
import { api, ApiError, projectPath, seg } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';
import type { Claim } from '../queues/types.ts';
import type { ItemDetail } from './types.ts';

export function useItem(projectId: string, itemId: string, queueId: string | null) {
  return useResource(`${projectId}/items/${itemId}/${queueId ?? ''}`, (signal) => api.get<ItemDetail>(projectPath(projectId, `/items/${seg(itemId)}`), { queueId }, signal));
}

const RENEW_MS = 60_000;

/**
 * Claims the item while the page is open (renewed every minute, released on leaving), so another
 * moderator sees "being reviewed by". When someone else holds it, says who; `takeOver` forces it.
 */
export function useClaim(projectId: string, itemId: string, enabled: boolean) {
  const [claim, setClaim] = useState<Claim | null>(null);
  const [heldBy, setHeldBy] = useState<string | null>(null);
  const [force, setForce] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    const claimPath = projectPath(projectId, `/items/${seg(itemId)}/claim`);
    const take = async () => {
      try {
        const result = await api.post<{ claim: Claim }>(claimPath, force ? { force: true } : {});
        if (!stopped) {
          setClaim(result.claim);
          setHeldBy(null);
        }
      } catch (error) {
        if (stopped) return;
        if (error instanceof ApiError && error.status === 409) {
          setHeldBy(error.message);
          setClaim(null);
        }
      }
    };
    void take();
    const timer = window.setInterval(() => void take(), RENEW_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      void api.delete(claimPath).catch(() => {});
    };
  }, [projectId, itemId, enabled, force]);
  return { claim, heldBy, takeOver: () => setForce(true) };
}
