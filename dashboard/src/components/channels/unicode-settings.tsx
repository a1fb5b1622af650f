import { SIGNALS } from '../items/signals.ts';
import type { UnicodeSignal } from '../items/types.ts';
import type { PolicySettings } from './types.ts';

const ID = 'unicode_spoofing';

/** The four combinations of the normalization setting and the policy, in words (docs/unicode.md). */
const TABLE: { normalize: boolean; detect: boolean; says: string }[] = [
  { normalize: true, detect: false, says: 'Disguised text is quietly rewritten before the other policies read it; the result says whether spoofing was seen (evaluation.unicode_spoofed), but nothing is flagged for it.' },
  { normalize: true, detect: true, says: 'The same rewriting, and spoofing is also a signal of its own: it can flag (or shadow-flag) the item, raise severity and be used in rules.' },
  { normalize: false, detect: true, says: 'Spoofing is detected and reported, but the other policies read the text exactly as it was written, disguises included.' },
  { normalize: false, detect: false, says: 'No detection at all: the text is passed on as written and unicode_spoofed is left out of the result.' },
];

/**
 * The Unicode spoofing policy, configured here only (interface: "configured in the dashboard
 * only"): detection on/off, Flag or Shadow flag, one switch per signal; and the channel's
 * normalization setting with what each combination does.
 */
export function UnicodeSettings({
  policies,
  normalization,
  signals,
  onPolicies,
  onNormalization,
}: {
  policies: PolicySettings[];
  normalization: boolean;
  signals: UnicodeSignal[];
  onPolicies: (next: PolicySettings[]) => void;
  onNormalization: (next: boolean) => void;
}) {
  const entry = policies.find((p) => p.id === ID);
  const enabled = entry !== undefined;
  const mode = entry?.mode === 'shadow' ? 'shadow' : 'flag';
  const put = (next: PolicySettings | null) => {
    if (next === null) onPolicies(policies.filter((p) => p.id !== ID));
    else if (entry) onPolicies(policies.map((p) => (p.id === ID ? next : p)));
    else onPolicies([...policies, next]);
  };
  const signalOn = (s: UnicodeSignal) => entry?.signals?.[s] !== false;
  return (
    <div className="stack" data-testid="unicode-settings">
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => put(e.target.checked ? { id: ID, flag: true } : null)} /> Enable spoofing detection
      </label>
      <fieldset className="stack-sm" disabled={!enabled} style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="field-label">Mode</legend>
        <label className="check">
          <input type="radio" name="unicode-mode" checked={mode === 'flag'} onChange={() => entry && put({ ...withoutMode(entry), flag: true })} /> Flag
          <span className="small muted"> — an enabled signal flags the item</span>
        </label>
        <label className="check">
          <input type="radio" name="unicode-mode" checked={mode === 'shadow'} onChange={() => entry && put({ ...entry, flag: true, mode: 'shadow' })} /> Shadow flag
          <span className="small muted"> — observe only: the item is shadow-flagged (queues can show it), never flagged</span>
        </label>
      </fieldset>
      <fieldset className="stack-sm" disabled={!enabled} style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="field-label">Signals</legend>
        {signals.map((s) => (
          <label key={s} className="check">
            <input
              type="checkbox"
              aria-label={`Signal ${SIGNALS[s]?.name ?? s}`}
              checked={signalOn(s)}
              onChange={(e) => entry && put({ ...entry, signals: { ...entry.signals, [s]: e.target.checked } })}
            />{' '}
            <span>
              {SIGNALS[s]?.name ?? s} <code className="muted small">{s}</code>
              <span className="small muted"> — {SIGNALS[s]?.explain}</span>
            </span>
          </label>
        ))}
        <span className="small muted">A signal switched off is still detected and reported (label probability 1, not flagged); it just does not flag on its own.</span>
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={normalization} onChange={(e) => onNormalization(e.target.checked)} /> Normalize disguised text before other policies run
      </label>
      <div className="table-wrap">
        <table className="table" aria-label="Normalization and detection">
          <thead>
            <tr>
              <th>Normalization</th>
              <th>Detection</th>
              <th>What happens</th>
            </tr>
          </thead>
          <tbody>
            {TABLE.map((row) => {
              const current = row.normalize === normalization && row.detect === enabled;
              return (
                <tr key={`${row.normalize}-${row.detect}`} aria-current={current ? 'true' : undefined} data-current={current ? 'true' : undefined} style={current ? { background: 'var(--accent-soft, #eef4ff)', fontWeight: 550 } : undefined}>
                  <td>{row.normalize ? 'on' : 'off'}</td>
                  <td>{row.detect ? 'on' : 'off'}</td>
                  <td>
                    {row.says}
                    {current && <span className="small muted"> (this channel)</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <span className="small muted">Normalization turns lookalike letters into the real ones, removes invisible characters and strips zalgo marks; text that is not disguised passes byte for byte. It applies to text only, each field of an object separately.</span>
    </div>
  );
}

function withoutMode(entry: PolicySettings): PolicySettings {
  const { mode: _mode, ...rest } = entry;
  return rest;
}
