import { Badge, formatDuration } from '../kit/kit.tsx';

export const TRUST_NAMES: Record<string, string> = { '-1': 'Untrusted', '0': 'New', '1': 'Basic', '2': 'Member', '3': 'Regular', '4': 'Trusted' };
export const trustName = (level: number | null | undefined) => (level === null || level === undefined ? 'Unknown' : (TRUST_NAMES[String(level)] ?? `Level ${level}`));

export function TrustBadge({ level, manual }: { level: number | null | undefined; manual?: boolean }) {
  const tone = level === undefined || level === null ? 'neutral' : level < 0 ? 'danger' : level >= 3 ? 'success' : level === 0 ? 'warning' : 'info';
  return (
    <Badge tone={tone} title={`Trust level ${level ?? '?'}${manual ? ' (set manually)' : ''}`}>
      {trustName(level)}
      {manual ? ' · manual' : ''}
    </Badge>
  );
}

export function StatusBadge({ status, until }: { status: string; until?: number | null }) {
  if (status === 'blocked') return <Badge tone="danger">blocked</Badge>;
  if (status === 'suspended') {
    const left = until ? until - Date.now() : null;
    return <Badge tone="warning">suspended{left !== null ? ` · ${formatDuration(left)} left` : ''}</Badge>;
  }
  if (status === 'enabled') return <Badge tone="success" outline>enabled</Badge>;
  return <Badge>{status}</Badge>;
}
