import { useMemo, useState, type FormEvent } from 'react';
import type { Query } from '../api/client.ts';
import { describeEntry, KIND_NAMES } from '../components/audit/audit-list.tsx';
import { actorName } from '../components/audit/types.ts';
import { useAuditLog } from '../components/audit/use-audit.ts';
import { Badge, Button, Card, Empty, ErrorNote, Field, formatDate, Spinner } from '../components/kit/kit.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, path, setSearch, useLocation } from '../router.tsx';

const FILTERS = ['moderator', 'kind', 'actionType', 'authorId', 'contentId', 'from', 'to'] as const;

export function AuditPage() {
  const project = useProject();
  const { search } = useLocation();
  const filters = useMemo(() => {
    const q: Query = {};
    for (const key of FILTERS) if (search.get(key)) q[key] = search.get(key);
    return q;
  }, [search]);
  const log = useAuditLog(project.projectId, filters);
  const [draft, setDraft] = useState<Record<string, string>>(() => Object.fromEntries(FILTERS.map((k) => [k, search.get(k) ?? ''])));
  const set = (key: string) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft);
  };
  return (
    <div className="page">
      <PageHeader title="Audit log" sub="Every moderator and automatic action in this project" />
      <Card>
        <form className="card-body filters" onSubmit={apply} aria-label="Audit filters">
          <Field label="Moderator">{(id) => <input id={id} className="input" value={draft.moderator} onChange={set('moderator')} placeholder="email, api or system" title="A moderator's email or user id; api for API-key calls; system for automatic actions" />}</Field>
          <Field label="Kind">
            {(id) => (
              <select id={id} className="select" value={draft.kind} onChange={set('kind')}>
                <option value="">Any</option>
                {Object.entries(KIND_NAMES).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Action type">{(id) => <input id={id} className="input" value={draft.actionType} onChange={set('actionType')} placeholder="AUTHOR_BLOCK or a key" />}</Field>
          <Field label="Author">{(id) => <input id={id} className="input" value={draft.authorId} onChange={set('authorId')} placeholder="external id" />}</Field>
          <Field label="Item">{(id) => <input id={id} className="input" value={draft.contentId} onChange={set('contentId')} placeholder="content id" />}</Field>
          <Field label="From">{(id) => <input id={id} className="input" type="date" value={draft.from} onChange={set('from')} />}</Field>
          <Field label="Until (exclusive)">{(id) => <input id={id} className="input" type="date" value={draft.to} onChange={set('to')} />}</Field>
          <Button type="submit" variant="primary">
            Apply
          </Button>
        </form>
      </Card>
      <Card>
        {log.error !== undefined && (
          <div className="card-body">
            <ErrorNote error={log.error} onRetry={log.reload} />
          </div>
        )}
        {log.entries === undefined && log.loading && (
          <div className="card-body">
            <Spinner label="Loading the audit log" />
          </div>
        )}
        {log.entries && log.entries.length === 0 && <Empty>No entry matches.</Empty>}
        {log.entries && log.entries.length > 0 && (
          <div className="table-wrap">
            <table className="table" aria-label="Audit entries">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>What</th>
                  <th>Target</th>
                  <th>Value and reason</th>
                </tr>
              </thead>
              <tbody>
                {log.entries.map((e) => (
                  <tr key={e.id}>
                    <td className="small nowrap">{formatDate(e.createdAt)}</td>
                    <td className="small break">{actorName(e.actor)}</td>
                    <td>
                      <span className="row" style={{ gap: 4 }}>
                        <strong>{describeEntry(e)}</strong>
                        {describeEntry(e) !== (KIND_NAMES[e.kind] ?? e.kind) && <Badge outline>{KIND_NAMES[e.kind] ?? e.kind}</Badge>}
                      </span>
                      {e.actionType && <div className="small muted mono">{e.actionType}</div>}
                    </td>
                    <td className="small break" style={{ minWidth: 150 }}>
                      {e.authorId && (
                        <div>
                          Author <Link href={path`/authors/${e.authorId}`}>{e.authorId}</Link>
                        </div>
                      )}
                      {e.contentId && (
                        <div>
                          Item <Link href={e.queueId ? path`/queues/${e.queueId}/items/${e.contentId}` : path`/items/${e.contentId}`}>{e.contentId}</Link>
                        </div>
                      )}
                    </td>
                    <td className="small break">
                      {e.value && <div>{e.value}</div>}
                      {e.comment && <div className="muted">“{e.comment}”</div>}
                      {e.diff && e.diff.length > 0 && (
                        <ul className="small mono" style={{ margin: '2px 0 0', paddingLeft: 16 }} aria-label="Changes">
                          {e.diff.map((c) => (
                            <li key={c.path} className="break">
                              {c.path}: {c.before === undefined ? '—' : JSON.stringify(c.before)} → {c.after === undefined ? '—' : JSON.stringify(c.after)}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {log.hasMore && (
          <div className="pager">
            <span />
            <Button size="sm" onClick={log.more} disabled={log.loading}>
              Older entries
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
