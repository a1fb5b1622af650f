import { useState, type ReactNode } from 'react';
import type { ErrorIssue } from '../../api/client.ts';
import { Button, Field } from '../kit/kit.tsx';
import type { ConditionField, EntryProperty } from './types.ts';

/** The values a field whose choices live elsewhere may take, each with what the form shows for it. */
export interface Choice {
  value: string;
  label: string;
  group?: string;
}

export interface ChoiceLists {
  /** Policies: the channel's own first. */
  policy: Choice[];
  /** Labels of one policy; of every policy for an empty id. */
  labelsOf: (policyId: string | undefined) => Choice[];
  trustLevel: Choice[];
}

type When = Record<string, unknown>;
type Entry = Record<string, unknown>;

/** Issues of the server's last answer under one path (`/rules/0/when/trustLevel`), each with the rest of its path. */
export function issuesUnder(issues: ErrorIssue[], prefix: string): { at: string; message: string }[] {
  return issues.filter((i) => i.path === prefix || i.path?.startsWith(`${prefix}/`)).map((i) => ({ at: i.path!.slice(prefix.length + 1), message: i.message }));
}

export function IssueList({ issues, testId }: { issues: { at: string; message: string }[]; testId?: string }) {
  if (issues.length === 0) return null;
  return (
    <ul className="small" role="alert" data-testid={testId} style={{ color: 'var(--danger)', margin: 0, paddingLeft: 18 }}>
      {issues.map((i, n) => (
        <li key={n}>
          {i.at && <code>{i.at}</code>} {i.message}
        </li>
      ))}
    </ul>
  );
}

/** What a condition starts as when added: lists of known values and free names start empty, so nothing is chosen for the user. */
function emptyValue(field: ConditionField, choices: ChoiceLists): unknown {
  switch (field.kind) {
    case 'entries':
      return [newEntry(field.properties, choices)];
    case 'range':
      return {};
    case 'choices':
    case 'names':
      return [];
  }
}

/** A new entry: required strings get the first choice; an optional yes/no starts at yes, as "flagged" is what a rule most often asks. */
function newEntry(properties: EntryProperty[], choices: ChoiceLists): Entry {
  const entry: Entry = {};
  for (const p of properties) {
    if (p.kind === 'string' && p.required) entry[p.key] = (p.choicesFrom === 'label' ? choices.labelsOf(undefined) : p.choicesFrom === 'policy' ? choices.policy : [])[0]?.value ?? '';
    if (p.kind === 'boolean') entry[p.key] = true;
    if (p.kind === 'number' && p.required) entry[p.key] = p.min;
  }
  return entry;
}

const numberOrUndefined = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? undefined : Number(text));

function without<T extends Record<string, unknown>>(value: T, key: string, next: unknown): T {
  const copy: Record<string, unknown> = { ...value };
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy as T;
}

/** A select of choices; the current value is kept as an option even when no list holds it (a policy removed since). */
function ChoiceSelect({ id, value, choices, empty, onChange, label }: { id?: string; value: string | undefined; choices: Choice[]; empty?: string; onChange: (v: string | undefined) => void; label?: string }) {
  const all = value !== undefined && value !== '' && !choices.some((c) => c.value === value) ? [{ value, label: value }, ...choices] : choices;
  const groups = [...new Set(all.map((c) => c.group ?? ''))];
  const options = (list: Choice[]) =>
    list.map((c) => (
      <option key={c.value} value={c.value}>
        {c.label}
      </option>
    ));
  return (
    <select id={id} aria-label={label} className="select" value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}>
      {empty !== undefined && <option value="">{empty}</option>}
      {groups.length <= 1
        ? options(all)
        : groups.map((g) => (
            <optgroup key={g} label={g || 'Other'}>
              {options(all.filter((c) => (c.group ?? '') === g))}
            </optgroup>
          ))}
    </select>
  );
}

function RangeControl({ field, value, choices, onChange }: { field: Extract<ConditionField, { kind: 'range' }>; value: { min?: number; max?: number }; choices: ChoiceLists; onChange: (v: { min?: number; max?: number }) => void }) {
  // Whole values from a short list (trust levels) are chosen by name; other bounds are typed.
  const listed = field.choicesFrom === 'trustLevel' ? choices.trustLevel : null;
  return (
    <div className="row">
      {(['min', 'max'] as const).map((bound) => (
        <div key={bound} style={{ flex: '0 1 200px' }}>
          <Field label={bound === 'min' ? 'At least' : 'At most'}>
            {(id) =>
              listed ? (
                <ChoiceSelect id={id} value={value[bound] === undefined ? undefined : String(value[bound])} choices={listed} empty={bound === 'min' ? 'no minimum' : 'no maximum'} onChange={(v) => onChange(without(value, bound, v === undefined ? undefined : Number(v)))} />
              ) : (
                <input
                  id={id}
                  className="input"
                  type="number"
                  min={field.min}
                  max={field.max}
                  step={field.integer ? 1 : 'any'}
                  placeholder={bound === 'min' ? `${field.min}` : `${field.max}`}
                  value={value[bound] ?? ''}
                  onChange={(e) => onChange(without(value, bound, numberOrUndefined(e.target.value)))}
                />
              )
            }
          </Field>
        </div>
      ))}
    </div>
  );
}

const parseNames = (text: string) => text.split(/[\s,]+/).filter((v) => v !== '');

function NamesControl({ field, value, onChange }: { field: Extract<ConditionField, { kind: 'names' }>; value: string[]; onChange: (v: string[]) => void }) {
  // The typed text is kept as typed (a trailing comma while typing); the list is what it parses to.
  const [typed, setTyped] = useState(value.join(', '));
  // The rule changed elsewhere (discard, the JSON view): show its list, not the stale text.
  const text = parseNames(typed).join() === value.join() ? typed : value.join(', ');
  return (
    <Field label={`${field.title}, separated by commas`} hint={`up to ${field.maxItems}`}>
      {(id) => (
        <input
          id={id}
          className="input mono"
          value={text}
          onChange={(e) => {
            setTyped(e.target.value);
            onChange(parseNames(e.target.value));
          }}
        />
      )}
    </Field>
  );
}

function EntryRow({ properties, entry, choices, onChange }: { properties: EntryProperty[]; entry: Entry; choices: ChoiceLists; onChange: (e: Entry) => void }) {
  const control = (p: EntryProperty, id: string): ReactNode => {
    const set = (v: unknown) => {
      let next = without(entry, p.key, v);
      // A label belongs to a policy: when the policy changes, a label it does not report moves to its first one.
      if (p.kind === 'string' && p.choicesFrom === 'policy') {
        for (const q of properties) {
          if (q.kind !== 'string' || q.choicesFrom !== 'label') continue;
          const labels = choices.labelsOf(typeof v === 'string' ? v : undefined);
          if (labels.length > 0 && !labels.some((l) => l.value === next[q.key])) next = without(next, q.key, labels[0]!.value);
        }
      }
      onChange(next);
    };
    const current = entry[p.key];
    if (p.kind === 'string') {
      const list = p.choicesFrom === 'policy' ? choices.policy : p.choicesFrom === 'label' ? choices.labelsOf(typeof entry.policy === 'string' ? entry.policy : undefined) : null;
      if (list) return <ChoiceSelect id={id} value={typeof current === 'string' ? current : undefined} choices={list} empty={p.required ? undefined : 'any'} onChange={set} />;
      return <input id={id} className="input" value={typeof current === 'string' ? current : ''} onChange={(e) => set(e.target.value === '' && !p.required ? undefined : e.target.value)} />;
    }
    if (p.kind === 'boolean') {
      return (
        <select id={id} className="select" value={current === undefined ? '' : String(current)} onChange={(e) => set(e.target.value === '' ? undefined : e.target.value === 'true')}>
          <option value="">either</option>
          <option value="true">yes</option>
          <option value="false">no</option>
        </select>
      );
    }
    return (
      <input
        id={id}
        className="input"
        type="number"
        min={p.min}
        max={p.max}
        step={p.max <= 1 ? 0.05 : 1}
        placeholder={p.description ?? ''}
        value={typeof current === 'number' ? current : ''}
        onChange={(e) => set(numberOrUndefined(e.target.value))}
      />
    );
  };
  return (
    <>
      {properties.map((p) => (
        <div key={p.key} style={{ flex: p.kind === 'string' ? '2 1 160px' : '1 1 100px' }}>
          <Field label={p.title}>{(id) => control(p, id)}</Field>
        </div>
      ))}
    </>
  );
}

function EntriesControl({ field, value, choices, onChange, onEmpty }: { field: Extract<ConditionField, { kind: 'entries' }>; value: Entry[]; choices: ChoiceLists; onChange: (v: Entry[]) => void; onEmpty: () => void }) {
  return (
    <div className="stack-sm">
      {value.map((entry, i) => (
        <div key={i} className="row" data-testid="condition-entry" style={{ alignItems: 'flex-end' }}>
          <EntryRow properties={field.properties} entry={entry} choices={choices} onChange={(e) => onChange(value.map((x, j) => (j === i ? e : x)))} />
          <Button size="sm" aria-label={`Remove entry ${i + 1} of ${field.title}`} onClick={() => (value.length === 1 ? onEmpty() : onChange(value.filter((_, j) => j !== i)))}>
            ✕
          </Button>
        </div>
      ))}
      {value.length < field.maxItems && (
        <div>
          <Button size="sm" variant="ghost" aria-label={`Add an entry to ${field.title}`} onClick={() => onChange([...value, newEntry(field.properties, choices)])}>
            + another
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * A rule's conditions as a form: one block per condition present, built from the catalog's
 * description of the rule schema (nothing here names a condition), a menu to add the others.
 */
export function ConditionsForm({ fields, when, choices, issues, ruleLabel, onChange }: { fields: ConditionField[]; when: When; choices: ChoiceLists; issues: ErrorIssue[]; ruleLabel: string; onChange: (w: When) => void }) {
  const present = fields.filter((f) => when[f.key] !== undefined);
  const absent = fields.filter((f) => when[f.key] === undefined);
  const set = (key: string, value: unknown) => onChange(without(when, key, value));
  return (
    <div className="stack-sm">
      {present.length === 0 && <span className="small muted">No condition: the rule holds for everything (a catch-all at the end of the list).</span>}
      {present.map((field) => {
        const value = when[field.key];
        return (
          <fieldset key={field.key} className="card card-body stack-sm" data-testid="condition" data-condition={field.key} style={{ margin: 0 }}>
            <div className="row-between">
              <legend className="field-label" style={{ padding: 0 }}>
                {field.title} <span className="muted small">— {field.description}</span>
              </legend>
              <Button size="sm" variant="ghost" aria-label={`Remove condition ${field.title} from ${ruleLabel}`} onClick={() => set(field.key, undefined)}>
                Remove condition
              </Button>
            </div>
            {field.kind === 'range' && <RangeControl field={field} value={(value ?? {}) as { min?: number; max?: number }} choices={choices} onChange={(v) => set(field.key, v)} />}
            {field.kind === 'choices' && (
              <div className="row">
                {field.values.map((v) => {
                  const list = (value ?? []) as string[];
                  return (
                    <label key={v} className="check">
                      <input type="checkbox" checked={list.includes(v)} onChange={(e) => set(field.key, e.target.checked ? [...list, v] : list.filter((x) => x !== v))} /> {v}
                    </label>
                  );
                })}
              </div>
            )}
            {field.kind === 'names' && <NamesControl field={field} value={(value ?? []) as string[]} onChange={(v) => set(field.key, v)} />}
            {field.kind === 'entries' && <EntriesControl field={field} value={(value ?? []) as Entry[]} choices={choices} onChange={(v) => set(field.key, v)} onEmpty={() => set(field.key, undefined)} />}
            <IssueList issues={issuesUnder(issues, `/${field.key}`)} testId="condition-issues" />
          </fieldset>
        );
      })}
      {absent.length > 0 && (
        <div style={{ maxWidth: 320 }}>
          <Field label={`Add a condition to ${ruleLabel}`}>
            {(id) => (
              <select
                id={id}
                className="select"
                value=""
                onChange={(e) => {
                  const field = fields.find((f) => f.key === e.target.value);
                  if (field) set(field.key, emptyValue(field, choices));
                }}
              >
                <option value="">Choose…</option>
                {absent.map((f) => (
                  <option key={f.key} value={f.key}>
                    {f.title}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      )}
    </div>
  );
}
