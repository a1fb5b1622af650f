import { useMemo, useState } from 'react';
import { Button, Field } from '../kit/kit.tsx';
import type { ErrorIssue } from '../../api/client.ts';
import { ConditionsForm, IssueList, issuesUnder, type Choice, type ChoiceLists } from './rule-builder.tsx';
import { policyName } from './use-channels.ts';
import type { Catalog, ConditionField, RecommendationRule, TriagePreset } from './types.ts';

export interface RecommendationDraft {
  triage: { review: number; reject: number; preset?: TriagePreset };
  alwaysReview: string[];
  alwaysReject: string[];
  rules: RecommendationRule[];
  dryRun: boolean;
}

/** The JSON view's text as a `when` object, or why it is not one. */
function parseWhen(text: string): { when: RecommendationRule['when'] } | { error: string } {
  try {
    const when = JSON.parse(text) as unknown;
    if (typeof when !== 'object' || when === null || Array.isArray(when)) return { error: 'Not valid: an object is expected' };
    return { when: when as RecommendationRule['when'] };
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
}

/**
 * One rule: name, action, and its conditions built with the form, or edited as the API's `when`
 * JSON for power users. Both views edit the same rule; the form is offered again once the JSON parses.
 */
function RuleEditor({ rule, index, count, fields, choices, issues, onChange, onMove, onRemove }: { rule: RecommendationRule; index: number; count: number; fields: ConditionField[]; choices: ChoiceLists; issues: ErrorIssue[]; onChange: (r: RecommendationRule) => void; onMove: (by: -1 | 1) => void; onRemove: () => void }) {
  const label = `rule ${index + 1}`;
  // A rule the form cannot show in full opens as JSON: a condition it does not know, or a value outside the
  // form's choices that the API accepts (a meta type stored before the known set was listed, a fractional level).
  const unshownKeys = Object.entries(rule.when as Record<string, unknown>)
    .filter(([key, value]) => {
      const field = fields.find((f) => f.key === key);
      if (!field) return true;
      if (field.kind === 'choices') return Array.isArray(value) && value.some((v) => !field.values.includes(v as string));
      if (field.kind === 'range' && field.integer) return Object.values(value as Record<string, unknown>).some((v) => typeof v === 'number' && !Number.isInteger(v));
      return false;
    })
    .map(([key]) => key);
  const [view, setView] = useState<'form' | 'json'>(unshownKeys.length > 0 ? 'json' : 'form');
  const [typed, setTyped] = useState(() => JSON.stringify(rule.when, null, 2));
  const [bad, setBad] = useState<string | null>(null);
  // The rule changed elsewhere (discard, a move): show it, unless the typed text is mid-edit and not yet JSON.
  const typedWhen = parseWhen(typed);
  const text = bad !== null || ('when' in typedWhen && JSON.stringify(typedWhen.when) === JSON.stringify(rule.when)) ? typed : JSON.stringify(rule.when, null, 2);
  const at = `/rules/${index}`;
  const whenIssues = issuesUnder(issues, `${at}/when`).map((i) => ({ path: i.at === '' ? '' : `/${i.at}`, message: i.message }));
  // In the form, an issue of a condition shown is listed beside it; the rest (name, action, the JSON view) here.
  const besideCondition = (path: string) => view === 'form' && fields.some((f) => (rule.when as Record<string, unknown>)[f.key] !== undefined && (path === `when/${f.key}` || path.startsWith(`when/${f.key}/`)));
  const ruleIssues = issuesUnder(issues, at).filter((i) => !besideCondition(i.at));
  return (
    <li className="card card-body stack-sm" data-testid="rule" data-view={view}>
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
        <div className="row" role="group" aria-label={`Edit ${label} as`} style={{ gap: 0 }}>
          <Button size="sm" variant={view === 'form' ? 'primary' : 'default'} aria-pressed={view === 'form'} disabled={view === 'json' && (bad !== null || unshownKeys.length > 0)} title={bad ?? (unshownKeys.length > 0 ? `The form cannot show: ${unshownKeys.join(', ')}` : undefined)} onClick={() => setView('form')}>
            Form
          </Button>
          <Button
            size="sm"
            variant={view === 'json' ? 'primary' : 'default'}
            aria-pressed={view === 'json'}
            onClick={() => {
              setTyped(JSON.stringify(rule.when, null, 2));
              setBad(null);
              setView('json');
            }}
          >
            JSON
          </Button>
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
      {view === 'form' ? (
        <>
          <span className="field-label">When all of these hold</span>
          <ConditionsForm fields={fields} when={rule.when as Record<string, unknown>} choices={choices} issues={whenIssues} ruleLabel={label} onChange={(when) => onChange({ ...rule, when: when as RecommendationRule['when'] })} />
        </>
      ) : (
        <Field label={`Rule ${index + 1} conditions (JSON)`} hint={`The API's "when" object; all present must hold. Keys: ${fields.map((f) => f.key).join(', ')}.`}>
          {(id) => (
            <textarea
              id={id}
              className="textarea mono"
              rows={Math.min(16, Math.max(6, text.split('\n').length))}
              value={text}
              onChange={(e) => {
                setTyped(e.target.value);
                const parsed = parseWhen(e.target.value);
                if ('error' in parsed) return setBad(parsed.error);
                setBad(null);
                onChange({ ...rule, when: parsed.when });
              }}
            />
          )}
        </Field>
      )}
      {view === 'json' && bad && <span className="small" style={{ color: 'var(--danger)' }}>{bad}</span>}
      {view === 'json' && unshownKeys.length > 0 && <span className="small muted">The form cannot show {unshownKeys.join(', ')} (a condition or a value it does not list); the server will say whether it is valid.</span>}
      <IssueList issues={ruleIssues} testId="rule-issues" />
    </li>
  );
}

/** Triage thresholds or a preset, trust rules (always review / always reject), ordered rules and dry run (docs/recommendation.md). */
/** The values the rule builder offers: the channel's policies first, then every other the project can run; their labels; trust levels by name. */
function choiceLists(catalog: Catalog, running: string[]): ChoiceLists {
  const known = [...catalog.policies.map((p) => p.id), ...catalog.wordlists.map((w) => `${catalog.wordlistPolicy.prefix}${w.key ?? w.id}`)];
  const others = known.filter((id) => !running.includes(id));
  const policy: Choice[] = [
    ...running.map((id) => ({ value: id, label: policyName(id), group: 'On this channel' })),
    ...others.map((id) => ({ value: id, label: policyName(id), group: 'Not on this channel' })),
  ];
  const labelsBy = new Map(catalog.policies.map((p) => [p.id, p.labels]));
  const allLabels = [...new Set(catalog.policies.flatMap((p) => p.labels))].sort();
  return {
    policy,
    labelsOf: (id) => (id === undefined ? allLabels : (labelsBy.get(id) ?? [])).map((l) => ({ value: l, label: l })),
    trustLevel: catalog.trustLevels.map((t) => ({ value: String(t.level), label: `${t.level} · ${t.name}` })),
  };
}

export function RecommendationSettings({ catalog, running, draft, issues = [], onChange }: { catalog: Catalog; running: string[]; draft: RecommendationDraft; issues?: ErrorIssue[]; onChange: (next: RecommendationDraft) => void }) {
  const choices = useMemo(() => choiceLists(catalog, running), [catalog, running.join()]);
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
              fields={catalog.ruleConditions}
              choices={choices}
              issues={issues}
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
              set({ rules: [...draft.rules, { name: '', when: { policies: [{ id: choices.policy[0]?.value ?? '', flagged: true }] }, action: 'review' }] });
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
