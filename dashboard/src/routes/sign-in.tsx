import { useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client.ts';
import { Button, Field } from '../components/kit/kit.tsx';
import { useSession } from '../components/session/session.tsx';
import { navigate, useLocation } from '../router.tsx';

export function SignInPage() {
  const { signIn } = useSession();
  const { search } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(email, password);
      const next = search.get('next');
      navigate(session.user.mustChangePassword ? '/account/password' : next && next.startsWith('/') && !next.startsWith('//') ? next : '/queues', { replace: true });
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <div className="auth-page">
      <main className="card auth-card">
        <form className="card-body stack" onSubmit={submit} aria-labelledby="sign-in-title">
          <span className="brand">
            <img src="/favicon.svg" alt="" width={24} height={24} /> Open Moderation
          </span>
          <h1 id="sign-in-title">Sign in to the dashboard</h1>
          {error && (
            <div className="alert alert-error" role="alert">
              {error}
            </div>
          )}
          <Field label="Email">{(id) => <input id={id} className="input" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />}</Field>
          <Field label="Password">{(id) => <input id={id} className="input" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}</Field>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
          <p className="muted small">
            First start? <code>npm start</code> printed the first admin's email and a one-time password. Lost it? <code>npx open-moderation users reset-password &lt;email&gt;</code>
          </p>
        </form>
      </main>
    </div>
  );
}
