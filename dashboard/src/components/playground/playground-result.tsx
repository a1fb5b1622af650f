import { useState } from 'react';
import { Badge, Button, Card, Severity } from '../kit/kit.tsx';
import { HighlightedText } from '../items/highlighted-text.tsx';
import { matchSpans, UnicodeFindingList } from '../items/item-content.tsx';
import { RecommendationBadge } from '../items/policy-results.tsx';
import { reasonText, signalName } from '../items/signals.ts';
import type { Content, PolicyResult, WordFinding } from '../items/types.ts';
import { VisibleText } from '../items/visible-text.tsx';
import type { PlaygroundRun } from './use-playground.ts';

const pct = (p: number) => `${Math.round(p * 100)}%`;

/** A policy's score as a bar, with a mark where its threshold is. */
function ScoreBar({ policy, threshold, shadow }: { policy: PolicyResult; threshold: number | undefined; shadow: boolean }) {
  return (
    <div className="score-row" data-testid="policy-score" data-policy={policy.id}>
      <div className="stack-sm" style={{ gap: 2 }}>
        <span style={{ fontWeight: 550 }}>{policy.id.replace(/_/g, ' ')}</span>
        {policy.flagged_fields && policy.flagged_fields.length > 0 && <span className="small muted">fields: {policy.flagged_fields.join(', ')}</span>}
      </div>
      <span
        className={policy.flagged ? 'meter flagged' : 'meter'}
        style={{ position: 'relative', overflow: 'visible' }}
        role="meter"
        aria-label={`${policy.id} score`}
        aria-valuemin={0}
        aria-valuemax={1}
        aria-valuenow={policy.probability}
        title={`score ${pct(policy.probability)}, threshold ${threshold === undefined ? '—' : pct(threshold)}`}
      >
        <span style={{ width: pct(policy.probability) }} />
        {threshold !== undefined && <i aria-hidden="true" className="meter-threshold" style={{ left: pct(threshold) }} />}
      </span>
      <span className="mono small">
        {pct(policy.probability)}
        {threshold !== undefined && <span className="muted"> / {pct(threshold)}</span>}
      </span>
      <span className="row" style={{ gap: 4 }}>
        {policy.flagged ? <Badge tone="danger">flagged</Badge> : shadow ? <Badge tone="violet">shadow-flagged</Badge> : <Badge>not flagged</Badge>}
        {(policy.labels ?? [])
          .filter((l) => l.probability > 0 || l.flagged)
          .map((l) => (
            <Badge key={l.id} tone={l.flagged ? 'danger' : 'neutral'} outline title={l.flagged ? 'flagged' : l.probability >= 1 ? 'detected but turned off (or shadow mode)' : ''}>
              <span data-label={l.id} data-flagged={String(l.flagged)}>
                {signalName(l.id)} {pct(l.probability)}
                {!l.flagged && l.probability >= 1 ? ' · not flagging' : ''}
              </span>
            </Badge>
          ))}
      </span>
    </div>
  );
}

function fieldsOf(content: Content): { key: string | null; text: string }[] {
  if (content.type === 'text' && typeof content.text === 'string') return [{ key: null, text: content.text }];
  if (content.type === 'object' && content.data && typeof content.data === 'object') {
    return Object.entries(content.data as Record<string, { type?: string; text?: unknown }>)
      .filter(([, v]) => v?.type === 'text')
      .map(([key, v]) => ({ key, text: String(v.text ?? '') }));
  }
  return [];
}

const modifiedOf = (modified: PlaygroundRun['result']['content']['modified'], key: string | null): string | null => {
  if (modified === undefined || modified === null) return null;
  if (key === null) return typeof modified === 'string' ? modified : null;
  const field = typeof modified === 'object' ? (modified as Record<string, { text?: unknown }>)[key] : undefined;
  return field && typeof field.text === 'string' ? field.text : null;
};

/** Everything a run produced: verdict, scores against thresholds, the text with what was found in it, and the raw JSON. */
export function PlaygroundResult({ run, content }: { run: PlaygroundRun; content: Content }) {
  const [raw, setRaw] = useState(false);
  const { result, review } = run;
  const shadow = new Set(review.shadowFlagged);
  const policies = [...result.policies].sort((a, b) => Number(b.flagged) - Number(a.flagged) || b.probability - a.probability);
  const findingsOf = (key: string | null): WordFinding[] => review.unicode?.find((u) => u.field === key)?.findings ?? [];
  const fields = fieldsOf(content);
  return (
    <div className="stack" data-testid="playground-result">
      <Card title="Verdict">
        <div className="card-body stack-sm" data-testid="verdict">
          <div className="row">
            <span>Recommendation:</span>
            <RecommendationBadge action={result.recommendation.action} />
            {result.evaluation.flagged ? <Badge tone="danger">flagged</Badge> : <Badge tone="success">not flagged</Badge>}
            {review.shadowFlagged.length > 0 && <Badge tone="violet">shadow-flagged by {review.shadowFlagged.join(', ')}</Badge>}
            {result.evaluation.unicode_spoofed !== undefined && (
              <Badge tone={result.evaluation.unicode_spoofed ? 'warning' : 'neutral'}>{result.evaluation.unicode_spoofed ? 'Unicode spoofed' : 'no spoofing'}</Badge>
            )}
            <Severity value={result.evaluation.severity_score} />
          </div>
          {review.dryRun && (
            <div className="alert alert-warning" role="note">
              Dry run: callers get the answer above; the stored item would keep the real verdict, <RecommendationBadge action={review.recommendation.action} /> ({review.recommendation.reason_codes.join(', ') || 'no reason'}).
            </div>
          )}
          {result.recommendation.reason_codes.length > 0 && (
            <ul className="small" style={{ margin: 0, paddingLeft: 18 }} aria-label="Reason codes">
              {result.recommendation.reason_codes.map((code) => (
                <li key={code}>
                  {reasonText(code)} <code className="muted">{code}</code>
                </li>
              ))}
            </ul>
          )}
          <span className="small muted">
            Channel <span className="mono">{result.meta.channel_key}</span> · {result.meta.processing_time} · nothing stored
          </span>
          {result.errors && result.errors.length > 0 && (
            <div className="alert alert-warning" role="note">
              Not analysed: {result.errors.map((e) => `${e.id} (${e.message})`).join('; ')}
            </div>
          )}
        </div>
      </Card>
      <Card title="Policy scores against their thresholds">
        <div className="card-body" data-testid="policy-scores">
          {policies.map((p) => (
            <ScoreBar key={p.id} policy={p} threshold={run.thresholds[p.id]} shadow={shadow.has(p.id)} />
          ))}
          {policies.length === 0 && <p className="muted">No policy ran.</p>}
        </div>
      </Card>
      <Card title="Text, with what was found in it">
        <div className="card-body stack">
          {fields.length === 0 && <span className="muted">No text field to show.</span>}
          {fields.map((f) => {
            const normalized = modifiedOf(result.content.modified, f.key);
            return (
              <div key={f.key ?? ''} className="stack-sm">
                {f.key !== null && <span className="field-name">{f.key}</span>}
                <div className={normalized !== null ? 'grid-2' : undefined}>
                  <div className="stack-sm">
                    <span className="small muted">As submitted</span>
                    <div className="content-text" data-testid="playground-text">
                      <HighlightedText text={f.text} findings={findingsOf(f.key)} matches={matchSpans(f.text, result.policies.filter((p) => f.key === null || !p.flagged_fields || p.flagged_fields.includes(f.key)))} />
                    </div>
                  </div>
                  {normalized !== null && (
                    <div className="stack-sm">
                      <span className="small muted">{result.content.masked ? 'Normalized and masked' : 'Normalized'} (what the other policies read)</span>
                      <div className="content-text" data-testid="playground-normalized">
                        <VisibleText text={normalized} />
                      </div>
                    </div>
                  )}
                </div>
              </div>
            );
          })}
          <UnicodeFindingList unicode={review.unicode} modified={null} />
        </div>
      </Card>
      {result.insights.length > 0 && (
        <Card title="Insights">
          <div className="card-body row">
            {result.insights.map((i) => (
              <Badge key={i.id} outline>
                {i.id}: {i.value ?? (i.probability !== undefined ? pct(i.probability) : '—')}
              </Badge>
            ))}
          </div>
        </Card>
      )}
      <Card
        title="Raw JSON"
        actions={
          <Button size="sm" aria-expanded={raw} onClick={() => setRaw(!raw)}>
            {raw ? 'Hide raw JSON' : 'Show raw JSON'}
          </Button>
        }
      >
        {raw && (
          <pre className="content-text mono small" data-testid="raw-json" style={{ margin: 12, maxHeight: 480, overflow: 'auto' }}>
            {JSON.stringify(result, null, 2)}
          </pre>
        )}
      </Card>
    </div>
  );
}
