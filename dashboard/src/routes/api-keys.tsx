import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../api/client.ts';
import { createApiKey, revokeApiKey, useApiKeys, type ApiKey } from '../components/api-keys/use-api-keys.ts';
import { CopyButton } from '../components/kit/copy-button.tsx';
import { Badge, Button, Card, ConfirmDialog, Dialog, Empty, ErrorNote, Field, Spinner, Time } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { ForbiddenPage } from './not-found.tsx';

export function ApiKeysPage() {
  const project = useProject();
  const toast = useToast();
  const keys = useApiKeys(project.projectId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ apiKey: ApiKey; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [showRevoked, setShowRevoked] = useState(false);

  if (keys.error instanceof ApiError && keys.error.status === 403) return <ForbiddenPage what="the API keys" />;
  const active = keys.data?.filter((k) => k.revokedAt === null) ?? [];
  const shown = showRevoked ? (keys.data ?? []) : active;

  return (
    <div className="page" style={{ maxWidth: 1100 }}>
      <PageHeader
        title="API keys"
        sub="Keys your platform sends as Authorization: Bearer <key> to /v1. Each key is shown once, when it is created; the server keeps only its hash."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create API key
          </Button>
        }
      />
      {created && (
        <div className="alert alert-success stack-sm" role="status" data-testid="new-key" style={{ marginBottom: 14 }}>
          <strong>Key "{created.apiKey.name}" created. Copy it now: it will not be shown again.</strong>
          <div className="row">
            <input id="new-api-key" className="input mono" readOnly value={created.key} aria-label="New API key" style={{ flex: '1 1 380px' }} onFocus={(e) => e.target.select()} />
            <CopyButton text={created.key} targetId="new-api-key" label="Copy key" />
            <Button size="sm" onClick={() => setCreated(null)}>
              I have stored it
            </Button>
          </div>
        </div>
      )}
      {keys.error !== undefined && <ErrorNote error={keys.error} onRetry={keys.reload} />}
      {!keys.data && keys.loading && <Spinner />}
      {keys.data && (
        <Card
          title={`${active.length} active key${active.length === 1 ? '' : 's'}`}
          actions={
            <label className="check small">
              <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.target.checked)} /> Show revoked keys
            </label>
          }
        >
          {shown.length === 0 ? (
            <Empty>No active key. Create one for each system that calls the API, so you can revoke one without stopping the others.</Empty>
          ) : (
            <div className="table-wrap">
              <table className="table" aria-label="API keys">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Key</th>
                    <th>Created</th>
                    <th>Last used</th>
                    <th>Status</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {shown.map((k) => (
                    <tr key={k.id} data-key-id={k.id}>
                      <td style={{ fontWeight: 600 }} className="break">
                        {k.name}
                      </td>
                      <td className="mono">{k.prefix}…</td>
                      <td>
                        <Time ms={k.createdAt} />
                        {k.createdBy && <div className="small muted">by {k.createdBy}</div>}
                      </td>
                      <td>{k.lastUsedAt === null ? <span className="muted">Never</span> : <Time ms={k.lastUsedAt} />}</td>
                      <td>{k.revokedAt === null ? <Badge tone="success">Active</Badge> : <Badge tone="danger" title={`Revoked ${new Date(k.revokedAt).toISOString()}`}>Revoked</Badge>}</td>
                      <td style={{ textAlign: 'right' }}>
                        {k.revokedAt === null && (
                          <Button size="sm" variant="danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                            Revoke
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      )}
      {creating && (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(result) => {
            setCreating(false);
            setCreated(result);
            keys.reload();
          }}
        />
      )}
      {revoking && (
        <RevokeKeyDialog
          apiKey={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={() => {
            setRevoking(null);
            toast(`Key "${revoking.name}" revoked: requests with it are refused from now on`);
            keys.reload();
          }}
        />
      )}
    </div>
  );
}

function CreateKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (result: { apiKey: ApiKey; key: string }) => void }) {
  const project = useProject();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!name.trim()) return setError('Give the key a name that says where it is used.');
    setBusy(true);
    setError(null);
    try {
      onCreated(await createApiKey(project.projectId, name.trim()));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="Create an API key"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={busy} onClick={() => void submit()}>
            {busy ? 'Creating…' : 'Create key'}
          </Button>
        </>
      }
    >
      <form onSubmit={(e) => void submit(e)} className="stack">
        {error && (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        )}
        <Field label="Key name" hint='Where the key is used, e.g. "forum backend (production)".'>
          {(id) => <input id={id} className="input" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
      </form>
    </Dialog>
  );
}

function RevokeKeyDialog({ apiKey, onClose, onRevoked }: { apiKey: ApiKey; onClose: () => void; onRevoked: () => void }) {
  const project = useProject();
  return (
    <ConfirmDialog title={`Revoke "${apiKey.name}"?`} confirmLabel="Revoke key" busyLabel="Revoking…" onConfirm={() => revokeApiKey(project.projectId, apiKey.id)} onDone={onRevoked} onClose={onClose}>
      <p>
        Every request with the key <code>{apiKey.prefix}…</code> is refused (401) from the moment you confirm, on every node. This cannot be undone: a system still
        using it needs a new key.
      </p>
    </ConfirmDialog>
  );
}
