import { Badge, Card, Spinner, type Tone } from '../kit/kit.tsx';
import { useCustomData, type CustomDataItem } from './use-custom-data.ts';

const PILL: Record<string, Tone> = { default: 'neutral', success: 'success', warning: 'warning', danger: 'danger', info: 'info' };

/** Only absolute https URLs become links; anything else is shown as text, never followed. */
export function safeHttpsUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function Item({ item }: { item: CustomDataItem }) {
  switch (item.type) {
    case 'field':
      return (
        <div className="cd-item row-between" title={item.tooltip} data-kind="field">
          {item.label && <span className="muted">{item.label}</span>}
          <span className="break">{item.value}</span>
        </div>
      );
    case 'status':
      return (
        <div className="cd-item row-between" title={item.tooltip} data-kind="status">
          {item.label && <span className="muted">{item.label}</span>}
          <Badge tone={PILL[item.variant ?? 'default'] ?? 'neutral'}>{item.value}</Badge>
        </div>
      );
    case 'link': {
      const href = safeHttpsUrl(item.url);
      if (!href) return null;
      const variant = item.variant ?? 'default';
      return (
        <div className="cd-item" data-kind="link">
          <a href={href} target="_blank" rel="noopener noreferrer" title={item.tooltip} className={variant === 'ghost' ? '' : variant === 'outline' ? 'btn btn-sm' : 'btn btn-sm btn-primary'}>
            {item.label} <span aria-hidden="true">↗</span>
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      );
    }
    case 'metric':
      return (
        <div className="cd-item stat" title={item.tooltip} data-kind="metric">
          <span className="label">{item.label}</span>
          <span className="figure">{item.value}</span>
        </div>
      );
    case 'heading':
      return (
        <h3 className="cd-heading" data-kind="heading">
          {item.label}
        </h3>
      );
    case 'separator':
      return <hr className="cd-sep" data-kind="separator" />;
    default:
      return null;
  }
}

/** The customer's own data about an author, from their endpoint through our server. */
export function CustomDataPanel({ projectId, authorId, enabled }: { projectId: string; authorId: string; enabled: boolean }) {
  const data = useCustomData(projectId, authorId, enabled);
  if (!enabled) return null;
  return (
    <Card title="Custom data" id="custom-data">
      <div className="card-body" data-testid="custom-data">
        {!data.data && data.loading && <Spinner label="Asking your endpoint" />}
        {(data.error !== undefined || data.data?.status === 'unavailable') && (
          <p className="muted small" data-testid="custom-data-unavailable" style={{ margin: 0 }}>
            Custom data unavailable{data.data?.status === 'unavailable' ? ` (${data.data.reason.replace('_', ' ')})` : ''}.
          </p>
        )}
        {data.data?.status === 'disabled' && <p className="muted small">The custom-data integration is turned off.</p>}
        {data.data?.status === 'ok' && (
          <>
            {data.data.items.length === 0 && <p className="muted small">Your endpoint sent no items for this author.</p>}
            {data.data.items.map((item, i) => (
              <Item key={i} item={item} />
            ))}
            {data.data.skipped.unknownKind + data.data.skipped.invalid > 0 && (
              <p className="small muted" style={{ marginTop: 10, marginBottom: 0 }}>
                Skipped {data.data.skipped.unknownKind} item(s) of unknown kind and {data.data.skipped.invalid} invalid item(s).
              </p>
            )}
          </>
        )}
      </div>
    </Card>
  );
}
