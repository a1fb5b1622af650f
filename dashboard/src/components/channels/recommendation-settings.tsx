import { useState } from 'react';
import { Button, Field } from '../kit/kit.tsx';
import { policyName } from './use-channels.ts';
import type { Catalog, RecommendationRule, TriagePreset } from './types.ts';

export interface RecommendationDraft {
  triage: { review: number; reject: number; preset?: TriagePreset };
  alwaysReview: string[];
  alwaysReject: string[];
  rules: RecommendationRule[];
  dryRun: boolean;
}

/** One rule; its conditions are edited as JSON (the API's `when` object) and checked by the server on save. */
function RuleEditor({ rule, index, count, onChange, onMove, onRemove }: { rule: RecommendationRule; index: number; count: number; onChange: (r: RecommendationRule) => void; onMove: (by: -1 | 1) => void; onRemove: () => void }) {
  const [text, setText] = useState(() => JSON.stringify(rule.when, null, 2));
  const [bad, setBad] = useState<string | null>(null);
  return (
    <li className="card card-body stack-sm" data-testid="rule">
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <span className="mono muted">{index + 1}.</span>
        <div style={{ flex: '2 1 200px' }}>
          <Field label={`Rule ${index + 1} name`}>{(id) => <input id={id} className="input" value={rule.name ?? ''} onChange={(e) => onChange({ ...rule, name: e.target.value })} />}</Field>
        </div>
        <div style={{ flex: '1 1 120px' }}>
          <Field label={`Rule ${index + 1} action`}>
            {(id) => (
              <select id={id} className="select" value={rule.action} onChange={(e) => onChange({ ...rule, action: e.target.value as RecommendationRule['action'] })}>
                <option value="allow">allow</option>
                <option value="review">review</option>
                <option value="reject">reject</option>
              </select>
            )}
          </Field>
        </div>
        <Button size="sm" disabled={index === 0} onClick={() => onMove(-1)} aria-label={`Move rule ${index + 1} up`}>
          ↑
        </Button>
        <Button size="sm" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={`Move rule ${index + 1} down`}>
          ↓
        </Button>
        <Button size="sm" variant="danger" onClick={onRemove} aria-label={`Remove rule ${index + 1}`}>
          Remove
        </Button>
      </div>
      <Field label={`Rule ${index + 1} conditions (JSON)`} hint='All present must hold, e.g. {"policies":[{"id":"spam","flagged":true}],"trustLevel":{"max":0}}. Keys: policies, labels, trustLevel, authorStatus, riskLevel, languages, metaTypes, contentTypes.'>
        {(id) => (
          <textarea
            id={id}
            className="textarea mono"
            rows={6}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              try {
                const when = JSON.parse(e.target.value) as unknown;
                if (typeof when !== 'object' || when === null || Array.isArray(when)) throw new Error('an object is expected');
                setBad(null);
                onChange({ ...rule, when: when as RecommendationRule['when'] });
              } catch (error) {
                setBad(`Not valid JSON: ${(error as Error).message}`);
              }
            }}
          />
        )}
      </Field>
      {bad && <span className="small" style={{ color: 'var(--danger)' }}>{bad}</span>}
    </li>
  );
}

/** Triage thresholds or a preset, trust rules (always review / always reject), ordered rules and dry run (docs/recommendation.md). */
export function RecommendationSettings({ catalog, running, draft, onChange }: { catalog: Catalog; running: string[]; draft: RecommendationDraft; onChange: (next: RecommendationDraft) => void }) {
  const presets = catalog.triage.presets;
  const set = (patch: Partial<RecommendationDraft>) => onChange({ ...draft, ...patch });
  const toggle = (list: 'alwaysReview' | 'alwaysReject', id: string, on: boolean) => set({ [list]: on ? [...draft[list], id] : draft[list].filter((p) => p !== id) });
  const [ruleKeys, setRuleKeys] = useState(() => draft.rules.map((_, i) => i));
  const [nextKey, setNextKey] = useState(draft.rules.length);
  const moveRule = (index: number, by: -1 | 1) => {
    const rules = [...draft.rules];
    const keys = [...ruleKeys];
    [rules[index], rules[index + by]] = [rules[index + by]!, rules[index]!];
    [keys[index], keys[index + by]] = [keys[index + by]!, keys[index]!];
    setRuleKeys(keys);
    set({ rules });
  };
  return (
    <div className="stack">
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <div style={{ flex: '1 1 160px' }}>
          <Field label="Triage preset" hint="lenient 0.7 / 0.95 · balanced 0.5 / 0.9 · strict 0.3 / 0.7">
            {(id) => (
              <select
                id={id}
                className="select"
                value={draft.triage.preset ?? 'custom'}
                onChange={(e) => {
                  const preset = e.target.value as TriagePreset | 'custom';
                  set({ triage: preset === 'custom' ? { review: draft.triage.review, reject: draft.triage.reject } : { ...presets[preset], preset } });
                }}
              >
                <option value="custom">Custom thresholds</option>
                {(Object.keys(presets) as TriagePreset[]).map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        {(['review', 'reject'] as const).map((k) => (
          <div key={k} style={{ flex: '1 1 120px' }}>
            <Field label={`Severity to ${k}`} hint={`default ${catalog.triage.default[k]}`}>
              {(id) => (
                <input id={id} className="input" type="number" min={0} max={1} step={0.05} value={draft.triage[k]} onChange={(e) => set({ triage: { review: draft.triage.review, reject: draft.triage.reject, [k]: Number(e.target.value) } })} />
              )}
            </Field>
          </div>
        ))}
      </div>
      <div className="grid-2">
        {(['alwaysReview', 'alwaysReject'] as const).map((list) => (
          <fieldset key={list} className="stack-sm" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="field-label">{list === 'alwaysReview' ? 'A flag from these policies always sends to review' : 'A flag from these policies always rejects'}</legend>
            {running.length === 0 && <span className="small muted">No policy runs on this channel.</span>}
            {running.map((id) => (
              <label key={id} className="check">
                <input type="checkbox" checked={draft[list].includes(id)} onChange={(e) => toggle(list, id, e.target.checked)} /> {policyName(id)}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      <div className="stack-sm">
        <span className="field-label">Rules, in order: the first that matches decides</span>
        {draft.rules.length === 0 && <span className="small muted">No rule: thresholds and the lists above decide.</span>}
        <ol className="stack-sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {draft.rules.map((rule, i) => (
            <RuleEditor
              key={ruleKeys[i] ?? i}
              rule={rule}
              index={i}
              count={draft.rules.length}
              onChange={(r) => set({ rules: draft.rules.map((x, j) => (j === i ? r : x)) })}
              onMove={(by) => moveRule(i, by)}
              onRemove={() => {
                setRuleKeys(ruleKeys.filter((_, j) => j !== i));
                set({ rules: draft.rules.filter((_, j) => j !== i) });
              }}
            />
          ))}
        </ol>
        <div>
          <Button
            size="sm"
            onClick={() => {
              setRuleKeys([...ruleKeys, nextKey]);
              setNextKey(nextKey + 1);
              set({ rules: [...draft.rules, { name: '', when: { policies: [{ id: running[0] ?? 'toxicity', flagged: true }] }, action: 'review' }] });
            }}
          >
            Add a rule
          </Button>
        </div>
      </div>
      <label className="check">
        <input type="checkbox" checked={draft.dryRun} onChange={(e) => set({ dryRun: e.target.checked })} /> Dry run
        <span className="small muted"> — callers get allow / not flagged; stored items and queues keep the real verdict, so you can watch before enforcing</span>
      </label>
    </div>
  );
}
