import { useEffect, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { ConfigError } from '../components/channels/config-error.tsx';
import { policyName, useCatalog, useChannels } from '../components/channels/use-channels.ts';
import { Button, Card, Dialog, ErrorNote, Field, Spinner } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { FilterBuilder } from '../components/queues/filter-builder.tsx';
import { cleanFilter, createQueue, deleteQueue, updateQueue, useConfigActions, useFilterPreview, type FullQueueFilter } from '../components/queues/use-queue-config.ts';
import { useQueues } from '../components/queues/use-queues.ts';
import type { QueueView } from '../components/queues/types.ts';
import { api, projectPath, seg } from '../api/client.ts';
import { useResource } from '../api/use-resource.ts';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, navigate, path } from '../router.tsx';
import { ForbiddenPage, NotFoundPage } from './not-found.tsx';

export function QueuesSettingsPage() {
  const project = useProject();
  const queues = useQueues(project.projectId);
  return (
    <div className="page">
      <PageHeader
        title="Queues"
        sub="A queue is a saved filter over stored items; moderators work through what it selects."
        actions={
          <Link className="btn btn-primary" href="/configure/queues/new">
            New queue
          </Link>
        }
      />
      {queues.error !== undefined && <ErrorNote error={queues.error} onRetry={queues.reload} />}
      {!queues.data && queues.loading && <Spinner />}
      {queues.data && (
        <Card>
          <div className="table-wrap">
            <table className="table" aria-label="Queue settings">
              <thead>
                <tr>
                  <th>Queue</th>
                  <th>Filter</th>
                  <th style={{ textAlign: 'right' }}>Unresolved</th>
                </tr>
              </thead>
              <tbody>
                {queues.data.map((q) => (
                  <tr key={q.id}>
                    <td>
                      <Link href={path`/configure/queues/${q.id}`} style={{ fontWeight: 600 }}>
                        {q.name}
                      </Link>
                      {q.description && <div className="small muted break">{q.description}</div>}
                    </td>
                    <td className="small mono break">{JSON.stringify(q.filter)}</td>
                    <td style={{ textAlign: 'right' }} className="mono">
                      {q.unresolvedItemsCount.toLocaleString('en')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {queues.data.length === 0 && <p className="card-body muted">No queue yet.</p>}
        </Card>
      )}
    </div>
  );
}

/** Create (`queueId` "new") or edit a queue, with the filter builder and a live count of the items it selects. */
export function QueueSettingsPage({ queueId }: { queueId: string }) {
  const project = useProject();
  const toast = useToast();
  const isNew = queueId === 'new';
  const queue = useResource(isNew ? null : `${project.projectId}/queues/${queueId}`, (signal) =>
    api.get<{ queue: QueueView }>(projectPath(project.projectId, `/queues/${seg(queueId)}`), undefined, signal).then((r) => r.queue),
  );
  const catalog = useCatalog(project.projectId);
  const channels = useChannels(project.projectId);
  const actions = useConfigActions(project.projectId);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [filter, setFilter] = useState<FullQueueFilter>({ flagged: 'FLAGGED' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const preview = useFilterPreview(project.projectId, filter);
  useEffect(() => {
    if (isNew || !queue.data) return;
    setName(queue.data.name);
    setDescription(queue.data.description);
    setFilter(queue.data.filter as FullQueueFilter);
  }, [isNew, queue.data]);

  if (catalog.error instanceof ApiError && catalog.error.status === 403) return <ForbiddenPage what="queue configuration" />;
  if (!isNew && queue.error instanceof ApiError && queue.error.status === 404) return <NotFoundPage what="This queue" />;
  if (!catalog.data || (!isNew && !queue.data)) return <div className="page"><Spinner /></div>;

  const policies = [
    ...catalog.data.policies.map((p) => ({ id: p.id, name: policyName(p.id) })),
    ...catalog.data.wordlists.map((w) => ({ id: `${catalog.data!.wordlistPolicy.prefix}${w.key ?? w.id}`, name: `Wordlist: ${w.name ?? w.key ?? w.id}` })),
  ];
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = { name, description, filter: cleanFilter(filter) };
      const saved = isNew ? await createQueue(project.projectId, body) : await updateQueue(project.projectId, queueId, body);
      toast(isNew ? `Queue “${saved.name}” created` : `Queue “${saved.name}” saved`);
      navigate(path`/configure/queues/${saved.id}`, { replace: true });
      if (!isNew) queue.set(saved);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="page stack" style={{ maxWidth: 1100 }}>
      <PageHeader
        title={isNew ? 'New queue' : queue.data!.name}
        crumbs={<Link href="/configure/queues">Queues</Link>}
        actions={
          <>
            {!isNew && <Link className="btn" href={path`/queues/${queueId}`}>Open the queue</Link>}
            {!isNew && (
              <Button variant="danger" onClick={() => setConfirmDelete(true)}>
                Delete
              </Button>
            )}
            <Button variant="primary" disabled={busy || name.trim() === ''} onClick={() => void save()}>
              {busy ? 'Saving…' : isNew ? 'Create queue' : 'Save queue'}
            </Button>
          </>
        }
      />
      <ConfigError error={error} />
      <div className="grid-2">
        <Card title="Queue">
          <div className="card-body stack">
            <Field label="Queue name">{(id) => <input id={id} className="input" value={name} onChange={(e) => setName(e.target.value)} />}</Field>
            <Field label="Description">{(id) => <textarea id={id} className="textarea" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
            <FilterBuilder
              filter={filter}
              onChange={setFilter}
              policies={policies}
              channels={(channels.data ?? []).map((c) => ({ id: c.id, name: c.name }))}
              actions={(actions.data ?? []).map((a) => ({ id: a.id, name: a.name }))}
            />
          </div>
        </Card>
        <Card title="Preview">
          <div className="card-body stack-sm" aria-live="polite" data-testid="queue-preview">
            {preview.error !== undefined && preview.current ? (
              <ConfigError error={preview.error} />
            ) : preview.matching === undefined ? (
              <Spinner label="Counting" />
            ) : (
              <>
                <span className="preview-count" data-testid="preview-count" data-current={String(preview.current)}>
                  {preview.matching.toLocaleString('en')}
                </span>
                <span>stored item{preview.matching === 1 ? '' : 's'} match this filter now, {preview.flagged?.toLocaleString('en')} of them flagged.</span>
                <span className="small muted">Counted on the server with the same condition the queue lists with; resolutions are kept per queue, so a new queue starts with all of them unresolved.</span>
              </>
            )}
          </div>
        </Card>
      </div>
      {confirmDelete && (
        <Dialog
          title="Delete this queue?"
          onClose={() => setConfirmDelete(false)}
          footer={
            <>
              <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
              <Button
                variant="danger"
                onClick={() =>
                  void deleteQueue(project.projectId, queueId).then(
                    () => navigate('/configure/queues'),
                    (failure: unknown) => (setConfirmDelete(false), setError(failure)),
                  )
                }
              >
                Delete
              </Button>
            </>
          }
        >
          <p>The items stay stored; only the queue and its resolutions go.</p>
        </Dialog>
      )}
    </div>
  );
}
