import { useState } from 'react';
import { ApiError } from '../api/client.ts';
import { Badge, Button, Card, ConfirmDialog, Empty, ErrorNote, Spinner, Time } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { SecretCard } from '../components/webhooks/secret-card.tsx';
import { deleteWebhook, useWebhooks, type Webhook } from '../components/webhooks/use-webhooks.ts';
import { WebhookDialog } from '../components/webhooks/webhook-dialog.tsx';
import { Link, path } from '../router.tsx';
import { ForbiddenPage } from './not-found.tsx';

export function WebhooksPage() {
  const project = useProject();
  const toast = useToast();
  const webhooks = useWebhooks(project.projectId);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  if (webhooks.error instanceof ApiError && webhooks.error.status === 403) return <ForbiddenPage what="the webhooks" />;
  const list = webhooks.data?.webhooks ?? [];
  return (
    <div className="page" style={{ maxWidth: 1100 }}>
      <PageHeader
        title="Webhooks"
        sub="Endpoints of your platform that receive moderation events, signed, retried with backoff until they answer 2xx"
        actions={
          <Button variant="primary" onClick={() => setEditing('new')}>
            Add endpoint
          </Button>
        }
      />
      <SecretCard projectId={project.projectId} />
      {webhooks.error !== undefined && <ErrorNote error={webhooks.error} onRetry={webhooks.reload} />}
      {!webhooks.data && webhooks.loading && <Spinner />}
      {webhooks.data && (
        <Card title="Endpoints">
          {list.length === 0 ? (
            <Empty>No endpoint yet. Add one to hear of new queue items, actions and author changes as they happen.</Empty>
          ) : (
            <div className="table-wrap">
              <table className="table" aria-label="Webhook endpoints">
                <thead>
                  <tr>
                    <th>Endpoint</th>
                    <th>Events</th>
                    <th>Last delivery</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {list.map((w) => (
                    <tr key={w.id} data-webhook={w.name}>
                      <td>
                        <Link href={path`/configure/webhooks/${w.id}`} style={{ fontWeight: 600 }}>
                          {w.name}
                        </Link>{' '}
                        {!w.enabled && <Badge tone="warning">Disabled</Badge>}
                        {w.moderationActionId && <Badge outline>Action webhook</Badge>}
                        <div className="small mono break">{w.url}</div>
                      </td>
                      <td className="small">{w.moderationActionId ? <span className="muted">When its action runs</span> : w.events.length >= (webhooks.data?.eventTypes.length ?? 0) ? 'All events' : w.events.join(', ')}</td>
                      <td>
                        {w.lastDelivery === null ? (
                          <span className="muted">None yet</span>
                        ) : (
                          <span className="stack-sm">
                            <Badge tone={w.lastDelivery.success ? 'success' : 'danger'}>
                              {w.lastDelivery.success ? 'Delivered' : 'Failed'} {w.lastDelivery.statusCode ?? ''}
                            </Badge>
                            <Time ms={w.lastDelivery.at} />
                          </span>
                        )}
                      </td>
                      <td style={{ textAlign: 'right' }}>
                        <span className="row" style={{ justifyContent: 'flex-end' }}>
                          <Link className="btn btn-sm" href={path`/configure/webhooks/${w.id}`}>
                            Deliveries
                          </Link>
                          <Button size="sm" onClick={() => setEditing(w)} aria-label={`Edit ${w.name}`}>
                            Edit
                          </Button>
                          <Button size="sm" variant="danger" onClick={() => setDeleting(w)} aria-label={`Delete ${w.name}`}>
                            Delete
                          </Button>
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      )}
      {editing && webhooks.data && (
        <WebhookDialog
          projectId={project.projectId}
          {...(editing !== 'new' ? { webhook: editing } : {})}
          eventTypes={webhooks.data.eventTypes}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            toast(`Webhook "${saved.name}" saved`);
            webhooks.reload();
          }}
        />
      )}
      {deleting && (
        <DeleteWebhookDialog
          webhook={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            toast(`Webhook "${deleting.name}" deleted`);
            setDeleting(null);
            webhooks.reload();
          }}
        />
      )}
    </div>
  );
}

function DeleteWebhookDialog({ webhook, onClose, onDeleted }: { webhook: Webhook; onClose: () => void; onDeleted: () => void }) {
  const project = useProject();
  return (
    <ConfirmDialog title={`Delete ${webhook.name}?`} confirmLabel="Delete endpoint" busyLabel="Deleting…" onConfirm={() => deleteWebhook(project.projectId, webhook.id)} onDone={onDeleted} onClose={onClose}>
      <p>Deliveries still waiting for this endpoint are dropped, and its delivery log goes with it.</p>
    </ConfirmDialog>
  );
}
