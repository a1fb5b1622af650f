import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button, Dialog, Field } from '../kit/kit.tsx';
import { createWebhook, EVENT_DESCRIPTIONS, updateWebhook, type Webhook } from './use-webhooks.ts';

/** Creates a project webhook (`webhook` absent) or edits one. */
export function WebhookDialog({ projectId, webhook, eventTypes, onClose, onSaved }: { projectId: string; webhook?: Webhook; eventTypes: string[]; onClose: () => void; onSaved: (webhook: Webhook) => void }) {
  const [name, setName] = useState(webhook?.name ?? '');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [events, setEvents] = useState<string[]>(webhook?.events ?? []);
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const actionWebhook = webhook?.moderationActionId != null;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Give the webhook a name.');
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return setError('The URL must start with https:// (http only where the server allows private targets).');
    setBusy(true);
    try {
      const body = { name: name.trim(), url: url.trim(), description: description.trim() || null, enabled, ...(actionWebhook ? {} : { events }) };
      const saved = webhook ? await updateWebhook(projectId, webhook.id, body) : await createWebhook(projectId, { ...body, events });
      onSaved(saved.webhook);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  const toggle = (type: string, on: boolean) => setEvents((list) => (on ? [...list, type] : list.filter((t) => t !== type)));

  return (
    <Dialog
      title={webhook ? `Edit ${webhook.name}` : 'Add a webhook endpoint'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={busy} onClick={() => void submit()}>
            {busy ? 'Saving…' : webhook ? 'Save' : 'Add endpoint'}
          </Button>
        </>
      }
    >
      <form className="stack" onSubmit={(e) => void submit(e)}>
        {error && (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        )}
        <Field label="Name">{(id) => <input id={id} className="input" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
        <Field label="Endpoint URL" hint="Receives a signed POST per event (see the signing secret above the list).">
          {(id) => <input id={id} className="input" type="url" placeholder="https://example.com/moderation/webhook" value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <Field label="Description (optional)">{(id) => <input id={id} className="input" maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled (a disabled endpoint receives nothing)
        </label>
        {actionWebhook ? (
          <p className="small muted">This is an action’s webhook: it is called each time its action runs.</p>
        ) : (
          <fieldset className="stack-sm" style={{ border: 'none', padding: 0, margin: 0 }}>
            <legend className="field-label">Events</legend>
            <span className="small muted">None ticked means every event.</span>
            {eventTypes.map((type) => (
              <label key={type} className="check">
                <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggle(type, e.target.checked)} /> <code>{type}</code>
                <span className="small muted">{EVENT_DESCRIPTIONS[type] ?? ''}</span>
              </label>
            ))}
          </fieldset>
        )}
      </form>
    </Dialog>
  );
}
