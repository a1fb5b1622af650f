import { useMemo, useState, type FormEvent } from 'react';
import type { Query } from '../api/client.ts';
import { StatusBadge, TrustBadge } from '../components/authors/badges.tsx';
import { AUTHOR_QUERY_KEYS, SORT_KEYS, useAuthors } from '../components/authors/use-authors.ts';
import { Button, Card, Empty, ErrorNote, Field, Pager, Spinner, Time } from '../components/kit/kit.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, path, setSearch, useLocation } from '../router.tsx';

const CONTENT_TYPES = ['text', 'image', 'object', 'video', 'audio', 'url'];

export function AuthorsPage() {
  const project = useProject();
  const { search } = useLocation();
  const query = useMemo(() => {
    const q: Query = {};
    for (const key of AUTHOR_QUERY_KEYS) if (search.get(key)) q[key] = search.get(key);
    return q;
  }, [search]);
  const authors = useAuthors(project.projectId, query);
  const [since, setSince] = useState(search.get('memberSinceDate') ?? '');
  const [active, setActive] = useState(search.get('lastActiveDate') ?? '');
  const [types, setTypes] = useState(search.get('contentTypes') ?? '');
  const sortBy = search.get('sortBy') ?? '';
  const direction = search.get('sortDirection') ?? 'desc';
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setSearch({ memberSinceDate: since, lastActiveDate: active, contentTypes: types, pageNumber: null });
  };
  const page = authors.data?.pagination;
  return (
    <div className="page">
      <PageHeader title="Authors" sub="The people behind the content: trust, status and history" />
      <Card>
        <form className="card-body filters" onSubmit={apply} aria-label="Sort and filters">
          <Field label="Sort by">
            {(id) => (
              <select id={id} className="select" value={sortBy} onChange={(e) => setSearch({ sortBy: e.target.value, pageNumber: null })}>
                <option value="">Default order</option>
                {SORT_KEYS.map(([key, label]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Direction">
            {(id) => (
              <select id={id} className="select" value={direction} onChange={(e) => setSearch({ sortDirection: e.target.value, pageNumber: null })}>
                <option value="desc">Descending</option>
                <option value="asc">Ascending</option>
              </select>
            )}
          </Field>
          <Field label="Member since">{(id) => <input id={id} className="input" value={since} placeholder="2026-01-01..2026-06-30" title="A date, or FROM..TO" onChange={(e) => setSince(e.target.value)} />}</Field>
          <Field label="Last active">{(id) => <input id={id} className="input" value={active} placeholder="2026-11-01.." title="A date, or FROM..TO" onChange={(e) => setActive(e.target.value)} />}</Field>
          <Field label="Content type">
            {(id) => (
              <select id={id} className="select" value={types} onChange={(e) => setTypes(e.target.value)}>
                <option value="">Any</option>
                {CONTENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Button type="submit" variant="primary">
            Apply
          </Button>
        </form>
      </Card>
      <Card>
        {authors.error !== undefined && (
          <div className="card-body">
            <ErrorNote error={authors.error} onRetry={authors.reload} />
          </div>
        )}
        {!authors.data && authors.loading && (
          <div className="card-body">
            <Spinner label="Loading authors" />
          </div>
        )}
        {authors.data && authors.data.authors.length === 0 && <Empty>No author matches.</Empty>}
        {authors.data && authors.data.authors.length > 0 && (
          <div className="table-wrap">
            <table className="table" aria-label="Authors">
              <thead>
                <tr>
                  <th>Author</th>
                  <th>Status</th>
                  <th>Trust</th>
                  <th className="hide-narrow" style={{ textAlign: 'right' }}>Content</th>
                  <th className="hide-narrow" style={{ textAlign: 'right' }}>Flagged share</th>
                  <th className="hide-narrow" style={{ textAlign: 'right' }}>Violations</th>
                  <th>Last active</th>
                  <th className="hide-narrow">Member since</th>
                </tr>
              </thead>
              <tbody>
                {authors.data.authors.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <Link href={path`/authors/${a.external_id}`} style={{ fontWeight: 600 }} className="break" data-testid="author-link">
                        {a.name || a.external_id}
                      </Link>
                      <div className="small muted break">{a.external_id}</div>
                    </td>
                    <td>
                      <StatusBadge status={a.status} until={a.block?.until} />
                    </td>
                    <td>
                      <TrustBadge level={a.trust_level.level} manual={a.trust_level.manual} />
                    </td>
                    <td className="hide-narrow mono" style={{ textAlign: 'right' }}>
                      {(a.metrics.total_content ?? 0).toLocaleString('en')}
                    </td>
                    <td className="hide-narrow mono" style={{ textAlign: 'right' }}>
                      {Math.round((a.metrics.flagged_content_ratio ?? 0) * 100)}%
                    </td>
                    <td className="hide-narrow mono" style={{ textAlign: 'right' }}>
                      {a.metrics.violation_count ?? 0}
                    </td>
                    <td className="small">
                      <Time ms={a.last_seen} />
                    </td>
                    <td className="hide-narrow small">
                      <Time ms={a.first_seen} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {page && <Pager page={page.pageNumber} hasNext={page.hasNextPage} hasPrevious={page.hasPreviousPage} total={page.total} label="authors" onPage={(n) => setSearch({ pageNumber: String(n) })} />}
      </Card>
    </div>
  );
}
