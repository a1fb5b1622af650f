import { Time } from '../kit/kit.tsx';
import { actorName, type AuditEntry } from './types.ts';

export const KIND_NAMES: Record<string, string> = { action: 'Action', resolve: 'Resolved', unresolve: 'Unresolved', trust_level: 'Trust level', member: 'Members', config: 'Configuration' };

export function describeEntry(e: AuditEntry): string {
  if (e.actionName) return e.actionName;
  return KIND_NAMES[e.kind] ?? e.kind;
}

/** A compact trail (author page, item history). */
export function AuditTrail({ entries, empty }: { entries: AuditEntry[]; empty: string }) {
  if (entries.length === 0) return <span className="muted">{empty}</span>;
  return (
    <ul className="timeline">
      {entries.map((e) => (
        <li key={e.id}>
          <div className="row-between">
            <strong>{describeEntry(e)}</strong>
            <Time ms={e.createdAt} />
          </div>
          <div className="small muted break">
            by {actorName(e.actor)}
            {e.contentId ? ` · item ${e.contentId}` : ''}
            {e.value ? ` · ${e.value}` : ''}
            {e.comment ? ` · “${e.comment}”` : ''}
          </div>
        </li>
      ))}
    </ul>
  );
}
