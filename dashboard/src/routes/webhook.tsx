import { useState } from 'react';
import { ApiError, errorMessage } from '../api/client.ts';
import { Badge, Button, Card, Empty, ErrorNote, formatDate, Spinner, Time } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { redeliver, useDeliveryLog, useWebhooks } from '../components/webhooks/use-webhooks.ts';
import { Link } from '../router.tsx';
import { ForbiddenPage, NotFoundPage } from './not-found.tsx';

/** One endpoint's delivery log: what is waiting (with its next retry) and every attempt made. */
export function WebhookPage({ webhookId }: { webhookId: string }) {
  const project = useProject();
  const toast = useToast();
  const webhooks = useWebhooks(project.projectId);
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors[cursors.length - 1] ?? null;
  const log = useDeliveryLog(project.projectId, webhookId, before);

  if (log.error instanceof ApiError && log.error.status === 403) return <ForbiddenPage what="the webhooks" />;
  if (log.error instanceof ApiError && log.error.status === 404) return <NotFoundPage what="This webhook" />;
  const webhook = webhooks.data?.webhooks.find((w) => w.id === webhookId);

  const send = async (deliveryId: string) => {
    try {
      await redeliver(project.projectId, deliveryId);
      toast('Queued for delivery again');
      window.setTimeout(log.reload, 800);
    } catch (failure) {
      toast(errorMessage(failure), { error: true });
    }
  };

  return (
    <div className="page" style={{ maxWidth: 1200 }}>
      <PageHeader
        crumbs={<Link href="/configure/webhooks">Webhooks</Link>}
        title={webhook ? `${webhook.name}: deliveries` : 'Deliveries'}
        sub={webhook ? <span className="mono break">{webhook.url}</span> : undefined}
        actions={<Button onClick={log.reload}>Refresh</Button>}
      />
      {log.error !== undefined && <ErrorNote error={log.error} onRetry={log.reload} />}
      {!log.data && log.loading && <Spinner />}
      {log.data && log.data.pending.length > 0 && (
        <Card title="Waiting to be delivered">
          <div className="table-wrap">
            <table className="table" aria-label="Pending deliveries">
              <thead>
                <tr>
                  <th>Event</th>
                  <th>Status</th>
                  <th>Attempts</th>
                  <th>Next attempt</th>
                  <th>Last error</th>
                </tr>
              </thead>
              <tbody>
                {log.data.pending.map((p) => (
                  <tr key={p.outboxId}>
                    <td>
                      <code>{p.eventType}</code>
                      <div className="small mono muted">{p.eventId}</div>
                    </td>
                    <td>{p.attempts === 0 ? <Badge tone="info">Queued</Badge> : <Badge tone="warning">Retrying</Badge>}</td>
                    <td className="mono">
                      {p.attempts} of {log.data!.maxAttempts}
                    </td>
                    <td>
                      <time dateTime={new Date(p.nextAttemptAt).toISOString()}>{formatDate(p.nextAttemptAt)}</time>
                    </td>
                    <td className="small break">{p.lastError ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      {log.data && (
        <Card title="Attempts, newest first">
          {log.data.deliveries.length === 0 ? (
            <Empty>No attempt yet. Events this endpoint subscribes to appear here as they are sent.</Empty>
          ) : (
            <div className="table-wrap">
              <table className="table" aria-label="Delivery attempts">
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Status</th>
                    <th>Attempt</th>
                    <th>Response</th>
                    <th>Time</th>
                    <th>Sent</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {log.data.deliveries.map((d) => (
                    <tr key={d.id} data-delivery={d.id}>
                      <td>
                        <code>{d.eventType}</code>
                        <div className="small mono muted">{d.eventId}</div>
                      </td>
                      <td>
                        <Badge tone={d.success ? 'success' : 'danger'}>{d.success ? 'Delivered' : 'Failed'}</Badge>
                        {d.error && !d.success && <div className="small break">{d.error}</div>}
                      </td>
                      <td className="mono">
                        {d.attempt}
                        {d.manual && (
                          <>
                            {' '}
                            <Badge outline>Redelivery</Badge>
                          </>
                        )}
                      </td>
                      <td className="mono">{d.statusCode ?? '—'}</td>
                      <td className="mono">{d.durationMs} ms</td>
                      <td>
                        <Time ms={d.createdAt} />
                      </td>
                      <td style={{ textAlign: 'right' }}>
                        <Button size="sm" onClick={() => void send(d.id)} aria-label={`Redeliver ${d.eventId}`}>
                          Redeliver
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav className="pager" aria-label="Pages">
            <span className="muted small">Page {cursors.length + 1}</span>
            <span className="row">
              <Button size="sm" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
                ← Newer
              </Button>
              <Button size="sm" disabled={!log.data.nextCursor} onClick={() => setCursors((c) => [...c, log.data!.nextCursor!])}>
                Older →
              </Button>
            </span>
          </nav>
        </Card>
      )}
    </div>
  );
}
