import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client.ts';
import { ConfigError } from '../components/channels/config-error.tsx';
import { Badge, Button, Card, Dialog, ErrorNote, Field, Spinner, Time } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import {
  addWords,
  createWordlist,
  deleteWordlist,
  exportUrl,
  importCsv,
  removeWords,
  splitWords,
  updateWordlist,
  useWordlist,
  useWordlists,
  useWords,
  type WordlistOverview,
} from '../components/wordlists/use-wordlists.ts';
import { Link, navigate, path } from '../router.tsx';
import { ForbiddenPage, NotFoundPage } from './not-found.tsx';

function UsedBy({ list }: { list: WordlistOverview }) {
  if (list.usedBy.length === 0) return <span className="muted small">no channel</span>;
  return (
    <span className="row" style={{ gap: 4 }}>
      {list.usedBy.map((c) => (
        <Link key={c.id} href={path`/configure/channels/${c.key}`}>
          <Badge tone="info">{c.name}</Badge>
        </Link>
      ))}
    </span>
  );
}

export function WordlistsPage() {
  const project = useProject();
  const lists = useWordlists(project.projectId);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  if (lists.error instanceof ApiError && lists.error.status === 403) return <ForbiddenPage what="wordlists" />;
  const create = async (event?: FormEvent) => {
    event?.preventDefault();
    try {
      const list = await createWordlist(project.projectId, { name, ...(key ? { key } : {}) });
      navigate(path`/configure/wordlists/${list.id}`);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <div className="page">
      <PageHeader
        title="Wordlists"
        sub="Lists of words and phrases; a channel runs one as the policy wordlist_<key>."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New wordlist
          </Button>
        }
      />
      {lists.error !== undefined && <ErrorNote error={lists.error} onRetry={lists.reload} />}
      {!lists.data && lists.loading && <Spinner />}
      {lists.data && (
        <Card>
          <div className="table-wrap">
            <table className="table" aria-label="Wordlists">
              <thead>
                <tr>
                  <th>Wordlist</th>
                  <th style={{ textAlign: 'right' }}>Words</th>
                  <th>Used by</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {lists.data.map((w) => (
                  <tr key={w.id}>
                    <td>
                      <Link href={path`/configure/wordlists/${w.id}`} style={{ fontWeight: 600 }}>
                        {w.name ?? w.key ?? w.id}
                      </Link>
                      <div className="small muted mono">wordlist_{w.key ?? w.id}</div>
                    </td>
                    <td className="mono" style={{ textAlign: 'right' }}>
                      {w.wordCount.toLocaleString('en')}
                    </td>
                    <td>
                      <UsedBy list={w} />
                    </td>
                    <td>
                      <Time ms={w.updatedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {lists.data.length === 0 && <p className="card-body muted">No wordlist yet.</p>}
        </Card>
      )}
      {creating && (
        <Dialog
          title="New wordlist"
          onClose={() => setCreating(false)}
          footer={
            <>
              <Button onClick={() => setCreating(false)}>Cancel</Button>
              <Button variant="primary" disabled={!name} onClick={() => void create()}>
                Create
              </Button>
            </>
          }
        >
          <form className="stack" onSubmit={create}>
            <ConfigError error={error} />
            <Field label="Name">{(id) => <input id={id} className="input" value={name} onChange={(e) => setName(e.target.value)} />}</Field>
            <Field label="Key" hint="Lowercase letters, digits, _ and -; the policy id becomes wordlist_<key>">
              {(id) => <input id={id} className="input mono" value={key} onChange={(e) => setKey(e.target.value)} />}
            </Field>
          </form>
        </Dialog>
      )}
    </div>
  );
}

export function WordlistPage({ wordlistId }: { wordlistId: string }) {
  const project = useProject();
  const toast = useToast();
  const list = useWordlist(project.projectId, wordlistId);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const [version, setVersion] = useState(0);
  const words = useWords(project.projectId, wordlistId, query, pages[pages.length - 1] ?? null, version);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState('');
  const [replace, setReplace] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [meta, setMeta] = useState({ name: '', key: '', description: '' });
  const [confirmDelete, setConfirmDelete] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setQuery(search);
      setPages([null]);
    }, 250);
    return () => window.clearTimeout(timer);
  }, [search]);
  useEffect(() => {
    if (list.data) setMeta({ name: list.data.name ?? '', key: list.data.key ?? '', description: list.data.description ?? '' });
  }, [list.data]);

  if (list.error instanceof ApiError && list.error.status === 403) return <ForbiddenPage what="wordlists" />;
  if (list.error instanceof ApiError && list.error.status === 404) return <NotFoundPage what="This wordlist" />;
  if (!list.data) return <div className="page">{list.error !== undefined ? <ErrorNote error={list.error} onRetry={list.reload} /> : <Spinner />}</div>;
  const current = list.data;
  const changed = (message: string) => {
    toast(message);
    setSelected(new Set());
    setVersion((v) => v + 1);
    list.reload();
  };
  const run = async (work: () => Promise<string>) => {
    setError(null);
    try {
      changed(await work());
    } catch (failure) {
      setError(failure);
    }
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const csv = await file.text();
    await run(async () => {
      const r = await importCsv(project.projectId, current.id, csv, replace);
      return replace ? `List replaced: ${r.totalCount.toLocaleString('en')} words` : `${r.imported.toLocaleString('en')} words read, ${r.addedCount.toLocaleString('en')} new`;
    });
  };
  return (
    <div className="page stack" style={{ maxWidth: 1100 }}>
      <PageHeader
        title={current.name ?? current.key ?? current.id}
        crumbs={<Link href="/configure/wordlists">Wordlists</Link>}
        sub={
          <span>
            <span className="mono">wordlist_{current.key ?? current.id}</span> · {current.wordCount.toLocaleString('en')} words · used by <UsedBy list={current} />
          </span>
        }
        actions={
          <>
            <a className="btn" href={exportUrl(project.projectId, current.id)} download>
              Export CSV
            </a>
            <Button variant="danger" onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
          </>
        }
      />
      <ConfigError error={error} />
      <div className="grid-2">
        <Card title="Words">
          <div className="card-body stack-sm">
            <Field label="Search words">{(id) => <input id={id} className="input" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Part of a word" />}</Field>
            {words.data && (
              <div className="row-between small">
                <span className="muted" data-testid="word-matches">
                  {words.data.matching.toLocaleString('en')} of {words.data.totalWords.toLocaleString('en')} words{query ? ` contain “${query}”` : ''}
                </span>
                <Button
                  size="sm"
                  variant="danger"
                  disabled={selected.size === 0}
                  onClick={() => void run(async () => `${(await removeWords(project.projectId, current.id, [...selected])).removedCount} word(s) removed`)}
                >
                  Remove selected ({selected.size})
                </Button>
              </div>
            )}
            {!words.data && words.loading && <Spinner />}
            {words.data && (
              <ul className="stack-sm" style={{ listStyle: 'none', padding: 0, margin: 0, columns: 2 }} aria-label="Words">
                {words.data.words.map((w) => (
                  <li key={w}>
                    <label className="check">
                      <input
                        type="checkbox"
                        aria-label={`Select ${w}`}
                        checked={selected.has(w)}
                        onChange={(e) => {
                          const next = new Set(selected);
                          if (e.target.checked) next.add(w);
                          else next.delete(w);
                          setSelected(next);
                        }}
                      />
                      <span className="mono">{w}</span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
            {words.data && (
              <nav className="pager" aria-label="Pages">
                <span className="muted small">Page {pages.length}</span>
                <span className="row">
                  <Button size="sm" disabled={pages.length === 1} onClick={() => setPages(pages.slice(0, -1))}>
                    ← Previous
                  </Button>
                  <Button size="sm" disabled={words.data.nextAfter === null} onClick={() => setPages([...pages, words.data!.nextAfter])}>
                    Next →
                  </Button>
                </span>
              </nav>
            )}
          </div>
        </Card>
        <div className="stack">
          <Card title="Add words">
            <div className="card-body stack-sm">
              <Field label="Words to add" hint="One per line, or separated by commas; case is folded">
                {(id) => <textarea id={id} className="textarea" rows={4} value={adding} onChange={(e) => setAdding(e.target.value)} />}
              </Field>
              <div>
                <Button
                  variant="primary"
                  disabled={splitWords(adding).length === 0}
                  onClick={() =>
                    void run(async () => {
                      const r = await addWords(project.projectId, current.id, splitWords(adding));
                      setAdding('');
                      return `${r.addedCount} word(s) added`;
                    })
                  }
                >
                  Add
                </Button>
              </div>
            </div>
          </Card>
          <Card title="Import CSV">
            <div className="card-body stack-sm">
              <span className="small muted">One word per row, in the first column; a header row “word” is skipped.</span>
              <label className="check">
                <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> Replace every word of the list
              </label>
              <Field label="CSV file">{(id) => <input id={id} className="input" type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void onFile(e.target.files?.[0])} />}</Field>
            </div>
          </Card>
          <Card title="Details">
            <div className="card-body stack-sm">
              <Field label="Wordlist name">{(id) => <input id={id} className="input" value={meta.name} onChange={(e) => setMeta({ ...meta, name: e.target.value })} />}</Field>
              <Field label="Wordlist key" hint="Renaming the key changes the policy id: channels naming the old one stop finding the list">
                {(id) => <input id={id} className="input mono" value={meta.key} onChange={(e) => setMeta({ ...meta, key: e.target.value })} />}
              </Field>
              <Field label="Description">{(id) => <textarea id={id} className="textarea" rows={2} value={meta.description} onChange={(e) => setMeta({ ...meta, description: e.target.value })} />}</Field>
              <div>
                <Button
                  onClick={() =>
                    void run(async () => {
                      await updateWordlist(project.projectId, current.id, { name: meta.name, description: meta.description, ...(meta.key ? { key: meta.key } : {}) });
                      return 'Wordlist saved';
                    })
                  }
                >
                  Save details
                </Button>
              </div>
            </div>
          </Card>
        </div>
      </div>
      {confirmDelete && (
        <Dialog
          title="Delete this wordlist?"
          onClose={() => setConfirmDelete(false)}
          footer={
            <>
              <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
              <Button variant="danger" onClick={() => void deleteWordlist(project.projectId, current.id).then(() => navigate('/configure/wordlists'), (f: unknown) => (setConfirmDelete(false), setError(f)))}>
                Delete
              </Button>
            </>
          }
        >
          <p>{current.usedBy.length > 0 ? `Channels ${current.usedBy.map((c) => c.name).join(', ')} run this list; their policy will report an error until you remove it.` : 'No channel uses this list.'}</p>
        </Dialog>
      )}
    </div>
  );
}
