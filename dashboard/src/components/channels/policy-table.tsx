import { Badge } from '../kit/kit.tsx';
import { policyName } from './use-channels.ts';
import type { Catalog, PolicySettings } from './types.ts';

type Flagging = 'flag' | 'shadow' | 'score';

const flaggingOf = (p: PolicySettings): Flagging => (p.flag === false ? 'score' : p.mode === 'shadow' ? 'shadow' : 'flag');

/** The entry with a new flagging choice; `mode` is left alone on wordlist policies, where it means blocklist or allowlist. */
export function withFlagging(p: PolicySettings, flagging: Flagging, shadowable: boolean): PolicySettings {
  const { mode, ...rest } = p;
  const keep = !shadowable && mode !== undefined ? { mode } : {};
  if (flagging === 'shadow') return { ...rest, flag: true, mode: 'shadow' };
  return { ...rest, ...keep, flag: flagging === 'flag' };
}

interface Row {
  id: string;
  label: string;
  defaultThreshold: number;
  labels: string[];
  shadowable: boolean;
  note?: string;
}

export function policyRows(catalog: Catalog, policies: PolicySettings[]): Row[] {
  const rows: Row[] = catalog.policies
    .filter((p) => p.id !== 'unicode_spoofing')
    .map((p) => ({ id: p.id, label: policyName(p.id), defaultThreshold: p.defaultThreshold, labels: p.labels, shadowable: true }));
  for (const list of catalog.wordlists) {
    const id = `${catalog.wordlistPolicy.prefix}${list.key ?? list.id}`;
    rows.push({ id, label: `Wordlist: ${list.name ?? list.key ?? list.id}`, defaultThreshold: catalog.wordlistPolicy.defaultThreshold, labels: [], shadowable: false, note: `${list.wordCount.toLocaleString('en')} words` });
  }
  // Entries the catalog does not list (guidelines, a list named by id) are shown and kept as they are.
  for (const p of policies) {
    if (p.id === 'unicode_spoofing' || rows.some((r) => r.id === p.id)) continue;
    rows.push({ id: p.id, label: policyName(String(p.guidelineKey ?? p.id)), defaultThreshold: 0.5, labels: [], shadowable: false, note: p.id === 'guideline' ? 'guideline (edit through the API)' : undefined });
  }
  return rows;
}

/** Every policy the project can run: on/off, how it flags, its threshold (default shown), its labels. */
export function PolicyTable({ catalog, policies, onChange }: { catalog: Catalog; policies: PolicySettings[]; onChange: (next: PolicySettings[]) => void }) {
  const rows = policyRows(catalog, policies);
  const entryOf = (id: string) => policies.find((p) => p.id === id);
  const replace = (id: string, next: PolicySettings | null) => {
    if (next === null) onChange(policies.filter((p) => p.id !== id));
    else if (entryOf(id)) onChange(policies.map((p) => (p.id === id ? next : p)));
    else onChange([...policies, next]);
  };
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Policies">
        <thead>
          <tr>
            <th>On</th>
            <th>Policy</th>
            <th>Flagging</th>
            <th>Threshold</th>
            <th>Labels</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const entry = entryOf(row.id);
            const on = entry !== undefined;
            return (
              <tr key={row.id} data-policy={row.id}>
                <td>
                  <input type="checkbox" aria-label={`Run ${row.label}`} checked={on} onChange={(e) => replace(row.id, e.target.checked ? { id: row.id, flag: true } : null)} />
                </td>
                <td>
                  <strong>{row.label}</strong>
                  <div className="small muted mono">{row.id}</div>
                  {row.note && <div className="small muted">{row.note}</div>}
                </td>
                <td>
                  <select
                    className="select"
                    style={{ minWidth: 140 }}
                    aria-label={`Flagging of ${row.label}`}
                    disabled={!on}
                    value={entry ? flaggingOf(entry) : 'flag'}
                    onChange={(e) => entry && replace(row.id, withFlagging(entry, e.target.value as Flagging, row.shadowable))}
                  >
                    <option value="flag">Flag</option>
                    {row.shadowable && <option value="shadow">Shadow flag</option>}
                    <option value="score">Score only</option>
                  </select>
                </td>
                <td>
                  <input
                    className="input"
                    style={{ width: 90 }}
                    type="number"
                    min={0}
                    max={1}
                    step={0.05}
                    aria-label={`Threshold of ${row.label}`}
                    disabled={!on}
                    placeholder={String(row.defaultThreshold)}
                    value={entry?.threshold ?? ''}
                    onChange={(e) => {
                      if (!entry) return;
                      const { threshold: _old, ...rest } = entry;
                      replace(row.id, e.target.value === '' ? rest : { ...rest, threshold: Number(e.target.value) });
                    }}
                  />
                  <div className="small muted">default {row.defaultThreshold}</div>
                </td>
                <td>
                  <span className="row" style={{ gap: 4 }}>
                    {row.labels.length === 0 ? <span className="small muted">—</span> : row.labels.map((l) => <Badge key={l} outline>{l.replace(/_/g, ' ')}</Badge>)}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="small muted" style={{ padding: '0 12px' }}>
        <strong>Flag</strong>: a score at or above the threshold flags the item. <strong>Shadow flag</strong>: the policy scores and the item is marked shadow-flagged (queues can show
        it) but it is never flagged and its score does not move the verdict: try a policy out before it acts. <strong>Score only</strong>: the score is reported, nothing more.
      </p>
    </div>
  );
}
