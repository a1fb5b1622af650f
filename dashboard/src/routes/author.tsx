import { useEffect, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { AuditTrail } from '../components/audit/audit-list.tsx';
import { BlockDialog, TrustDialog, UnblockDialog } from '../components/authors/author-dialogs.tsx';
import { StatusBadge, TrustBadge, trustName } from '../components/authors/badges.tsx';
import { blockAuthor, setTrustLevel, unblockAuthor, useAuthor } from '../components/authors/use-authors.ts';
import { CustomDataPanel, safeHttpsUrl } from '../components/custom-data/custom-data-panel.tsx';
import { RecommendationBadge } from '../components/items/policy-results.tsx';
import { VisibleText } from '../components/items/visible-text.tsx';
import { Badge, Button, Card, ErrorNote, formatDate, formatDuration, Severity, Spinner, Time } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, path } from '../router.tsx';
import { NotFoundPage } from './not-found.tsx';

const BADGE_NAMES: Record<string, string> = { email_verified: 'Email verified', phone_verified: 'Phone verified', identity_verified: 'Identity verified', is_paying_customer: 'Paying customer' };
const RISK_NAMES = ['None', 'Low', 'Medium', 'High', 'Very high'];

/** Ticks every second while a temporary block runs, and reloads once it has ended. */
function useCountdown(until: number | null | undefined, onEnd: () => void): number | null {
  const [, setNow] = useState(Date.now());
  useEffect(() => {
    if (!until) return;
    setNow(Date.now());
    const timer = window.setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= until) {
        window.clearInterval(timer);
        window.setTimeout(onEnd, 300);
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  // Read the clock at render; the ticking state only makes the page render again.
  return until ? until - Date.now() : null;
}

function Avatar({ url, name }: { url: string | null; name: string }) {
  const [failed, setFailed] = useState(false);
  const safe = safeHttpsUrl(url);
  if (safe && !failed) return <img className="avatar" src={safe} alt={`Profile picture of ${name}`} referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
  return (
    <span className="avatar avatar-fallback" aria-hidden="true">
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}

export function AuthorPage({ authorId }: { authorId: string }) {
  const project = useProject();
  const toast = useToast();
  const detail = useAuthor(project.projectId, authorId);
  const [dialog, setDialog] = useState<'block' | 'suspend' | 'unblock' | 'trust' | null>(null);
  const d = detail.data;
  const remaining = useCountdown(d?.block?.status === 'suspended' ? d.block.until : null, detail.reload);

  if (detail.error instanceof ApiError && detail.error.status === 404) return <NotFoundPage what="This author" />;
  if (!d) {
    return (
      <div className="page">
        {detail.error !== undefined ? <ErrorNote error={detail.error} onRetry={detail.reload} /> : <Spinner label="Loading the author" />}
      </div>
    );
  }
  const a = d.author;
  const name = a.name || a.external_id;
  const link = safeHttpsUrl(a.external_link) ?? (a.external_link && /^http:\/\//i.test(a.external_link) ? a.external_link : null);
  const done = (text: string) => () => {
    toast(text);
    detail.reload();
  };
  const otherMetadata = Object.entries(a.metadata ?? {}).filter(([key]) => !(key in BADGE_NAMES));

  return (
    <div className="page">
      <PageHeader
        crumbs={<Link href="/authors">Authors</Link>}
        title={
          <span className="row" style={{ gap: 12 }}>
            <Avatar url={a.profile_picture} name={name} />
            <span className="stack-sm" style={{ gap: 2 }}>
              <span className="break" data-testid="author-name">{name}</span>
              <span className="small muted break" style={{ fontWeight: 400 }}>
                {a.external_id}
                {a.email ? ` · ${a.email}` : ''}
              </span>
            </span>
          </span>
        }
        sub={
          <span className="row" style={{ marginTop: 6 }}>
            <StatusBadge status={a.status} until={d.block?.until} />
            <TrustBadge level={d.trust.level} manual={d.trust.manual} />
            {d.metadataBadges.map((b) => (
              <Badge key={b.key} tone={b.value ? 'success' : 'neutral'} outline={!b.value}>
                {b.value ? '✓' : '✗'} {BADGE_NAMES[b.key] ?? b.key}
                {b.value === null ? ' (unknown)' : ''}
              </Badge>
            ))}
            {link && (
              <a href={link} target="_blank" rel="noopener noreferrer" data-testid="external-link">
                Profile on your platform ↗
              </a>
            )}
          </span>
        }
        actions={
          <>
            {a.status === 'enabled' ? (
              <>
                <Button onClick={() => setDialog('suspend')}>Suspend for…</Button>
                <Button variant="danger" onClick={() => setDialog('block')}>
                  Block
                </Button>
              </>
            ) : (
              <Button variant="primary" onClick={() => setDialog('unblock')}>
                Unblock
              </Button>
            )}
            <Button onClick={() => setDialog('trust')}>Change trust level</Button>
          </>
        }
      />
      <div className="grid-2">
        <div className="stack">
          {d.block && (
            <div className={d.block.status === 'blocked' ? 'alert alert-error' : 'alert alert-warning'} role="status" data-testid="block-status">
              <strong>{d.block.status === 'blocked' ? 'Blocked until unblocked' : 'Suspended'}</strong>
              {d.block.status === 'suspended' && d.block.until && (
                <>
                  {' '}until {formatDate(d.block.until)} · <span data-testid="block-remaining">{formatDuration(remaining ?? d.block.remainingMs ?? 0)} left</span>
                </>
              )}
              {d.block.reason && <div className="small">Reason: {d.block.reason}</div>}
            </div>
          )}
          <Card title="Counters" id="counters">
            <div className="card-body grid-cards" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))' }}>
              {[
                ['Content', a.metrics.total_content],
                ['Flagged', a.metrics.flagged_content],
                ['Flagged share', a.metrics.flagged_content_ratio !== undefined && a.metrics.flagged_content_ratio !== null ? `${Math.round(a.metrics.flagged_content_ratio * 100)}%` : null],
                ['Violations', a.metrics.violation_count],
                ['Reports', a.metrics.report_count],
                ['Avg. sentiment', a.metrics.average_sentiment !== null && a.metrics.average_sentiment !== undefined ? a.metrics.average_sentiment.toFixed(2) : null],
              ].map(([label, value]) => (
                <div className="stat" key={String(label)}>
                  <span className="label">{label}</span>
                  <span className="figure">{value ?? '—'}</span>
                </div>
              ))}
            </div>
            <div className="card-body small muted" style={{ paddingTop: 0 }}>
              Member since {formatDate(a.first_seen)} · last active {formatDate(a.last_seen)} · last incident {formatDate(a.last_incident)}
            </div>
          </Card>
          <Card title="Recent content" id="recent">
            {d.recentContent.length === 0 ? (
              <div className="card-body muted">No stored content.</div>
            ) : (
              <div className="table-wrap">
                <table className="table" aria-label="Recent content">
                  <thead>
                    <tr>
                      <th>Content</th>
                      <th>Verdict</th>
                      <th>Severity</th>
                      <th>Received</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.recentContent.map((c) => (
                      <tr key={c.id}>
                        <td>
                          <Link href={path`/items/${c.id}`} className="preview" style={{ color: 'inherit' }}>
                            <VisibleText text={c.preview || '(no text)'} />
                          </Link>
                          <div className="row small" style={{ gap: 4, marginTop: 3 }}>
                            {c.labels.filter((l) => l.flagged).map((l) => (
                              <Badge key={l.label} tone="danger" outline>
                                {l.label.replace(/_/g, ' ')}
                              </Badge>
                            ))}
                          </div>
                        </td>
                        <td>
                          <RecommendationBadge action={c.recommendation} />
                        </td>
                        <td>
                          <Severity value={c.severity} />
                        </td>
                        <td className="small">
                          <Time ms={c.createdAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
          <Card title="Audit trail" id="author-audit">
            <div className="card-body">
              <AuditTrail entries={d.audit} empty="Nothing recorded about this author yet." />
            </div>
          </Card>
        </div>
        <div className="stack">
          <CustomDataPanel projectId={project.projectId} authorId={authorId} enabled={d.customData.enabled} />
          <Card title="Trust level" id="trust">
            <div className="card-body stack-sm">
              <div className="row">
                <TrustBadge level={d.trust.level} manual={d.trust.manual} /> <span className="muted small">level {d.trust.level}</span>
              </div>
              <span className="small">
                Automatic: <strong>{d.trust.automaticName || trustName(d.trust.automaticLevel)}</strong> ({d.trust.automaticLevel})
              </span>
              {d.trust.manual && (
                <span className="small" data-testid="trust-override">
                  Set manually to <strong>{trustName(d.trust.manualLevel)}</strong>
                  {d.trust.manualSetBy ? ` by ${d.trust.manualSetBy.email}` : ''}
                  {d.trust.manualSetAt ? ` on ${formatDate(d.trust.manualSetAt)}` : ''}
                  {d.trust.manualReason ? `: “${d.trust.manualReason}”` : ''}
                </span>
              )}
            </div>
          </Card>
          <Card title="Risk" id="risk">
            <div className="card-body stack-sm">
              <span>
                Risk level <strong>{d.risk.level}</strong> <span className="muted">({RISK_NAMES[Math.max(0, Math.min(4, Math.round(d.risk.level)))] ?? d.risk.level})</span>
              </span>
              {d.risk.signals.length === 0 ? (
                <span className="small muted">No risk signal.</span>
              ) : (
                <ul className="small" style={{ margin: 0, paddingLeft: 18 }}>
                  {d.risk.signals.map((s) => (
                    <li key={s.id}>{s.explanation}</li>
                  ))}
                </ul>
              )}
            </div>
          </Card>
          {otherMetadata.length > 0 && (
            <Card title="Metadata" id="author-metadata">
              <div className="card-body">
                <dl className="dl">
                  {otherMetadata.map(([key, value]) => (
                    <div key={key} style={{ display: 'contents' }}>
                      <dt className="break">{key}</dt>
                      <dd className="mono">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            </Card>
          )}
        </div>
      </div>
      {(dialog === 'block' || dialog === 'suspend') && (
        <BlockDialog name={name} temporary={dialog === 'suspend'} onClose={() => setDialog(null)} onConfirm={(body) => blockAuthor(project.projectId, authorId, body).then(done(dialog === 'block' ? 'Author blocked' : 'Author suspended'))} />
      )}
      {dialog === 'unblock' && <UnblockDialog name={name} onClose={() => setDialog(null)} onConfirm={(body) => unblockAuthor(project.projectId, authorId, body).then(done('Author unblocked'))} />}
      {dialog === 'trust' && <TrustDialog current={d.trust.manual ? d.trust.manualLevel : null} onClose={() => setDialog(null)} onConfirm={(body) => setTrustLevel(project.projectId, authorId, body).then(done('Trust level saved'))} />}
    </div>
  );
}
