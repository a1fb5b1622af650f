import { memo } from 'react';
import { Link, path } from '../../router.tsx';
import { Badge, Severity, Time } from '../kit/kit.tsx';
import { RecommendationBadge } from '../items/policy-results.tsx';
import { VisibleText } from '../items/visible-text.tsx';
import { TrustBadge, StatusBadge } from '../authors/badges.tsx';
import type { QueueItem } from './types.ts';

const labelName = (id: string) => id.replace(/_/g, ' ');

export function ClaimNote({ claim }: { claim: QueueItem['claim'] }) {
  if (!claim || claim.mine) return null;
  return (
    <Badge tone="info" title={`Claimed until ${new Date(claim.expiresAt).toLocaleTimeString()}`}>
      <span aria-hidden="true">●</span> Being reviewed by {claim.name || claim.email}
    </Badge>
  );
}

const Row = memo(function Row({ item, queueId, current, selected, onSelect, onFocusRow }: { item: QueueItem; queueId: string; current: boolean; selected: boolean; onSelect: (id: string, on: boolean) => void; onFocusRow: (id: string) => void }) {
  const flagged = item.labels.filter((l) => l.flagged).sort((a, b) => b.score - a.score);
  return (
    <tr className={[current && 'current', selected && 'selected'].filter(Boolean).join(' ')} data-item-id={item.id} aria-current={current ? 'true' : undefined} onClick={() => onFocusRow(item.id)}>
      <td>
        <input type="checkbox" aria-label={`Select item ${item.id}`} checked={selected} onChange={(e) => onSelect(item.id, e.target.checked)} onClick={(e) => e.stopPropagation()} />
      </td>
      <td style={{ minWidth: 260 }}>
        <Link href={path`/queues/${queueId}/items/${item.id}`} className="preview" data-testid="item-preview" style={{ color: 'inherit' }}>
          <VisibleText text={item.preview || '(no text)'} />
        </Link>
        <div className="row small" style={{ marginTop: 4, gap: 6 }}>
          <span className="muted">{item.contentType}</span>
          {item.status === 'resolved' && <Badge tone="success">resolved</Badge>}
          {item.shadowFlagged && (
            <Badge tone="violet" title={`Shadow-flagged by ${item.shadowPolicies.join(', ') || 'a policy'}: scored high without flagging`}>
              shadow-flagged
            </Badge>
          )}
          <ClaimNote claim={item.claim} />
        </div>
      </td>
      <td>
        <div className="row" style={{ gap: 4 }}>
          {flagged.length === 0 && <span className="muted small">none flagged</span>}
          {flagged.slice(0, 4).map((l) => (
            <Badge key={l.label} tone="danger" outline>
              {labelName(l.label)} {Math.round(l.score * 100)}%
            </Badge>
          ))}
          {flagged.length > 4 && <span className="small muted">+{flagged.length - 4}</span>}
        </div>
        <div style={{ marginTop: 4 }}>
          <RecommendationBadge action={item.recommendation} />
        </div>
      </td>
      <td>
        <Severity value={item.severity} />
      </td>
      <td className="hide-narrow">
        {item.author ? (
          <div className="stack-sm" style={{ gap: 3 }}>
            <Link href={path`/authors/${item.author.externalId}`} className="break" onClick={(e) => e.stopPropagation()}>
              {item.author.name || item.author.externalId}
            </Link>
            <span className="row" style={{ gap: 4 }}>
              <TrustBadge level={item.author.trustLevel} />
              <StatusBadge status={item.author.status} until={item.author.blockUntil} />
            </span>
          </div>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td className="hide-narrow small">
        <span className="ellipsis mono" title={item.channelId ?? undefined}>
          {item.channelId ?? '—'}
        </span>
      </td>
      <td className="small">
        <Time ms={item.createdAt} />
      </td>
    </tr>
  );
});

export function QueueTable({ items, queueId, currentId, selected, onSelect, onSelectPage, onFocusRow, sortField, sortDirection, onSort }: {
  items: QueueItem[];
  queueId: string;
  currentId: string | null;
  selected: ReadonlySet<string>;
  onSelect: (id: string, on: boolean) => void;
  onSelectPage: (on: boolean) => void;
  onFocusRow: (id: string) => void;
  sortField: string;
  sortDirection: string;
  onSort: (field: string) => void;
}) {
  const allOnPage = items.length > 0 && items.every((i) => selected.has(i.id));
  const sortLabel = (field: string, label: string) => (
    <th aria-sort={sortField === field ? (sortDirection === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button className="sort" onClick={() => onSort(field)}>
        {label} {sortField === field ? (sortDirection === 'asc' ? '▲' : '▼') : ''}
      </button>
    </th>
  );
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Queue items">
        <thead>
          <tr>
            <th style={{ width: 32 }}>
              <input type="checkbox" aria-label="Select every item on this page" checked={allOnPage} onChange={(e) => onSelectPage(e.target.checked)} />
            </th>
            <th>Content</th>
            <th>Flagged policies</th>
            {sortLabel('severity', 'Severity')}
            <th className="hide-narrow">Author</th>
            <th className="hide-narrow">Channel</th>
            {sortLabel('createdAt', 'Received')}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <Row key={item.id} item={item} queueId={queueId} current={item.id === currentId} selected={selected.has(item.id)} onSelect={onSelect} onFocusRow={onFocusRow} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
