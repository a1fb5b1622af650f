import { Badge } from '../kit/kit.tsx';
import { reasonText, signalName } from './signals.ts';
import type { ItemDetail } from './types.ts';

const pct = (p: number) => `${Math.round(p * 100)}%`;
const policyName = (id: string) => id.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

export function RecommendationBadge({ action }: { action: string }) {
  const tone = action === 'reject' ? 'danger' : action === 'review' ? 'warning' : action === 'allow' ? 'success' : 'neutral';
  return <Badge tone={tone}>{action}</Badge>;
}

export function Recommendation({ detail }: { detail: ItemDetail }) {
  const { recommendation } = detail;
  return (
    <div className="stack-sm" data-testid="recommendation">
      <div className="row">
        <span>Recommended:</span>
        <RecommendationBadge action={recommendation.action} />
        {detail.item.shadowFlagged && <Badge tone="violet">shadow-flagged</Badge>}
      </div>
      {recommendation.reason_codes.length > 0 && (
        <ul className="small" style={{ margin: 0, paddingLeft: 18 }}>
          {recommendation.reason_codes.map((code) => (
            <li key={code}>
              {reasonText(code)} <code className="muted">{code}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function PolicyResults({ detail }: { detail: ItemDetail }) {
  const policies = [...detail.policies].sort((a, b) => Number(b.flagged) - Number(a.flagged) || b.probability - a.probability);
  return (
    <div data-testid="policy-results">
      {detail.errors.length > 0 && (
        <div className="alert alert-warning" role="note" style={{ marginBottom: 8 }}>
          Not analysed: {detail.errors.map((e) => `${e.id} (${e.message})`).join('; ')}
        </div>
      )}
      {policies.map((p) => (
        <div key={p.id} className="score-row">
          <div className="stack-sm" style={{ gap: 2 }}>
            <span style={{ fontWeight: 550 }}>{policyName(p.id)}</span>
            {p.flagged_fields && p.flagged_fields.length > 0 && <span className="small muted">fields: {p.flagged_fields.join(', ')}</span>}
          </div>
          <span className={p.flagged ? 'meter flagged' : 'meter'} aria-hidden="true">
            <span style={{ width: pct(p.probability) }} />
          </span>
          <span className="mono">{pct(p.probability)}</span>
          <span className="row" style={{ gap: 4 }}>
            {p.flagged ? <Badge tone="danger">flagged</Badge> : <Badge>not flagged</Badge>}
            {(p.labels ?? [])
              .filter((l) => l.probability > 0 || l.flagged)
              .map((l) => (
                <Badge key={l.id} tone={l.flagged ? 'danger' : 'neutral'} outline title={`${signalName(l.id)} ${pct(l.probability)}${l.flagged ? ', flagged' : l.probability >= 1 ? ', detected but turned off' : ''}`}>
                  {signalName(l.id)} {pct(l.probability)}
                </Badge>
              ))}
          </span>
        </div>
      ))}
      {policies.length === 0 && <p className="muted">No policy ran on this item.</p>}
    </div>
  );
}
