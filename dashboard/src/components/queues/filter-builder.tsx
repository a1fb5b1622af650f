import { Button, Field } from '../kit/kit.tsx';
import type { FullQueueFilter, LabelCondition } from './use-queue-config.ts';

interface Choice {
  id: string;
  name: string;
}

/** An ISO date for the API from a datetime-local value (read as UTC), and back. */
const toIso = (local: string) => (local ? new Date(`${local}:00Z`).toISOString() : undefined);
const toLocal = (iso: string | undefined) => {
  if (!iso) return '';
  const ms = /^\d+$/.test(iso) ? Number(iso) : Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 16) : '';
};

function Checks({ legend, choices, chosen, onChange, name }: { legend: string; choices: Choice[]; chosen: string[]; onChange: (next: string[]) => void; name: string }) {
  return (
    <fieldset className="stack-sm" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="field-label">{legend}</legend>
      {choices.length === 0 && <span className="small muted">None in this project.</span>}
      {choices.map((c) => (
        <label key={c.id} className="check">
          <input type="checkbox" aria-label={`${name} ${c.name}`} checked={chosen.includes(c.id)} onChange={(e) => onChange(e.target.checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id))} /> {c.name}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Every queue filter field: dates, author, conversations, channels, actions taken, flagged
 * labels, label conditions with thresholds, recommendation, flagged / shadow-flagged, resolved.
 */
export function FilterBuilder({ filter, onChange, policies, channels, actions }: { filter: FullQueueFilter; onChange: (next: FullQueueFilter) => void; policies: Choice[]; channels: Choice[]; actions: Choice[] }) {
  const set = (patch: Partial<FullQueueFilter>) => onChange({ ...filter, ...patch });
  const conversations = (filter.conversationIds ?? []).filter((c): c is string => c !== null);
  const withoutConversation = (filter.conversationIds ?? []).includes(null);
  const setConversations = (ids: string[], none: boolean) => set({ conversationIds: [...ids, ...(none ? [null] : [])] });
  const conditions = filter.filterLabels ?? [];
  const setCondition = (i: number, patch: Partial<NonNullable<FullQueueFilter['filterLabels']>[number]>) => set({ filterLabels: conditions.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  return (
    <div className="stack" data-testid="filter-builder">
      <div className="filter-grid">
        <Field label="Flagged">
          {(id) => (
            <select id={id} className="select" value={filter.flagged ?? 'ALL'} onChange={(e) => set({ flagged: e.target.value as FullQueueFilter['flagged'] })}>
              <option value="ALL">All items</option>
              <option value="FLAGGED">Flagged items</option>
              <option value="NOT_FLAGGED">Items not flagged</option>
            </select>
          )}
        </Field>
        <Field label="Submitted after (UTC)">{(id) => <input id={id} className="input" type="datetime-local" value={toLocal(filter.afterDate)} onChange={(e) => set({ afterDate: toIso(e.target.value) })} />}</Field>
        <Field label="Submitted before (UTC)">{(id) => <input id={id} className="input" type="datetime-local" value={toLocal(filter.beforeDate)} onChange={(e) => set({ beforeDate: toIso(e.target.value) })} />}</Field>
        <Field label="Author" hint="The author's id in your system, or ours">
          {(id) => <input id={id} className="input" value={filter.authorID ?? ''} onChange={(e) => set({ authorID: e.target.value || undefined })} />}
        </Field>
        <div className="stack-sm">
          <Field label="Conversations" hint="Comma-separated conversation ids">
            {(id) => (
              <input
                id={id}
                className="input"
                value={conversations.join(', ')}
                onChange={(e) =>
                  setConversations(
                    e.target.value.split(',').map((s) => s.trim()).filter(Boolean),
                    withoutConversation,
                  )
                }
              />
            )}
          </Field>
          <label className="check">
            <input type="checkbox" checked={withoutConversation} onChange={(e) => setConversations(conversations, e.target.checked)} /> and items without a conversation
          </label>
        </div>
      </div>
      <div className="filter-grid">
        <Checks legend="Recommendation" name="Recommendation" choices={['review', 'reject', 'allow'].map((a) => ({ id: a, name: a }))} chosen={filter.recommendationActions ?? []} onChange={(next) => set({ recommendationActions: next as FullQueueFilter['recommendationActions'] })} />
        <Checks legend="Channels" name="Channel" choices={channels} chosen={filter.filteredChannelIds ?? []} onChange={(next) => set({ filteredChannelIds: next })} />
        <Checks legend="Flagged by any of these policies" name="Flagged by" choices={policies} chosen={filter.labels ?? []} onChange={(next) => set({ labels: next })} />
        <Checks legend="An action was taken on the item" name="Action taken" choices={actions} chosen={filter.filteredActionIds ?? []} onChange={(next) => set({ filteredActionIds: next })} />
      </div>
      <div className="stack-sm">
        <span className="field-label">Policy conditions (all must hold)</span>
        {conditions.map((c, i) => (
          <div key={i} className="row" style={{ alignItems: 'flex-end' }} data-testid="label-condition">
            <div style={{ flex: '2 1 180px' }}>
              <Field label={`Condition ${i + 1} policy`}>
                {(id) => (
                  <select id={id} className="select" value={c.label} onChange={(e) => setCondition(i, { label: e.target.value })}>
                    {policies.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
            <div style={{ flex: '1 1 150px' }}>
              <Field label={`Condition ${i + 1} test`}>
                {(id) => (
                  <select id={id} className="select" value={c.type} onChange={(e) => setCondition(i, { type: e.target.value as LabelCondition })}>
                    <option value="FLAGGED">is flagged</option>
                    <option value="NOT_FLAGGED">is not flagged</option>
                    <option value="THRESHOLDS">score between</option>
                  </select>
                )}
              </Field>
            </div>
            {c.type === 'THRESHOLDS' &&
              (['minThreshold', 'maxThreshold'] as const).map((k) => (
                <div key={k} style={{ flex: '0 1 110px' }}>
                  <Field label={`Condition ${i + 1} ${k === 'minThreshold' ? 'minimum' : 'maximum'}`}>
                    {(id) => <input id={id} className="input" type="number" min={0} max={1} step={0.05} value={c[k] ?? ''} onChange={(e) => setCondition(i, { [k]: e.target.value === '' ? null : Number(e.target.value) })} />}
                  </Field>
                </div>
              ))}
            <Button size="sm" onClick={() => set({ filterLabels: conditions.filter((_, j) => j !== i) })} aria-label={`Remove condition ${i + 1}`}>
              Remove
            </Button>
          </div>
        ))}
        <div>
          <Button size="sm" onClick={() => set({ filterLabels: [...conditions, { label: policies[0]?.id ?? 'toxicity', type: 'FLAGGED' }] })}>
            Add a policy condition
          </Button>
        </div>
      </div>
      <div className="row">
        <label className="check">
          <input type="checkbox" checked={filter.showShadowFlagged ?? true} onChange={(e) => set({ showShadowFlagged: e.target.checked })} /> Show shadow-flagged items
        </label>
        <label className="check">
          <input type="checkbox" checked={filter.showChecked ?? false} onChange={(e) => set({ showChecked: e.target.checked })} /> List resolved items too by default
        </label>
      </div>
    </div>
  );
}
