import { useState } from 'react';
import { ApiError, errorMessage } from '../api/client.ts';
import { actorName } from '../components/audit/types.ts';
import { StatusBadge, TrustBadge } from '../components/authors/badges.tsx';
import { ActionDialog, type ActionInput } from '../components/items/action-dialog.tsx';
import { ItemContent, UnicodeFindings } from '../components/items/item-content.tsx';
import { PolicyResults, Recommendation } from '../components/items/policy-results.tsx';
import { executeAction, resolveItem, shortcutFor, unresolveItem, useQueueActions } from '../components/items/use-actions.ts';
import { useClaim, useItem } from '../components/items/use-item.ts';
import { Badge, Button, Card, Dialog, ErrorNote, Field, formatDate, Kbd, Severity, Spinner, Time } from '../components/kit/kit.tsx';
import { useShortcuts, type Shortcut } from '../components/kit/shortcuts.tsx';
import { useToast } from '../components/kit/toast.tsx';
import type { ActionView } from '../components/queues/types.ts';
import { queueOrder } from '../components/queues/use-queues.ts';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, navigate, path } from '../router.tsx';
import { NotFoundPage } from './not-found.tsx';

/** An item, from a queue (`queueId`: its actions, resolve, next/previous) or on its own (read-only). */
export function ItemPage({ queueId, itemId }: { queueId: string | null; itemId: string }) {
  const project = useProject();
  const toast = useToast();
  const detail = useItem(project.projectId, itemId, queueId);
  const actions = useQueueActions(project.projectId, queueId);
  const { claim, heldBy, takeOver } = useClaim(project.projectId, itemId, detail.data !== undefined);
  const [pending, setPending] = useState<ActionView | null>(null);
  const [resolving, setResolving] = useState<'resolve' | 'unresolve' | null>(null);
  const [comment, setComment] = useState('');
  const order = queueId ? queueOrder(queueId) : { ids: [], search: '' };
  const at = order.ids.indexOf(itemId);
  const queueHref = queueId ? path`/queues/${queueId}` + order.search : '/queues';
  const goTo = (offset: number) => {
    const next = order.ids[at + offset];
    if (queueId && at >= 0 && next) navigate(path`/queues/${queueId}/items/${next}`);
    else navigate(queueHref);
  };

  const run = async (action: ActionView, input: ActionInput) => {
    const result = await executeAction(project.projectId, { actionId: action.id, ...(queueId ? { queueId } : {}), contentIds: [itemId], ...input });
    setPending(null);
    toast(`${result.actionName}: done`);
    if (action.queueBehaviour === 'REMOVE') goTo(1);
    else detail.reload();
  };

  const changeResolution = async () => {
    if (!resolving || !queueId) return;
    try {
      if (resolving === 'resolve') await resolveItem(project.projectId, queueId, itemId, comment || undefined);
      else await unresolveItem(project.projectId, queueId, itemId, comment || undefined);
      toast(resolving === 'resolve' ? 'Resolved' : 'Back in the queue');
      setResolving(null);
      setComment('');
      if (resolving === 'resolve') goTo(1);
      else detail.reload();
    } catch (error) {
      toast(errorMessage(error), { error: true });
      setResolving(null);
      detail.reload();
    }
  };

  const resolved = detail.data?.queue?.status === 'resolved';
  const shortcuts: Shortcut[] = [
    { key: 'j', description: 'Next item of the queue', run: () => goTo(1) },
    { key: 'k', description: 'Previous item of the queue', run: () => goTo(-1) },
    { key: 'Escape', description: 'Back to the queue', run: () => navigate(queueHref) },
    ...(queueId ? [{ key: 'e', description: resolved ? 'Unresolve this item' : 'Resolve this item', run: () => setResolving(resolved ? 'unresolve' : 'resolve') }] : []),
    ...(actions.data ?? []).flatMap((action) => {
      const key = shortcutFor(action);
      return key ? [{ key, description: action.name, run: () => setPending(action) }] : [];
    }),
  ];
  useShortcuts(shortcuts);

  if (detail.error instanceof ApiError && detail.error.status === 404) return <NotFoundPage what="This item" />;
  const d = detail.data;
  return (
    <div className="page">
      <PageHeader
        crumbs={
          <>
            <Link href="/queues">Review queues</Link> / <Link href={queueHref}>{d?.queue?.name ?? 'Queue'}</Link>
          </>
        }
        title={
          <span className="row">
            <span className="break">Item {itemId}</span>
            {d?.queue && (d.queue.status === 'resolved' ? <Badge tone="success">resolved</Badge> : <Badge tone="warning">pending</Badge>)}
            {d?.item.shadowFlagged && <Badge tone="violet">shadow-flagged</Badge>}
          </span>
        }
        sub={d && <>Received {formatDate(d.item.createdAt)} · {d.item.contentType}{d.item.channelId ? ` · channel ${d.item.channelId}` : ''}{d.item.conversationId ? ` · conversation ${d.item.conversationId}` : ''}</>}
        actions={
          <>
            {at >= 0 && <span className="small muted">{at + 1} of {order.ids.length} on the page</span>}
            <Button size="sm" onClick={() => goTo(-1)} disabled={at <= 0} aria-label="Previous item">
              <Kbd>k</Kbd> Previous
            </Button>
            <Button size="sm" onClick={() => goTo(1)} aria-label="Next item">
              Next <Kbd>j</Kbd>
            </Button>
          </>
        }
      />
      {detail.error !== undefined && <ErrorNote error={detail.error} onRetry={detail.reload} />}
      {!d && detail.loading && <Spinner label="Loading the item" />}
      {heldBy && (
        <div className="alert alert-info row-between" role="status" style={{ marginBottom: 12 }}>
          <span data-testid="claimed-by">{heldBy}</span>
          <Button size="sm" onClick={takeOver}>
            Take over
          </Button>
        </div>
      )}
      {d && (
        <div className="grid-2">
          <div className="stack">
            {!queueId && (
              <div className="alert alert-info" role="note">
                Open this item from a review queue to act on it there.
              </div>
            )}
            {queueId && <Card title="Decide" id="decide">
              <div className="card-body stack">
                {d.queue?.status === 'resolved' && (
                  <div className="alert alert-success" role="status">
                    Resolved {d.queue.resolvedBy ? `by ${d.queue.resolvedBy.email} ` : ''}
                    {d.queue.resolvedAt ? formatDate(d.queue.resolvedAt) : ''}
                    {d.queue.comment ? `: ${d.queue.comment}` : ''}
                  </div>
                )}
                <div className="action-bar" aria-label="Actions">
                  {(actions.data ?? []).map((action) => {
                    const key = shortcutFor(action);
                    return (
                      <Button key={action.id} onClick={() => setPending(action)} variant={action.type === 'ITEM_REJECT' ? 'danger' : action.type === 'ITEM_ALLOW' ? 'primary' : 'default'} title={action.description ?? undefined}>
                        {action.name} {key && <Kbd>{key}</Kbd>}
                      </Button>
                    );
                  })}
                </div>
                <div className="row">
                  {resolved ? (
                    <Button onClick={() => setResolving('unresolve')}>
                      Unresolve <Kbd>e</Kbd>
                    </Button>
                  ) : (
                    <Button onClick={() => setResolving('resolve')}>
                      Resolve without action <Kbd>e</Kbd>
                    </Button>
                  )}
                  {claim && <span className="small muted">You are reviewing this item; others see it as taken.</span>}
                </div>
              </div>
            </Card>}
            <Card title="Content" id="content">
              <div className="card-body">
                <ItemContent detail={d} />
              </div>
            </Card>
            {d.unicode && d.unicode.some((u) => u.findings.length > 0) && (
              <Card title="Unicode spoofing" id="unicode">
                <div className="card-body">
                  <UnicodeFindings detail={d} />
                </div>
              </Card>
            )}
            <Card title="Policies" id="policies">
              <div className="card-body">
                <PolicyResults detail={d} />
              </div>
            </Card>
          </div>
          <div className="stack">
            <Card title="Verdict" id="verdict">
              <div className="card-body stack">
                <Recommendation detail={d} />
                <dl className="dl">
                  <dt>Severity</dt>
                  <dd>
                    <Severity value={d.evaluation.severity_score} />
                  </dd>
                  <dt>Flagged</dt>
                  <dd>{d.evaluation.flagged ? 'yes' : 'no'} ({Math.round(d.evaluation.flag_probability * 100)}%)</dd>
                  {d.evaluation.unicode_spoofed !== undefined && (
                    <>
                      <dt>Unicode spoofed</dt>
                      <dd>{d.evaluation.unicode_spoofed ? 'yes' : 'no'}</dd>
                    </>
                  )}
                  {d.insights.map((i) => (
                    <div key={i.id} style={{ display: 'contents' }}>
                      <dt>{i.id}</dt>
                      <dd>{i.value ?? (i.probability !== undefined ? `${Math.round(i.probability * 100)}%` : '—')}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            </Card>
            <Card title="Author" id="author">
              <div className="card-body">
                {d.author ? (
                  <div className="stack-sm">
                    <Link href={path`/authors/${d.author.external_id}`} className="break" style={{ fontWeight: 600 }}>
                      {d.author.name || d.author.external_id}
                    </Link>
                    <span className="small muted break">{d.author.external_id}</span>
                    <span className="row">
                      <TrustBadge level={d.author.trust_level?.level} manual={d.author.trust_level?.manual} />
                      <StatusBadge status={d.author.status} until={d.author.block?.until} />
                    </span>
                  </div>
                ) : (
                  <span className="muted">No author was sent with this item.</span>
                )}
              </div>
            </Card>
            {d.item.metadata && Object.keys(d.item.metadata).length > 0 && (
              <Card title="Metadata" id="metadata">
                <div className="card-body">
                  <dl className="dl">
                    {Object.entries(d.item.metadata).map(([key, value]) => (
                      <div key={key} style={{ display: 'contents' }}>
                        <dt className="break">{key}</dt>
                        <dd className="mono">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
                      </div>
                    ))}
                  </dl>
                </div>
              </Card>
            )}
            <Card title="History" id="history">
              <div className="card-body">
                {d.history.length === 0 ? (
                  <span className="muted">Nothing done to this item yet.</span>
                ) : (
                  <ul className="timeline">
                    {d.history.map((h) => (
                      <li key={h.id}>
                        <div className="row-between">
                          <strong>{h.actionName ?? h.kind}</strong>
                          <Time ms={h.createdAt} />
                        </div>
                        <div className="small muted">
                          by {actorName(h.actor)}
                          {h.value ? ` · ${h.value}` : ''}
                          {h.comment ? ` · “${h.comment}”` : ''}
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </Card>
          </div>
        </div>
      )}
      {pending && <ActionDialog action={pending} count={1} noun="item" onClose={() => setPending(null)} onConfirm={(input) => run(pending, input)} />}
      {resolving && (
        <Dialog
          title={resolving === 'resolve' ? 'Resolve this item' : 'Put this item back in the queue'}
          onClose={() => setResolving(null)}
          footer={
            <>
              <Button onClick={() => setResolving(null)} data-close>
                Cancel
              </Button>
              <Button variant="primary" onClick={() => void changeResolution()}>
                {resolving === 'resolve' ? 'Resolve' : 'Unresolve'}
              </Button>
            </>
          }
        >
          <form onSubmit={(e) => {
            e.preventDefault();
            void changeResolution();
          }}>
            <Field label="Comment (optional)">{(id) => <input id={id} className="input" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={5000} />}</Field>
          </form>
        </Dialog>
      )}
    </div>
  );
}
