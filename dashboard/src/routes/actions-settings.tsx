import { useState } from 'react';
import { ApiError } from '../api/client.ts';
import { ConfigError } from '../components/channels/config-error.tsx';
import { ACTION_TYPES, createAction, deleteAction, reorderActions, updateAction, useActionConfig, type ActionInput, type ConfigAction } from '../components/actions/use-action-config.ts';
import { Badge, Button, Card, Dialog, ErrorNote, Field, Spinner } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { useQueues } from '../components/queues/use-queues.ts';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { ForbiddenPage } from './not-found.tsx';

const BLANK: ActionInput = { key: null, name: '', description: null, type: 'ITEM_CUSTOM', queueBehaviour: 'NO_CHANGE', filterInQueueIds: [], position: 'ALL_QUEUES', possibleValues: [], valueRequired: false, freeText: false, webhooks: [] };

const inputOf = (a: ConfigAction): ActionInput => ({
  key: a.key,
  name: a.name,
  description: a.description,
  type: a.type,
  queueBehaviour: a.queueBehaviour,
  filterInQueueIds: a.filterInQueueIds,
  position: a.position,
  possibleValues: a.possibleValues,
  valueRequired: a.valueRequired,
  freeText: a.freeText,
  webhooks: a.webhooks.map((w) => ({ ...(w.id ? { id: w.id } : {}), name: w.name, url: w.url, description: w.description ?? null })),
});

function ActionDialog({ projectId, action, queues, onClose, onSaved }: { projectId: string; action: ConfigAction | null; queues: { id: string; name: string }[]; onClose: () => void; onSaved: (message: string) => void }) {
  const [draft, setDraft] = useState<ActionInput>(action ? inputOf(action) : BLANK);
  const [error, setError] = useState<unknown>(null);
  const builtIn = action?.builtIn === true;
  const set = (patch: Partial<ActionInput>) => setDraft({ ...draft, ...patch });
  const save = async () => {
    try {
      const body = builtIn ? (({ key: _k, type: _t, ...rest }) => rest)(draft) : draft;
      if (action) await updateAction(projectId, action.id, body);
      else await createAction(projectId, body as ActionInput);
      onSaved(action ? `Action “${draft.name}” saved` : `Action “${draft.name}” created`);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Dialog
      title={action ? `Edit ${action.name}` : 'New action'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={draft.name.trim() === ''} onClick={() => void save()}>
            Save
          </Button>
        </>
      }
    >
      <div className="stack">
        <ConfigError error={error} />
        <Field label="Action name">{(id) => <input id={id} className="input" value={draft.name} onChange={(e) => set({ name: e.target.value })} />}</Field>
        <div className="row">
          <div style={{ flex: '1 1 160px' }}>
            <Field label="Action key" hint={builtIn ? 'Built-in: fixed' : 'Optional; letters, digits, _ . : -'}>
              {(id) => <input id={id} className="input mono" disabled={builtIn} value={draft.key ?? ''} onChange={(e) => set({ key: e.target.value || null })} />}
            </Field>
          </div>
          <div style={{ flex: '1 1 160px' }}>
            <Field label="Action type">
              {(id) => (
                <select id={id} className="select" disabled={builtIn} value={draft.type ?? ''} onChange={(e) => set({ type: e.target.value || null })}>
                  <option value="">none</option>
                  {ACTION_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        </div>
        <Field label="Action description">{(id) => <textarea id={id} className="textarea" rows={2} value={draft.description ?? ''} onChange={(e) => set({ description: e.target.value || null })} />}</Field>
        <div className="row">
          <div style={{ flex: '1 1 160px' }}>
            <Field label="Queue behaviour" hint="What happens to the item in the queue it was acted on from">
              {(id) => (
                <select id={id} className="select" value={draft.queueBehaviour} onChange={(e) => set({ queueBehaviour: e.target.value as ActionInput['queueBehaviour'] })}>
                  <option value="REMOVE">Resolve it (remove from the queue)</option>
                  <option value="NO_CHANGE">Leave it</option>
                  <option value="ADD">Reopen it</option>
                </select>
              )}
            </Field>
          </div>
          <div style={{ flex: '1 1 160px' }}>
            <Field label="Shown in">
              {(id) => (
                <select id={id} className="select" value={draft.position} onChange={(e) => set({ position: e.target.value as ActionInput['position'] })}>
                  <option value="ALL_QUEUES">every queue</option>
                  <option value="SOME_QUEUES">some queues</option>
                  <option value="HIDDEN">hidden</option>
                </select>
              )}
            </Field>
          </div>
        </div>
        {draft.position === 'SOME_QUEUES' && (
          <fieldset className="stack-sm" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="field-label">Queues where it shows</legend>
            {queues.map((q) => (
              <label key={q.id} className="check">
                <input type="checkbox" checked={draft.filterInQueueIds.includes(q.id)} onChange={(e) => set({ filterInQueueIds: e.target.checked ? [...draft.filterInQueueIds, q.id] : draft.filterInQueueIds.filter((x) => x !== q.id) })} /> {q.name}
              </label>
            ))}
          </fieldset>
        )}
        <Field label="Possible values" hint="One per line; the moderator picks one">
          {(id) => (
            <textarea
              id={id}
              className="textarea"
              rows={3}
              value={draft.possibleValues.map((v) => v.value).join('\n')}
              onChange={(e) => set({ possibleValues: e.target.value.split('\n').filter((v) => v.trim() !== '').map((value) => ({ value: value.trim() })) })}
            />
          )}
        </Field>
        <div className="row">
          <label className="check">
            <input type="checkbox" checked={draft.valueRequired} onChange={(e) => set({ valueRequired: e.target.checked })} /> A value is required
          </label>
          <label className="check">
            <input type="checkbox" checked={draft.freeText} onChange={(e) => set({ freeText: e.target.checked })} /> Free text allowed
          </label>
        </div>
        <div className="stack-sm">
          <span className="field-label">Webhooks called on every execution</span>
          {draft.webhooks.map((w, i) => (
            <div key={i} className="row" style={{ alignItems: 'flex-end' }}>
              <div style={{ flex: '1 1 120px' }}>
                <Field label={`Webhook ${i + 1} name`}>{(id) => <input id={id} className="input" value={w.name} onChange={(e) => set({ webhooks: draft.webhooks.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })} />}</Field>
              </div>
              <div style={{ flex: '2 1 220px' }}>
                <Field label={`Webhook ${i + 1} URL`}>{(id) => <input id={id} className="input" type="url" value={w.url} onChange={(e) => set({ webhooks: draft.webhooks.map((x, j) => (j === i ? { ...x, url: e.target.value } : x)) })} />}</Field>
              </div>
              <Button size="sm" onClick={() => set({ webhooks: draft.webhooks.filter((_, j) => j !== i) })}>
                Remove
              </Button>
            </div>
          ))}
          <div>
            <Button size="sm" onClick={() => set({ webhooks: [...draft.webhooks, { name: '', url: 'https://' }] })}>
              Add a webhook
            </Button>
          </div>
        </div>
      </div>
    </Dialog>
  );
}

export function ActionsSettingsPage() {
  const project = useProject();
  const toast = useToast();
  const actions = useActionConfig(project.projectId);
  const queues = useQueues(project.projectId);
  const [editing, setEditing] = useState<ConfigAction | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (actions.error instanceof ApiError && actions.error.status === 403) return <ForbiddenPage what="action configuration" />;
  const queueName = (id: string) => queues.data?.find((q) => q.id === id)?.name ?? id;
  const act = async (work: () => Promise<unknown>, message: string) => {
    setError(null);
    try {
      await work();
      toast(message);
      actions.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const move = (index: number, by: -1 | 1) => {
    const list = [...actions.data!];
    [list[index], list[index + by]] = [list[index + by]!, list[index]!];
    void act(() => reorderActions(project.projectId, list.map((a) => a.id)), 'Order saved');
  };
  return (
    <div className="page">
      <PageHeader
        title="Actions"
        sub="What moderators can do to items and authors, in the order they see them."
        actions={
          <Button variant="primary" onClick={() => setEditing('new')}>
            New action
          </Button>
        }
      />
      <ConfigError error={error} />
      {actions.error !== undefined && <ErrorNote error={actions.error} onRetry={actions.reload} />}
      {!actions.data && actions.loading && <Spinner />}
      {actions.data && (
        <Card>
          <div className="table-wrap">
            <table className="table" aria-label="Actions">
              <thead>
                <tr>
                  <th>Order</th>
                  <th>Action</th>
                  <th>Values</th>
                  <th>Queue behaviour</th>
                  <th>Shown in</th>
                  <th>Webhooks</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {actions.data.map((a, i) => (
                  <tr key={a.id} data-action={a.key ?? a.id}>
                    <td className="nowrap">
                      <Button size="sm" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${a.name} up`}>
                        ↑
                      </Button>
                      <Button size="sm" disabled={i === actions.data!.length - 1} onClick={() => move(i, 1)} aria-label={`Move ${a.name} down`}>
                        ↓
                      </Button>
                    </td>
                    <td>
                      <strong>{a.name}</strong> {a.builtIn && <Badge>built-in</Badge>} {a.position === 'HIDDEN' && <Badge tone="warning">hidden</Badge>}
                      <div className="small muted mono">
                        {a.key ?? a.id}
                        {a.type && a.type !== a.key ? ` · ${a.type}` : ''}
                      </div>
                    </td>
                    <td className="small">
                      {a.possibleValues.map((v) => v.value).join(', ') || <span className="muted">—</span>}
                      {a.valueRequired && <div className="muted">required</div>}
                      {a.freeText && <div className="muted">free text</div>}
                    </td>
                    <td className="small">{a.queueBehaviour === 'REMOVE' ? 'resolves' : a.queueBehaviour === 'ADD' ? 'reopens' : 'leaves'}</td>
                    <td className="small">{a.position === 'ALL_QUEUES' ? 'every queue' : a.position === 'HIDDEN' ? 'nowhere' : a.filterInQueueIds.map(queueName).join(', ')}</td>
                    <td className="small">{a.webhooks.map((w) => w.name).join(', ') || <span className="muted">—</span>}</td>
                    <td className="nowrap">
                      <Button size="sm" onClick={() => setEditing(a)}>
                        Edit
                      </Button>{' '}
                      <Button size="sm" onClick={() => void act(() => updateAction(project.projectId, a.id, { position: a.position === 'HIDDEN' ? 'ALL_QUEUES' : 'HIDDEN' }), a.position === 'HIDDEN' ? `${a.name} shown` : `${a.name} hidden`)}>
                        {a.position === 'HIDDEN' ? 'Show' : 'Hide'}
                      </Button>{' '}
                      {!a.builtIn && (
                        <Button size="sm" variant="danger" onClick={() => void act(() => deleteAction(project.projectId, a.id), `${a.name} deleted`)}>
                          Delete
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      {editing && (
        <ActionDialog
          projectId={project.projectId}
          action={editing === 'new' ? null : editing}
          queues={(queues.data ?? []).map((q) => ({ id: q.id, name: q.name }))}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            toast(message);
            actions.reload();
          }}
        />
      )}
    </div>
  );
}
