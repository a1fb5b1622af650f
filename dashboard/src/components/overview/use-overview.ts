import { api, projectPath } from '../../api/client.ts';
import { useResource } from '../../api/use-resource.ts';

export interface OverviewPoint {
  t: number;
  submissions: number;
  flagged: number;
  allow: number;
  review: number;
  reject: number;
  newAuthors: number;
  policies: Record<string, number>;
}

export interface Overview {
  period: { from: number; to: number; bucket: 'hour' | 'day'; channelId: string | null };
  totals: Omit<OverviewPoint, 't'>;
  series: OverviewPoint[];
  /** open: open items now (any period), as counted at countedAt; null until the queue's filter was counted once ("counting…"). */
  queues: { id: string; name: string; open: number | null; countedAt: number | null; countMs: number | null; countError: string | null; reviewed: number; medianReviewMs: number | null }[];
  review: { decisions: number; medianReviewMs: number | null };
  reviewers: { actor: string; kind: 'user' | 'key'; decisions: number }[];
  actions: { name: string; count: number }[];
  /** The whole hours the review figures cover (the period widened to whole hours); their medians are estimates, within a factor of two. */
  reviewPeriod: { from: number; to: number };
  trustLevels: { level: number; name: string; authors: number }[];
  channels: { id: string; key: string; name: string }[];
}

export const PERIODS = [
  { key: '24h', label: 'Last 24 hours', ms: 86_400_000, bucket: 'hour' },
  { key: '7d', label: 'Last 7 days', ms: 7 * 86_400_000, bucket: 'day' },
  { key: '30d', label: 'Last 30 days', ms: 30 * 86_400_000, bucket: 'day' },
  { key: '90d', label: 'Last 90 days', ms: 90 * 86_400_000, bucket: 'day' },
] as const;
export type PeriodKey = (typeof PERIODS)[number]['key'];

/** Hourly points are offered up to this period (the server's limit). */
export const MAX_HOURLY_MS = 14 * 86_400_000;

export function useOverview(projectId: string, periodKey: PeriodKey, bucket: 'hour' | 'day' | null, channelId: string | null) {
  const period = PERIODS.find((p) => p.key === periodKey) ?? PERIODS[1];
  const chosen = bucket ?? period.bucket;
  const effective = chosen === 'hour' && period.ms > MAX_HOURLY_MS ? 'day' : chosen;
  return useResource(
    `${projectId}/overview?${period.key}&${effective}&${channelId ?? ''}`,
    (signal) => {
      // Whole hours, so repeated loads share their points and a minute's clock does not split a bucket.
      const to = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
      return api.get<Overview>(projectPath(projectId, '/overview'), { from: to - period.ms, to, bucket: effective, channelId }, signal);
    },
    { refreshMs: 60_000 },
  );
}

const hourFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
export const formatBucket = (t: number, bucket: 'hour' | 'day') => (bucket === 'hour' ? hourFormat.format(new Date(t)) : dayFormat.format(new Date(t)));

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  const minutes = ms / 60_000;
  if (minutes < 1) return `${Math.round(ms / 1000)} s`;
  if (minutes < 90) return `${Math.round(minutes)} min`;
  const hours = minutes / 60;
  if (hours < 48) return `${hours.toFixed(1)} h`;
  return `${(hours / 24).toFixed(1)} d`;
}
