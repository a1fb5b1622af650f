import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { CopyButton } from '../kit/copy-button.tsx';
import { Button, Card, Dialog, ErrorNote, formatDate } from '../kit/kit.tsx';
import { useToast } from '../kit/toast.tsx';
import { revealSecret, rotateSecret, useSecretStatus } from './use-webhooks.ts';

/** The project's signing secret: hidden until asked for, rotated only after confirmation. */
export function SecretCard({ projectId }: { projectId: string }) {
  const toast = useToast();
  const status = useSecretStatus(projectId);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const reveal = async () => {
    setError(undefined);
    try {
      setSecret((await revealSecret(projectId)).secret);
    } catch (failure) {
      setError(failure);
    }
  };
  const rotate = async () => {
    setBusy(true);
    try {
      const rotated = await rotateSecret(projectId);
      setSecret(rotated.secret);
      setConfirming(false);
      status.reload();
      toast('Signing secret rotated');
    } catch (failure) {
      setError(failure);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };
  const graceHours = status.data ? Math.round(status.data.graceMs / 3_600_000) : null;
  return (
    <Card title="Signing secret">
      <div className="card-body stack">
        <p className="small muted" style={{ margin: 0 }}>
          Every delivery carries <code>modapi-signature</code> (HMAC-SHA256 of the raw body, hex) and <code>x-om-signature: t=…,v1=…</code> (HMAC of <code>t.body</code>, which also
          dates the request). Your receiver recomputes them with this secret and rejects a mismatch. The custom-data requests carry it as <code>X-Webhook-Secret</code>.
        </p>
        {error !== undefined && <ErrorNote error={error} />}
        <div className="row">
          <input
            id="signing-secret"
            className="input mono"
            readOnly
            aria-label="Current signing secret"
            value={secret ?? '••••••••••••••••••••••••••••••••'}
            style={{ flex: '1 1 380px' }}
            data-testid="signing-secret"
          />
          {secret === null ? (
            <Button onClick={() => void reveal()}>Reveal</Button>
          ) : (
            <>
              <CopyButton text={secret} targetId="signing-secret" />
              <Button onClick={() => setSecret(null)}>Hide</Button>
            </>
          )}
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Rotate secret
          </Button>
        </div>
        {status.data && (
          <span className="small muted" data-testid="secret-status">
            {status.data.rotatedAt ? `Last rotated ${formatDate(status.data.rotatedAt)}.` : 'Never rotated.'}{' '}
            {status.data.previousSecretValidUntil
              ? `The previous secret still signs a second header (modapi-signature-previous) until ${formatDate(status.data.previousSecretValidUntil)}.`
              : ''}
          </span>
        )}
      </div>
      {confirming && (
        <Dialog
          title="Rotate the signing secret?"
          onClose={() => setConfirming(false)}
          footer={
            <>
              <Button onClick={() => setConfirming(false)}>Cancel</Button>
              <Button variant="danger" disabled={busy} onClick={() => void rotate()}>
                {busy ? 'Rotating…' : 'Rotate now'}
              </Button>
            </>
          }
        >
          <p>
            Deliveries are signed with a new secret from now on. {graceHours ? `For ${graceHours} h the old secret also signs a second header, so your receivers can switch without losing events; after that, only the new one.` : 'The old secret stops at once: receivers reject deliveries until they have the new one.'}
          </p>
          <p>Update every receiver (and the custom-data endpoint) with the new secret.</p>
        </Dialog>
      )}
    </Card>
  );
}
