import { ApiError } from '../api/client.ts';
import { useEffect, useRef, useState } from 'react';
import { Badge, Card, Empty, ErrorNote, Field, Spinner, timeAgo } from '../components/kit/kit.tsx';
import { CountBars, PolicyShareChart, SubmissionsChart, VerdictsChart } from '../components/overview/charts.tsx';
import { formatBucket, formatMs, MAX_HOURLY_MS, PERIODS, useOverview, type Overview, type PeriodKey } from '../components/overview/use-overview.ts';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, path, setSearch, useLocation } from '../router.tsx';
import { ForbiddenPage } from './not-found.tsx';

const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)} %` : '—');

/** A queue's open items as last counted in the background, and how long ago. */
function OpenNow({ queue }: { queue: Overview['queues'][number] }) {
  // "counted … ago" keeps ageing between the page's loads (once a minute).
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 10_000);
    return () => window.clearInterval(timer);
  }, []);
  if (queue.open === null) {
    return queue.countError === null ? <span className="muted">counting…</span> : <span className="muted" title={queue.countError}>not counted yet</span>;
  }
  const when = `counted ${timeAgo(Math.min(queue.countedAt ?? now, now), now)}`;
  return (
    <>
      <span className="mono">{queue.open.toLocaleString('en')}</span>
      <div className="muted small" title={queue.countError === null ? `${when}, in ${formatMs(queue.countMs)}` : `the last count failed (${queue.countError}); this is the one before`}>
        {when}
      </div>
    </>
  );
}

export function OverviewPage() {
  const project = useProject();
  const { search } = useLocation();
  const periodKey = (PERIODS.some((p) => p.key === search.get('period')) ? search.get('period') : '7d') as PeriodKey;
  const period = PERIODS.find((p) => p.key === periodKey)!;
  const bucketParam = search.get('bucket');
  const bucket = bucketParam === 'hour' || bucketParam === 'day' ? bucketParam : null;
  const channelId = search.get('channel');
  const overview = useOverview(project.projectId, periodKey, bucket, channelId);

  // A queue not counted yet is usually counted within seconds: look again soon rather than at the minute's refresh,
  // less often each time (2 s, 4 s, … up to a minute) so a count that takes minutes does not reload every tab every 2 s.
  const counting = overview.data?.queues.some((q) => q.open === null && q.countError === null) ?? false;
  const { reload } = overview;
  const countingLooks = useRef(0);
  useEffect(() => {
    if (!counting) {
      countingLooks.current = 0;
      return;
    }
    const delay = Math.min(60_000, 2_000 * 2 ** countingLooks.current);
    countingLooks.current += 1;
    const timer = window.setTimeout(reload, delay);
    return () => window.clearTimeout(timer);
  }, [counting, overview.data, reload]);

  if (overview.error instanceof ApiError && overview.error.status === 403) return <ForbiddenPage what="the overview" />;
  const o = overview.data;
  const policies = o ? Object.entries(o.totals.policies).sort((a, b) => b[1] - a[1]).map(([id]) => id) : [];
  const maxReviewer = Math.max(1, ...(o?.reviewers.map((r) => r.decisions) ?? []));
  const maxAction = Math.max(1, ...(o?.actions.map((a) => a.count) ?? []));

  return (
    <div className="page">
      <PageHeader title="Overview" sub={`${project.projectName}: what is submitted, what is flagged, and how review keeps up`} />
      <Card>
        <div className="card-body filters" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
          <Field label="Period">
            {(id) => (
              <select id={id} className="select" value={periodKey} onChange={(e) => setSearch({ period: e.target.value, bucket: null })}>
                {PERIODS.map((p) => (
                  <option key={p.key} value={p.key}>
                    {p.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Points per">
            {(id) => (
              <select id={id} className="select" value={o?.period.bucket ?? bucket ?? period.bucket} onChange={(e) => setSearch({ bucket: e.target.value })}>
                <option value="hour" disabled={period.ms > MAX_HOURLY_MS}>
                  Hour
                </option>
                <option value="day">Day (UTC)</option>
              </select>
            )}
          </Field>
          <Field label="Channel">
            {(id) => (
              <select id={id} className="select" value={channelId ?? ''} onChange={(e) => setSearch({ channel: e.target.value || null })}>
                <option value="">All channels</option>
                {o?.channels.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.key})
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </Card>
      {overview.error !== undefined && <ErrorNote error={overview.error} onRetry={overview.reload} />}
      {!o && overview.loading && <Spinner />}
      {o && (
        <div className="stack" style={{ marginTop: 14 }}>
          <div className="grid-cards" data-testid="overview-totals">
            <Figure label="Submissions" value={o.totals.submissions.toLocaleString('en')} />
            <Figure label="Flagged" value={o.totals.flagged.toLocaleString('en')} note={percent(o.totals.flagged, o.totals.submissions)} />
            <Figure label="Verdicts allow / review / reject" value={`${o.totals.allow.toLocaleString('en')} / ${o.totals.review.toLocaleString('en')} / ${o.totals.reject.toLocaleString('en')}`} />
            <Figure label="Median time to review" value={formatMs(o.review.medianReviewMs)} note={`${o.review.decisions.toLocaleString('en')} decisions`} />
            <Figure label="New authors" value={o.totals.newAuthors.toLocaleString('en')} note={channelId ? 'all channels' : undefined} />
          </div>
          <div className="grid-charts">
            <Card title={`Submissions per ${o.period.bucket}`}>
              <div className="card-body">
                <SubmissionsChart series={o.series} bucket={o.period.bucket} />
              </div>
            </Card>
            <Card title="Verdicts">
              <div className="card-body">
                <VerdictsChart series={o.series} bucket={o.period.bucket} />
              </div>
            </Card>
            <Card title="Flagged share per policy">
              <div className="card-body">
                {policies.length === 0 ? <Empty>No policy flagged anything in this period.</Empty> : <PolicyShareChart series={o.series} bucket={o.period.bucket} policies={policies.slice(0, 8)} />}
              </div>
            </Card>
            <Card title="New authors">
              <div className="card-body">
                <CountBars data={o.series.map((p) => ({ label: formatBucket(p.t, o.period.bucket), value: p.newAuthors }))} testId="chart-authors" label="New authors" name="New authors" colour="#0b5c8a" />
              </div>
            </Card>
          </div>
          <div className="grid-charts">
            <Card title="Queues">
              {o.queues.length === 0 ? (
                <Empty>No queue yet.</Empty>
              ) : (
                <div className="table-wrap">
                  <table className="table" aria-label="Queue backlog">
                    <thead>
                      <tr>
                        <th>Queue</th>
                        <th style={{ textAlign: 'right' }} title="Items the queue holds that are not resolved, whatever the period: counted in the background every minute or so">
                          Open now
                        </th>
                        <th style={{ textAlign: 'right' }}>Reviewed</th>
                        <th style={{ textAlign: 'right' }}>Median time to review</th>
                      </tr>
                    </thead>
                    <tbody>
                      {o.queues.map((q) => (
                        <tr key={q.id}>
                          <td>
                            <Link href={path`/queues/${q.id}`}>{q.name}</Link>
                          </td>
                          <td style={{ textAlign: 'right' }} data-testid="queue-open" data-open={q.open ?? ''}>
                            <OpenNow queue={q} />
                          </td>
                          <td style={{ textAlign: 'right' }} className="mono">
                            {q.reviewed.toLocaleString('en')}
                          </td>
                          <td style={{ textAlign: 'right' }} className="mono">
                            {formatMs(q.medianReviewMs)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </Card>
            <Card title="Authors by trust level">
              <div className="card-body">
                <CountBars data={o.trustLevels.map((l) => ({ label: l.name, value: l.authors }))} testId="chart-trust" label="Authors by trust level" name="Authors" colour="#5b32b4" />
              </div>
            </Card>
            <Card title="Top reviewers">
              <Ranking rows={o.reviewers.map((r) => ({ name: r.actor, badge: r.kind === 'key' ? 'API' : null, value: r.decisions }))} max={maxReviewer} empty="No decision in this period." label="Top reviewers" />
            </Card>
            <Card title="Top actions">
              <Ranking rows={o.actions.map((a) => ({ name: a.name, badge: null, value: a.count }))} max={maxAction} empty="No action in this period." label="Top actions" />
            </Card>
          </div>
          <p className="small muted">
            Times are UTC. Figures count stored items (doNotStore requests are not stored) when they were first submitted; the queue column counts the items of this period still open in each queue, among the period’s newest 100,000 items and up to 10,000 (“≥” when there may be more).
          </p>
        </div>
      )}
    </div>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string | undefined }) {
  return (
    <div className="card card-body stat">
      <span className="label">{label}</span>
      <span className="figure">{value}</span>
      {note && <span className="small muted">{note}</span>}
    </div>
  );
}

function Ranking({ rows, max, empty, label }: { rows: { name: string; badge: string | null; value: number }[]; max: number; empty: string; label: string }) {
  if (rows.length === 0) return <Empty>{empty}</Empty>;
  return (
    <div className="card-body stack-sm" aria-label={label} role="list">
      {rows.map((r) => (
        <div key={r.name} className="score-row" role="listitem" style={{ gridTemplateColumns: 'minmax(120px, 1fr) minmax(80px, 2fr) 60px' }}>
          <span className="break">
            {r.name} {r.badge && <Badge outline>{r.badge}</Badge>}
          </span>
          <span className="meter" aria-hidden="true">
            <span style={{ width: `${(r.value / max) * 100}%` }} />
          </span>
          <span className="mono" style={{ textAlign: 'right' }}>
            {r.value.toLocaleString('en')}
          </span>
        </div>
      ))}
    </div>
  );
}
