import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button, Dialog, Field } from '../kit/kit.tsx';
import type { ActionView } from '../queues/types.ts';

export interface ActionInput {
  value?: string;
  comment?: string;
  durationMs?: number;
}

const UNITS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

export const needsDuration = (action: Pick<ActionView, 'type'>) => action.type === 'AUTHOR_BLOCK_TEMP';

/**
 * Asks for what an action needs (a value from its list or free text, a duration for a temporary
 * block) and one reason, and says how many targets it applies to before it runs.
 */
export function ActionDialog({ action, count, noun, onConfirm, onClose }: { action: ActionView; count: number; noun: string; onConfirm: (input: ActionInput) => Promise<void>; onClose: () => void }) {
  const [value, setValue] = useState('');
  const [comment, setComment] = useState('');
  const [amount, setAmount] = useState('24');
  const [unit, setUnit] = useState<keyof typeof UNITS>('hours');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hasValues = action.possibleValues.length > 0;
  const asksValue = hasValues || action.valueRequired;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (action.valueRequired && !value.trim()) return setError('Choose a value first.');
    const input: ActionInput = {};
    if (value.trim()) input.value = value.trim();
    if (comment.trim()) input.comment = comment.trim();
    if (needsDuration(action)) {
      const n = Number(amount);
      if (!Number.isFinite(n) || n <= 0) return setError('Enter a duration above zero.');
      input.durationMs = Math.round(n * UNITS[unit]);
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm(input);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  const targets = `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;
  return (
    <Dialog
      title={action.name}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-close>
            Cancel
          </Button>
          <Button variant={action.type?.startsWith('AUTHOR_BLOCK') || action.type === 'AUTHOR_DELETE' || action.type === 'ITEM_REJECT' ? 'danger' : 'primary'} disabled={busy} onClick={() => void submit()}>
            {busy ? 'Applying…' : `Apply to ${targets}`}
          </Button>
        </>
      }
    >
      <form onSubmit={submit} className="stack">
        <p style={{ margin: 0 }}>
          <strong>{action.name}</strong> will be applied to <strong data-testid="action-count">{targets}</strong>.
          {action.description && <span className="muted"> {action.description}</span>}
        </p>
        {error && (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        )}
        {asksValue &&
          (hasValues && !action.freeText ? (
            <Field label={action.valueRequired ? 'Value (required)' : 'Value'}>
              {(id) => (
                <select id={id} className="select" value={value} onChange={(e) => setValue(e.target.value)}>
                  <option value="">Choose…</option>
                  {action.possibleValues.map((v) => (
                    <option key={v.value} value={v.value}>
                      {v.value}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : (
            <Field label={action.valueRequired ? 'Value (required)' : 'Value'} hint={hasValues ? 'Pick a suggestion or type your own.' : undefined}>
              {(id) => (
                <>
                  <input id={id} className="input" list={`${id}-values`} value={value} onChange={(e) => setValue(e.target.value)} maxLength={500} />
                  <datalist id={`${id}-values`}>
                    {action.possibleValues.map((v) => (
                      <option key={v.value} value={v.value} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
          ))}
        {needsDuration(action) && (
          <div className="row" style={{ alignItems: 'flex-end' }}>
            <Field label="Duration">{(id) => <input id={id} className="input" type="number" min="1" step="any" value={amount} onChange={(e) => setAmount(e.target.value)} style={{ width: 110 }} />}</Field>
            <Field label="Unit">
              {(id) => (
                <select id={id} className="select" value={unit} onChange={(e) => setUnit(e.target.value as keyof typeof UNITS)}>
                  {Object.keys(UNITS).map((u) => (
                    <option key={u} value={u}>
                      {u}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        )}
        <Field label="Reason (kept in the audit log)" hint="Enter applies, Escape cancels.">{(id) => <input id={id} className="input" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={5000} />}</Field>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
