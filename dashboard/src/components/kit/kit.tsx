import { useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { errorMessage } from '../../api/client.ts';

type Variant = 'default' | 'primary' | 'danger' | 'ghost';

export function Button({ variant = 'default', size, className, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: 'sm' }) {
  const classes = ['btn', variant !== 'default' && `btn-${variant}`, size && `btn-${size}`, className].filter(Boolean).join(' ');
  return <button type="button" className={classes} {...rest} />;
}

export type Tone = 'neutral' | 'danger' | 'warning' | 'success' | 'info' | 'violet';

export function Badge({ tone = 'neutral', children, title, outline }: { tone?: Tone; children: ReactNode; title?: string; outline?: boolean }) {
  const classes = ['badge', tone !== 'neutral' && `badge-${tone}`, outline && 'badge-outline'].filter(Boolean).join(' ');
  return (
    <span className={classes} title={title}>
      {children}
    </span>
  );
}

export function Kbd({ children }: { children: ReactNode }) {
  return <kbd>{children}</kbd>;
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <span role="status" className="row muted">
      <span className="spinner" aria-hidden="true" />
      <span>{label}…</span>
    </span>
  );
}

export function ErrorNote({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="alert alert-error row-between" role="alert">
      <span>{errorMessage(error)}</span>
      {onRetry && (
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

export function Card({ title, actions, children, className, id }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; id?: string }) {
  const headingId = useId();
  return (
    <section className={['card', className].filter(Boolean).join(' ')} aria-labelledby={title ? headingId : undefined} id={id}>
      {title && (
        <div className="card-header">
          <h2 id={headingId}>{title}</h2>
          {actions && <div className="row">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

/** A label and its control, tied together by id so screen readers name the control. */
export function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint && <span className="hint">{hint}</span>}
    </div>
  );
}

export function Dialog({ title, onClose, children, footer }: { title: string; onClose: () => void; children: ReactNode; footer: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('input, select, textarea, button:not([data-close])');
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onClose();
      }
      if (event.key === 'Tab' && ref.current) {
        const focusable = [...ref.current.querySelectorAll<HTMLElement>('a[href], button:not(:disabled), input, select, textarea')];
        if (focusable.length === 0) return;
        const [head, tail] = [focusable[0]!, focusable[focusable.length - 1]!];
        if (event.shiftKey && document.activeElement === head) {
          event.preventDefault();
          tail.focus();
        } else if (!event.shiftKey && document.activeElement === tail) {
          event.preventDefault();
          head.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
    };
  }, [onClose]);
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref}>
        <div className="dialog-header">
          <h2 id={titleId}>{title}</h2>
        </div>
        <div className="dialog-body">{children}</div>
        <div className="dialog-footer">{footer}</div>
      </div>
    </div>
  );
}

/** A destructive step asked once more: Cancel or the danger button; a failure is shown in the dialog, which stays open. */
export function ConfirmDialog({ title, confirmLabel, busyLabel, onConfirm, onDone, onClose, children }: {
  title: string;
  confirmLabel: string;
  busyLabel: string;
  onConfirm: () => Promise<unknown>;
  onDone: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onDone();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={busy} onClick={() => void confirm()}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}
      {children}
    </Dialog>
  );
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : absolute.format(new Date(ms));
}

export function timeAgo(ms: number, now = Date.now()): string {
  const seconds = Math.round((ms - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 86400 * 30) return relative.format(Math.round(seconds / 86400), 'day');
  return absolute.format(new Date(ms));
}

export function Time({ ms }: { ms: number | null | undefined }) {
  if (ms === null || ms === undefined) return <span className="muted">—</span>;
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatDate(ms)} className="nowrap">
      {timeAgo(ms)}
    </time>
  );
}

/** "2 h 5 min" for a remaining duration. */
export function formatDuration(ms: number): string {
  if (ms <= 0) return 'expired';
  const minutes = Math.ceil(ms / 60000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return `${days} d ${hours % 24} h`;
}

export function Severity({ value }: { value: number }) {
  const pct = Math.max(0, Math.min(100, Math.round(value * 100)));
  const level = pct >= 90 ? 'High' : pct >= 50 ? 'Medium' : 'Low';
  const colour = pct >= 90 ? 'var(--danger)' : pct >= 50 ? 'var(--warning)' : 'var(--success)';
  return (
    <span className="sev" title={`Severity ${pct} of 100`}>
      <span className="sev-bar" aria-hidden="true">
        <span style={{ width: `${pct}%`, background: colour }} />
      </span>
      <span>
        {pct} <span className="muted small">{level}</span>
      </span>
    </span>
  );
}

export function Pager({ page, hasNext, hasPrevious, onPage, total, label }: { page: number; hasNext: boolean; hasPrevious: boolean; onPage: (page: number) => void; total?: number; label?: string }) {
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted small">
        Page {page}
        {total !== undefined && ` · ${total.toLocaleString('en')} ${label ?? 'in total'}`}
      </span>
      <span className="row">
        <Button size="sm" disabled={!hasPrevious} onClick={() => onPage(page - 1)}>
          ← Previous
        </Button>
        <Button size="sm" disabled={!hasNext} onClick={() => onPage(page + 1)}>
          Next →
        </Button>
      </span>
    </nav>
  );
}
