import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client.ts';
import { ConfigError } from '../components/channels/config-error.tsx';
import { useChannels } from '../components/channels/use-channels.ts';
import type { Content } from '../components/items/types.ts';
import { Button, Card, Field, Kbd } from '../components/kit/kit.tsx';
import { PlaygroundResult } from '../components/playground/playground-result.tsx';
import { runPlayground, type PlaygroundRun } from '../components/playground/use-playground.ts';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { setSearch, useLocation } from '../router.tsx';
import { ForbiddenPage } from './not-found.tsx';

const META_TYPES = ['profile', 'message', 'post', 'comment', 'event', 'product', 'review', 'other'] as const;
const OBJECT_EXAMPLE = '{\n  "title": "Great deals",\n  "body": "Message me on whatsapp for free money"\n}';

/** `{"field": "text"}` (or full content items) as object content. */
function objectContent(text: string): Content {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('Enter a JSON object of fields, e.g. {"title": "…", "body": "…"}');
  const data: Record<string, { type: string; text?: string; url?: string }> = {};
  for (const [key, value] of Object.entries(parsed)) {
    data[key] = typeof value === 'string' ? { type: 'text', text: value } : (value as { type: string });
  }
  return { type: 'object', data };
}

export function PlaygroundPage() {
  const project = useProject();
  const { search } = useLocation();
  const channels = useChannels(project.projectId);
  const [kind, setKind] = useState<'text' | 'object'>('text');
  const [text, setText] = useState('');
  const [json, setJson] = useState(OBJECT_EXAMPLE);
  const [authorId, setAuthorId] = useState('');
  const [metaType, setMetaType] = useState('');
  const [run, setRun] = useState<{ run: PlaygroundRun; content: Content } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const channel = search.get('channel') ?? '';
  if (channels.error instanceof ApiError && channels.error.status === 403) return <ForbiddenPage what="the playground" />;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setError(null);
    let content: Content;
    try {
      content = kind === 'text' ? { type: 'text', text } : objectContent(json);
    } catch (failure) {
      setError(failure);
      return;
    }
    setBusy(true);
    try {
      const extra = { ...(channel ? { channel } : {}), ...(authorId.trim() ? { authorId: authorId.trim() } : {}), ...(metaType ? { metaType } : {}) };
      setRun({ run: await runPlayground(project.projectId, { content, ...extra }), content });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
  };
  return (
    <div className="page stack" style={{ maxWidth: 1100 }}>
      <PageHeader title="Playground" sub="Run a message through a channel's real pipeline before you change a threshold. Nothing is stored, no author is created, no webhook is sent." />
      <Card>
        <form className="card-body stack" onSubmit={submit}>
          <div className="row" style={{ alignItems: 'flex-end' }}>
            <div style={{ flex: '1 1 220px' }}>
              <Field label="Channel">
                {(id) => (
                  <select id={id} className="select" value={channel} onChange={(e) => setSearch({ channel: e.target.value })}>
                    <option value="">Default channel</option>
                    {(channels.data ?? []).filter((c) => !c.isDefault).map((c) => (
                      <option key={c.id} value={c.key}>
                        {c.name} ({c.key})
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
            <fieldset className="row" style={{ border: 0, padding: 0, margin: 0 }}>
              <legend className="field-label">Content</legend>
              <label className="check">
                <input type="radio" name="kind" checked={kind === 'text'} onChange={() => setKind('text')} /> Text
              </label>
              <label className="check">
                <input type="radio" name="kind" checked={kind === 'object'} onChange={() => setKind('object')} /> Object of fields (JSON)
              </label>
            </fieldset>
          </div>
          <div className="row" style={{ alignItems: 'flex-end' }}>
            <div style={{ flex: '1 1 220px' }}>
              <Field label="Author (optional)" hint="An existing author's id: their status, trust and risk shape the verdict as in a real submission; no author is created">
                {(id) => <input id={id} className="input" value={authorId} onChange={(e) => setAuthorId(e.target.value)} />}
              </Field>
            </div>
            <div style={{ flex: '1 1 160px' }}>
              <Field label="Type of content (optional)">
                {(id) => (
                  <select id={id} className="select" value={metaType} onChange={(e) => setMetaType(e.target.value)}>
                    <option value="">not given</option>
                    {META_TYPES.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          </div>
          {kind === 'text' ? (
            <Field label="Text to test">{(id) => <textarea id={id} className="textarea" rows={5} value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKey} placeholder="Paste a message…" />}</Field>
          ) : (
            <Field label="Fields (JSON)" hint='A field is a string (text) or a content item such as {"type": "image", "url": "https://…"}'>
              {(id) => <textarea id={id} className="textarea mono" rows={6} value={json} onChange={(e) => setJson(e.target.value)} onKeyDown={onKey} />}
            </Field>
          )}
          <ConfigError error={error} />
          <div className="row-between">
            <span className="small muted">
              <Kbd>Ctrl</Kbd> + <Kbd>Enter</Kbd> runs it
            </span>
            <Button type="submit" variant="primary" disabled={busy || (kind === 'text' ? text === '' : json.trim() === '')}>
              {busy ? 'Running…' : 'Run'}
            </Button>
          </div>
        </form>
      </Card>
      {run && <PlaygroundResult run={run.run} content={run.content} />}
    </div>
  );
}
