import { api, projectPath } from '../../api/client.ts';
import type { Channel } from '../channels/types.ts';
import type { Content, ItemDetail, PolicyResult } from '../items/types.ts';

export interface PlaygroundRun {
  result: {
    content: { id: string; masked: boolean; modified?: string | Record<string, unknown> | null };
    evaluation: ItemDetail['evaluation'];
    recommendation: ItemDetail['recommendation'];
    policies: PolicyResult[];
    insights: ItemDetail['insights'];
    meta: { status: string; channel_key: string; processing_time: string };
    errors?: { id: string; message: string }[];
  };
  /** What a stored item would keep: the real verdict (also under dry run), Unicode findings, shadow flags. */
  review: {
    evaluation: ItemDetail['evaluation'];
    recommendation: ItemDetail['recommendation'];
    unicode: ItemDetail['unicode'];
    shadowFlagged: string[];
    dryRun: boolean;
  };
  thresholds: Record<string, number>;
  channel: Channel;
}

export const runPlayground = (projectId: string, body: { content: Content; channel?: string; authorId?: string; metaType?: string }) => api.post<PlaygroundRun>(projectPath(projectId, '/playground'), body);
