import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../api/client.ts';
import { useResource } from '../api/use-resource.ts';
import { loadSettings, saveSettings } from '../components/custom-data/use-custom-data.ts';
import { Button, Card, ErrorNote, Field, formatDate, Spinner } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { ForbiddenPage } from './not-found.tsx';

interface HeaderDraft {
  name: string;
  value: string;
  saved: boolean;
}

export function CustomDataSettingsPage() {
  const project = useProject();
  const toast = useToast();
  const settings = useResource(`${project.projectId}/settings/custom-data`, (signal) => loadSettings(project.projectId, signal));
  const [enabled, setEnabled] = useState(false);
  const [url, setUrl] = useState('');
  const [headers, setHeaders] = useState<HeaderDraft[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.enabled);
    setUrl(settings.data.endpointUrl ?? '');
    setHeaders(settings.data.headers.map((h) => ({ name: h.name, value: '', saved: h.hasValue })));
  }, [settings.data]);

  if (settings.error instanceof ApiError && settings.error.status === 403) return <ForbiddenPage what="the custom-data configuration" />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (url && !/^https:\/\//i.test(url)) return setError('The endpoint URL must start with https://');
    if (enabled && !url) return setError('Enter the endpoint URL to enable the integration.');
    setBusy(true);
    try {
      const saved = await saveSettings(project.projectId, {
        enabled,
        endpointUrl: url || null,
        headers: headers.filter((h) => h.name.trim()).map((h) => (h.value ? { name: h.name.trim(), value: h.value } : { name: h.name.trim() })),
      });
      settings.set(saved);
      toast('Custom data settings saved');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const update = (i: number, patch: Partial<HeaderDraft>) => setHeaders((list) => list.map((h, j) => (j === i ? { ...h, ...patch } : h)));
  return (
    <div className="page" style={{ maxWidth: 820 }}>
      <PageHeader title="Custom data" sub="Show your own data about an author (plan, orders, past cases) on the author page" />
      {settings.error !== undefined && <ErrorNote error={settings.error} onRetry={settings.reload} />}
      {!settings.data && settings.loading && <Spinner />}
      {settings.data && (
        <Card>
          <form className="card-body stack" onSubmit={submit}>
            {error && (
              <div className="alert alert-error" role="alert">
                {error}
              </div>
            )}
            <label className="check">
              <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enable the integration
            </label>
            <Field label="Endpoint URL" hint="https only. When a moderator opens an author, this server POSTs {version: 1, projectId, author: {externalId, email}} there, with your webhook signing secret in X-Webhook-Secret.">
              {(id) => <input id={id} className="input" type="url" placeholder="https://example.com/moderation/custom-data" value={url} onChange={(e) => setUrl(e.target.value)} />}
            </Field>
            <div className="stack-sm">
              <span className="field-label">Extra request headers</span>
              {headers.length === 0 && <span className="small muted">None.</span>}
              {headers.map((h, i) => (
                <div className="row" key={i} style={{ alignItems: 'flex-end' }}>
                  <div style={{ flex: '1 1 160px' }}>
                    <Field label={`Header ${i + 1} name`}>{(id) => <input id={id} className="input" value={h.name} onChange={(e) => update(i, { name: e.target.value })} />}</Field>
                  </div>
                  <div style={{ flex: '2 1 220px' }}>
                    <Field label={`Header ${i + 1} value`}>
                      {(id) => <input id={id} className="input" type="password" autoComplete="off" placeholder={h.saved ? 'Saved (hidden); type to replace' : ''} value={h.value} onChange={(e) => update(i, { value: e.target.value })} />}
                    </Field>
                  </div>
                  <Button onClick={() => setHeaders((list) => list.filter((_, j) => j !== i))} aria-label={`Remove header ${i + 1}`}>
                    Remove
                  </Button>
                </div>
              ))}
              <div>
                <Button size="sm" onClick={() => setHeaders((list) => [...list, { name: '', value: '', saved: false }])}>
                  Add a header
                </Button>
              </div>
              <span className="small muted">Header values are secrets: they are never shown again after saving.</span>
            </div>
            <div className="row-between">
              <span className="small muted">{settings.data.updatedAt ? `Last saved ${formatDate(settings.data.updatedAt)}${settings.data.updatedBy ? ` by ${settings.data.updatedBy}` : ''}` : 'Never saved'}</span>
              <Button type="submit" variant="primary" disabled={busy}>
                {busy ? 'Saving…' : 'Save'}
              </Button>
            </div>
          </form>
        </Card>
      )}
    </div>
  );
}
