import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client.ts';
import { ConfigError } from '../components/channels/config-error.tsx';
import { createChannel, useChannels } from '../components/channels/use-channels.ts';
import { Badge, Button, Card, Dialog, ErrorNote, Field, Spinner, Time } from '../components/kit/kit.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, navigate, path } from '../router.tsx';
import { ForbiddenPage } from './not-found.tsx';

function NewChannelDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    try {
      const channel = await createChannel(projectId, { name, key });
      navigate(path`/configure/channels/${channel.key}`);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="New channel"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={busy || !name || !key} onClick={() => void submit()}>
            Create
          </Button>
        </>
      }
    >
      <form className="stack" onSubmit={submit}>
        <ConfigError error={error} />
        <Field label="Name">{(id) => <input id={id} className="input" value={name} onChange={(e) => setName(e.target.value)} />}</Field>
        <Field label="Key" hint="What callers send as `channel`: letters, digits, _ . -">
          {(id) => <input id={id} className="input mono" value={key} onChange={(e) => setKey(e.target.value)} />}
        </Field>
        <span className="small muted">The channel starts with the default policies; you set them up next.</span>
      </form>
    </Dialog>
  );
}

export function ChannelsPage() {
  const project = useProject();
  const channels = useChannels(project.projectId);
  const [creating, setCreating] = useState(false);
  if (channels.error instanceof ApiError && channels.error.status === 403) return <ForbiddenPage what="channel configuration" />;
  return (
    <div className="page">
      <PageHeader
        title="Channels"
        sub="Each channel is a set of policies and how their scores become a verdict. Callers name one in POST /v1/moderate."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New channel
          </Button>
        }
      />
      {channels.error !== undefined && <ErrorNote error={channels.error} onRetry={channels.reload} />}
      {!channels.data && channels.loading && <Spinner />}
      {channels.data && (
        <Card>
          <div className="table-wrap">
            <table className="table" aria-label="Channels">
              <thead>
                <tr>
                  <th>Channel</th>
                  <th>Policies</th>
                  <th>Triage (review / reject)</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {channels.data.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link href={path`/configure/channels/${c.key}`} style={{ fontWeight: 600 }}>
                        {c.name}
                      </Link>{' '}
                      {c.isDefault && <Badge tone="info">default</Badge>} {c.dryRun && <Badge tone="warning">dry run</Badge>}
                      <div className="small muted mono">{c.key}</div>
                    </td>
                    <td className="small">{c.policies.map((p) => p.id).join(', ') || <span className="muted">none</span>}</td>
                    <td className="mono">
                      {c.triage.review} / {c.triage.reject}
                      {c.triage.preset && <span className="muted"> ({c.triage.preset})</span>}
                    </td>
                    <td>
                      <Time ms={c.updatedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      {creating && <NewChannelDialog projectId={project.projectId} onClose={() => setCreating(false)} />}
    </div>
  );
}
