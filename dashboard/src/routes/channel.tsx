import { useEffect, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { ConfigError } from '../components/channels/config-error.tsx';
import { PolicyTable } from '../components/channels/policy-table.tsx';
import { RecommendationSettings, type RecommendationDraft } from '../components/channels/recommendation-settings.tsx';
import type { Channel, ConfigChange, PolicySettings } from '../components/channels/types.ts';
import { UnicodeSettings } from '../components/channels/unicode-settings.tsx';
import { deleteChannel, updateChannel, useCatalog, useChannel } from '../components/channels/use-channels.ts';
import { Button, Card, Dialog, ErrorNote, Field, Spinner } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, navigate, path } from '../router.tsx';
import { ForbiddenPage, NotFoundPage } from './not-found.tsx';

interface Draft extends RecommendationDraft {
  name: string;
  key: string;
  policies: PolicySettings[];
  insights: string[];
  unicodeNormalization: boolean;
}

const draftOf = (c: Channel): Draft => ({
  name: c.name,
  key: c.key,
  policies: c.policies,
  insights: c.insights,
  unicodeNormalization: c.unicodeNormalization,
  triage: c.triage,
  alwaysReview: c.alwaysReview,
  alwaysReject: c.alwaysReject,
  rules: c.rules,
  dryRun: c.dryRun,
});

/** The body of PUT: every field the page edits; a chosen preset is sent by name. */
const bodyOf = (d: Draft, isDefault: boolean) => ({
  name: d.name,
  ...(isDefault ? {} : { key: d.key }),
  policies: d.policies,
  insights: d.insights,
  unicodeNormalization: d.unicodeNormalization,
  triage: d.triage.preset ? { preset: d.triage.preset } : { review: d.triage.review, reject: d.triage.reject },
  alwaysReview: d.alwaysReview,
  alwaysReject: d.alwaysReject,
  rules: d.rules,
  dryRun: d.dryRun,
});

const show = (v: unknown) => (v === undefined ? '—' : JSON.stringify(v));

export function ChannelPage({ channelId }: { channelId: string }) {
  const project = useProject();
  const toast = useToast();
  const catalog = useCatalog(project.projectId);
  const channel = useChannel(project.projectId, channelId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [changes, setChanges] = useState<ConfigChange[] | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  useEffect(() => {
    if (channel.data) setDraft(draftOf(channel.data));
  }, [channel.data]);

  if (channel.error instanceof ApiError && channel.error.status === 403) return <ForbiddenPage what="channel configuration" />;
  if (channel.error instanceof ApiError && channel.error.status === 404) return <NotFoundPage what={`Channel “${channelId}”`} />;
  const loadError = channel.error ?? catalog.error;
  if (loadError !== undefined) return <div className="page"><ErrorNote error={loadError} onRetry={() => (channel.reload(), catalog.reload())} /></div>;
  if (!channel.data || !catalog.data || !draft) return <div className="page"><Spinner /></div>;
  const current = channel.data;
  const dirty = JSON.stringify(bodyOf(draft, current.isDefault)) !== JSON.stringify(bodyOf(draftOf(current), current.isDefault));

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const saved = await updateChannel(project.projectId, current.id, bodyOf(draft, current.isDefault));
      channel.set(saved.channel);
      setChanges(saved.changes);
      toast(saved.changes.length === 0 ? 'Nothing changed' : `Channel saved: ${saved.changes.length} change(s), written to the audit log`);
      if (saved.channel.key !== channelId) navigate(path`/configure/channels/${saved.channel.key}`, { replace: true });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    try {
      await deleteChannel(project.projectId, current.id);
      toast(`Channel ${current.key} deleted`);
      navigate('/configure/channels');
    } catch (failure) {
      setConfirmDelete(false);
      setError(failure);
    }
  };
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const saveBar = (
    <>
      <Link className="btn" href={`/configure/playground?channel=${encodeURIComponent(current.key)}`}>
        Try in the playground
      </Link>
      <Button onClick={() => setDraft(draftOf(current))} disabled={!dirty || busy}>
        Discard
      </Button>
      <Button variant="primary" onClick={() => void save()} disabled={!dirty || busy}>
        {busy ? 'Saving…' : 'Save changes'}
      </Button>
    </>
  );
  return (
    <div className="page stack" style={{ maxWidth: 1100 }}>
      <PageHeader title={current.name} crumbs={<Link href="/configure/channels">Channels</Link>} sub={<span className="mono">{current.key}</span>} actions={saveBar} />
      <ConfigError error={error} />
      {changes && changes.length > 0 && (
        <div className="alert alert-success" role="status" data-testid="saved-changes">
          Saved. Changes (also in the audit log):
          <ul className="small mono" style={{ margin: '4px 0 0', paddingLeft: 18 }}>
            {changes.map((c) => (
              <li key={c.path}>
                {c.path}: {show(c.before)} → {show(c.after)}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Card title="General">
        <div className="card-body row" style={{ alignItems: 'flex-end' }}>
          <div style={{ flex: '2 1 240px' }}>
            <Field label="Channel name">{(id) => <input id={id} className="input" value={draft.name} onChange={(e) => set({ name: e.target.value })} />}</Field>
          </div>
          <div style={{ flex: '1 1 180px' }}>
            <Field label="Channel key" hint={current.isDefault ? 'The default channel keeps its key' : undefined}>
              {(id) => <input id={id} className="input mono" value={draft.key} disabled={current.isDefault} onChange={(e) => set({ key: e.target.value })} />}
            </Field>
          </div>
          {!current.isDefault && (
            <Button variant="danger" onClick={() => setConfirmDelete(true)}>
              Delete channel
            </Button>
          )}
        </div>
      </Card>
      <Card title="Policies">
        <PolicyTable catalog={catalog.data} policies={draft.policies} onChange={(policies) => set({ policies })} />
      </Card>
      <Card title="Unicode spoofing">
        <div className="card-body">
          <UnicodeSettings
            policies={draft.policies}
            normalization={draft.unicodeNormalization}
            signals={catalog.data.unicodeSignals}
            onPolicies={(policies) => set({ policies })}
            onNormalization={(unicodeNormalization) => set({ unicodeNormalization })}
          />
        </div>
      </Card>
      <Card title="Recommendation">
        <div className="card-body">
          <RecommendationSettings catalog={catalog.data} running={draft.policies.map((p) => String(p.id))} draft={draft} issues={error instanceof ApiError ? error.issues : []} onChange={(next) => set(next)} />
        </div>
      </Card>
      <Card title="Insights">
        <div className="card-body row">
          {catalog.data.insights.map((id) => (
            <label key={id} className="check">
              <input type="checkbox" checked={draft.insights.includes(id)} onChange={(e) => set({ insights: e.target.checked ? [...draft.insights, id] : draft.insights.filter((x) => x !== id) })} /> {id}
            </label>
          ))}
        </div>
      </Card>
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        {saveBar}
      </div>
      {confirmDelete && (
        <Dialog
          title={`Delete channel ${current.key}?`}
          onClose={() => setConfirmDelete(false)}
          footer={
            <>
              <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
              <Button variant="danger" onClick={() => void remove()}>
                Delete
              </Button>
            </>
          }
        >
          <p>Requests naming this channel will answer 404 from then on. Stored items keep their results.</p>
        </Dialog>
      )}
    </div>
  );
}
