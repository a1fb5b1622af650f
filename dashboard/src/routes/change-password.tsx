import { useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client.ts';
import { Button, Field } from '../components/kit/kit.tsx';
import { useSession } from '../components/session/session.tsx';
import { navigate } from '../router.tsx';

export const MIN_PASSWORD_LENGTH = 12;

/** Shown instead of every page while the account still has its one-time password. */
export function ChangePasswordPage() {
  const { session, changePassword, signOut } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const forced = session?.user.mustChangePassword ?? false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (next !== repeat) return setError('The two new passwords differ.');
    if (next.length < MIN_PASSWORD_LENGTH) return setError(`Choose at least ${MIN_PASSWORD_LENGTH} characters.`);
    setBusy(true);
    setError(null);
    try {
      await changePassword(current, next);
      navigate('/queues', { replace: true });
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <div className="auth-page">
      <main className="card auth-card">
        <form className="card-body stack" onSubmit={submit} aria-labelledby="pw-title">
          <h1 id="pw-title">{forced ? 'Choose your password' : 'Change your password'}</h1>
          {forced && <p className="muted">You signed in with a one-time password. Choose your own to continue.</p>}
          {error && (
            <div className="alert alert-error" role="alert">
              {error}
            </div>
          )}
          <Field label={forced ? 'One-time password' : 'Current password'}>{(id) => <input id={id} className="input" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />}</Field>
          <Field label="New password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}>{(id) => <input id={id} className="input" type="password" autoComplete="new-password" required value={next} onChange={(e) => setNext(e.target.value)} />}</Field>
          <Field label="Repeat the new password">{(id) => <input id={id} className="input" type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />}</Field>
          <div className="row-between">
            <Button type="button" variant="ghost" onClick={() => void signOut().then(() => navigate('/sign-in'))}>
              Sign out
            </Button>
            <Button type="submit" variant="primary" disabled={busy}>
              {busy ? 'Saving…' : 'Save password'}
            </Button>
          </div>
        </form>
      </main>
    </div>
  );
}
