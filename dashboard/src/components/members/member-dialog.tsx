import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button, Dialog, Field } from '../kit/kit.tsx';
import type { QueueView } from '../queues/types.ts';
import type { Role } from '../session/session.tsx';
import { addMember, ROLE_INFO, updateMember, type Member } from './use-members.ts';

/** Adds a member (`member` absent) or changes one's role and queue limit. */
export function MemberDialog({
  projectId,
  member,
  queues,
  onClose,
  onSaved,
}: {
  projectId: string;
  member?: Member;
  queues: QueueView[];
  onClose: () => void;
  onSaved: (result: { member: Member; oneTimePassword: string | null }) => void;
}) {
  const [email, setEmail] = useState(member?.email ?? '');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>(member?.role ?? 'moderator');
  const [limited, setLimited] = useState(member?.queueIds != null);
  const [queueIds, setQueueIds] = useState<string[]>(member?.queueIds ?? []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setError(null);
    if (!member && !/^[^\s@]+@[^\s@]+$/.test(email.trim())) return setError('Enter the email address of the person to add.');
    if (role === 'moderator' && limited && queueIds.length === 0) return setError('Choose at least one queue, or let the moderator see every queue.');
    const limit = role === 'moderator' && limited ? queueIds : null;
    setBusy(true);
    try {
      if (member) onSaved({ ...(await updateMember(projectId, member.id, { role, queueIds: limit })), oneTimePassword: null });
      else onSaved(await addMember(projectId, { email: email.trim(), ...(name.trim() ? { name: name.trim() } : {}), role, queueIds: limit }));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  const toggle = (id: string, on: boolean) => setQueueIds((list) => (on ? [...list, id] : list.filter((q) => q !== id)));

  return (
    <Dialog
      title={member ? `Change ${member.email}` : 'Add a member'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={busy} onClick={() => void submit()}>
            {busy ? 'Saving…' : member ? 'Save' : 'Add member'}
          </Button>
        </>
      }
    >
      <form className="stack" onSubmit={(e) => void submit(e)}>
        {error && (
          <div className="alert alert-error" role="alert">
            {error}
          </div>
        )}
        {!member && (
          <>
            <Field label="Email" hint="A person without an account gets one, with a one-time password shown to you once.">
              {(id) => <input id={id} className="input" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />}
            </Field>
            <Field label="Name (optional)">{(id) => <input id={id} className="input" value={name} onChange={(e) => setName(e.target.value)} />}</Field>
          </>
        )}
        <fieldset className="stack-sm" style={{ border: 'none', padding: 0, margin: 0 }}>
          <legend className="field-label">Role</legend>
          {(Object.keys(ROLE_INFO) as Role[]).map((r) => (
            <label key={r} className="check" style={{ alignItems: 'flex-start' }}>
              <input type="radio" name="role" value={r} checked={role === r} onChange={() => setRole(r)} />
              <span>
                <strong>{ROLE_INFO[r].name}</strong> <span className="small muted">{ROLE_INFO[r].what}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {role === 'moderator' && (
          <fieldset className="stack-sm" style={{ border: 'none', padding: 0, margin: 0 }}>
            <legend className="field-label">Queues</legend>
            <label className="check">
              <input type="checkbox" checked={limited} onChange={(e) => setLimited(e.target.checked)} /> Limit to some queues
            </label>
            {limited &&
              (queues.length === 0 ? (
                <span className="small muted">The project has no queue yet.</span>
              ) : (
                queues.map((q) => (
                  <label key={q.id} className="check" style={{ marginLeft: 22 }}>
                    <input type="checkbox" checked={queueIds.includes(q.id)} onChange={(e) => toggle(q.id, e.target.checked)} /> {q.name}
                  </label>
                ))
              ))}
          </fieldset>
        )}
      </form>
    </Dialog>
  );
}
