import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button, Dialog, Field } from '../kit/kit.tsx';
import { TRUST_NAMES } from './badges.tsx';

const UNITS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

function useSubmit(onDone: () => void) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  return { error, busy, submit };
}

export function BlockDialog({ name, temporary, onConfirm, onClose }: { name: string; temporary: boolean; onConfirm: (body: { reason?: string; durationMs?: number }) => Promise<unknown>; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState('24');
  const [unit, setUnit] = useState<keyof typeof UNITS>('hours');
  const { error, busy, submit } = useSubmit(onClose);
  const go = () => {
    const body: { reason?: string; durationMs?: number } = {};
    if (reason.trim()) body.reason = reason.trim();
    if (temporary) body.durationMs = Math.round(Number(amount) * UNITS[unit]);
    if (temporary && !(body.durationMs! > 0)) return;
    void submit(() => onConfirm(body));
  };
  return (
    <Dialog
      title={temporary ? `Suspend ${name} for a while` : `Block ${name}`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-close>
            Cancel
          </Button>
          <Button variant="danger" disabled={busy} onClick={go}>
            {temporary ? 'Suspend' : 'Block until unblocked'}
          </Button>
        </>
      }
    >
      <form className="stack" onSubmit={(e) => {
        e.preventDefault();
        go();
      }}>
        {error && (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        )}
        {temporary && (
          <div className="row" style={{ alignItems: 'flex-end' }}>
            <Field label="Duration">{(id) => <input id={id} className="input" type="number" min="1" step="any" value={amount} onChange={(e) => setAmount(e.target.value)} style={{ width: 110 }} />}</Field>
            <Field label="Unit">
              {(id) => (
                <select id={id} className="select" value={unit} onChange={(e) => setUnit(e.target.value as keyof typeof UNITS)}>
                  {Object.keys(UNITS).map((u) => (
                    <option key={u}>{u}</option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        )}
        <Field label="Reason (kept in the audit log)">{(id) => <input id={id} className="input" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} />}</Field>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

export function UnblockDialog({ name, onConfirm, onClose }: { name: string; onConfirm: (body: { reason?: string }) => Promise<unknown>; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const { error, busy, submit } = useSubmit(onClose);
  const go = () => void submit(() => onConfirm(reason.trim() ? { reason: reason.trim() } : {}));
  return (
    <Dialog title={`Unblock ${name}`} onClose={onClose} footer={<><Button onClick={onClose} data-close>Cancel</Button><Button variant="primary" disabled={busy} onClick={go}>Unblock</Button></>}>
      <form onSubmit={(e) => {
        e.preventDefault();
        go();
      }}>
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <Field label="Reason (kept in the audit log)">{(id) => <input id={id} className="input" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} />}</Field>
      </form>
    </Dialog>
  );
}

export function TrustDialog({ current, onConfirm, onClose }: { current: number | null; onConfirm: (body: { level: number | null; reason: string }) => Promise<unknown>; onClose: () => void }) {
  const [level, setLevel] = useState(current === null ? 'auto' : String(current));
  const [reason, setReason] = useState('');
  const { error, busy, submit } = useSubmit(onClose);
  const go = () => {
    if (!reason.trim()) return;
    void submit(() => onConfirm({ level: level === 'auto' ? null : Number(level), reason: reason.trim() }));
  };
  return (
    <Dialog title="Change trust level" onClose={onClose} footer={<><Button onClick={onClose} data-close>Cancel</Button><Button variant="primary" disabled={busy || !reason.trim()} onClick={go}>Save trust level</Button></>}>
      <form className="stack" onSubmit={(e) => {
        e.preventDefault();
        go();
      }}>
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <Field label="Trust level">
          {(id) => (
            <select id={id} className="select" value={level} onChange={(e) => setLevel(e.target.value)}>
              <option value="auto">Automatic (computed from behaviour)</option>
              {Object.entries(TRUST_NAMES).map(([value, name]) => (
                <option key={value} value={value}>
                  {value} · {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Reason (required)">{(id) => <input id={id} className="input" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} required />}</Field>
      </form>
    </Dialog>
  );
}
