import { useCallback, useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../api/client.ts';
import { ActionDialog, type ActionInput } from '../components/items/action-dialog.tsx';
import { executeAction, resolveItem, shortcutFor, useQueueActions } from '../components/items/use-actions.ts';
import { Badge, Button, Card, Empty, ErrorNote, Kbd, Pager, Spinner } from '../components/kit/kit.tsx';
import { useShortcuts, type Shortcut } from '../components/kit/shortcuts.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { QueueFilters } from '../components/queues/queue-filters.tsx';
import { QueueTable } from '../components/queues/queue-table.tsx';
import type { ActionView } from '../components/queues/types.ts';
import { BULK_LIMIT, idsMatching, itemQuery, rememberQueueOrder, useQueue, useQueueItems } from '../components/queues/use-queues.ts';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, navigate, path, setSearch, useLocation } from '../router.tsx';

type Pending = { action: ActionView; ids: string[]; scope: 'item' | 'bulk' };

export function QueuePage({ queueId }: { queueId: string }) {
  const project = useProject();
  const toast = useToast();
  const { search } = useLocation();
  const query = useMemo(() => itemQuery(search), [search]);
  const queue = useQueue(project.projectId, queueId);
  const items = useQueueItems(project.projectId, queueId, query);
  const actions = useQueueActions(project.projectId, queueId);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pending, setPending] = useState<Pending | null>(null);
  const [showFilters, setShowFilters] = useState(() => [...search.keys()].some((k) => k !== 'sortField' && k !== 'sortDirection' && k !== 'pageNumber'));
  const [collecting, setCollecting] = useState(false);
  const list = items.data?.items ?? [];
  const sortField = String(query.sortField ?? 'createdAt');
  const sortDirection = String(query.sortDirection ?? 'desc');

  useEffect(() => {
    if (items.data) rememberQueueOrder(queueId, items.data.items, window.location.search);
    if (list.length > 0 && (currentId === null || !list.some((i) => i.id === currentId))) setCurrentId(list[0]!.id);
    // Only when a new page of items arrives: moving with j/k must not be undone.
  }, [items.data]);

  useEffect(() => {
    if (currentId) document.querySelector(`tr[data-item-id="${CSS.escape(currentId)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [currentId]);

  const move = useCallback(
    (step: number) => {
      if (list.length === 0) return;
      const at = list.findIndex((i) => i.id === currentId);
      const next = list[Math.max(0, Math.min(list.length - 1, (at < 0 ? 0 : at) + step))]!;
      setCurrentId(next.id);
    },
    [list, currentId],
  );

  const onSelect = useCallback((id: string, on: boolean) => {
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const onSelectPage = (on: boolean) => setSelected(on ? new Set([...selected, ...list.map((i) => i.id)]) : new Set());

  const selectAllMatching = async () => {
    setCollecting(true);
    try {
      const { ids, total } = await idsMatching(project.projectId, queueId, query);
      setSelected(new Set(ids));
      if (total > ids.length) toast(`Selected the first ${ids.length.toLocaleString('en')} of ${total.toLocaleString('en')} matching items (at most ${BULK_LIMIT.toLocaleString('en')} at once).`);
    } catch (error) {
      toast(errorMessage(error), { error: true });
    } finally {
      setCollecting(false);
    }
  };

  const run = async (p: Pending, input: ActionInput) => {
    const result = await executeAction(project.projectId, { actionId: p.action.id, queueId, contentIds: p.ids, ...input });
    setPending(null);
    if (p.scope === 'bulk') setSelected(new Set());
    toast(`${result.actionName}: applied to ${result.count.toLocaleString('en')} item${result.count === 1 ? '' : 's'}`);
    const at = list.findIndex((i) => i.id === currentId);
    const after = list.filter((i) => !p.ids.includes(i.id));
    setCurrentId(after[Math.min(Math.max(at, 0), after.length - 1)]?.id ?? null);
    items.reload();
    queue.reload();
  };

  const resolveCurrent = async () => {
    if (!currentId) return;
    try {
      await resolveItem(project.projectId, queueId, currentId);
      toast('Resolved');
      items.reload();
      queue.reload();
    } catch (error) {
      toast(errorMessage(error), { error: true });
    }
  };

  const shortcuts: Shortcut[] = [
    { key: 'j', description: 'Next item', run: () => move(1) },
    { key: 'k', description: 'Previous item', run: () => move(-1) },
    { key: 'Enter', description: 'Open the current item', run: () => currentId && navigate(path`/queues/${queueId}/items/${currentId}`) },
    { key: 'o', description: 'Open the current item', run: () => currentId && navigate(path`/queues/${queueId}/items/${currentId}`) },
    { key: 'x', description: 'Select or unselect the current item', run: () => currentId && onSelect(currentId, !selected.has(currentId)) },
    { key: 'e', description: 'Resolve the current item', run: () => void resolveCurrent() },
    { key: 'f', description: 'Show or hide the filters', run: () => setShowFilters((s) => !s) },
    ...(actions.data ?? []).flatMap((action) => {
      const key = shortcutFor(action);
      return key ? [{ key, description: `${action.name} (current item, or the selection)`, run: () => {
        const ids = selected.size > 0 ? [...selected] : currentId ? [currentId] : [];
        if (ids.length > 0) setPending({ action, ids, scope: selected.size > 0 ? 'bulk' : 'item' });
      } }] : [];
    }),
  ];
  useShortcuts(shortcuts);

  const onSort = (field: string) => setSearch({ sortField: field, sortDirection: field === sortField && sortDirection === 'desc' ? 'asc' : 'desc', pageNumber: null });
  const page = items.data?.pagination;

  return (
    <div className="page">
      <PageHeader
        crumbs={<Link href="/queues">Review queues</Link>}
        title={queue.data?.name ?? 'Queue'}
        sub={
          queue.data && (
            <span>
              <strong>{queue.data.unresolvedItemsCount.toLocaleString('en')}</strong> unresolved of {queue.data.totalItemsCount.toLocaleString('en')}
              {queue.data.filter.showShadowFlagged !== false && <span className="muted"> · shows shadow-flagged items</span>}
            </span>
          )
        }
        actions={
          <>
            <span className="small muted hide-narrow">
              <Kbd>j</Kbd> <Kbd>k</Kbd> move · <Kbd>Enter</Kbd> open · <Kbd>?</Kbd> all shortcuts
            </span>
            <Button onClick={() => setShowFilters((s) => !s)} aria-expanded={showFilters}>
              Filters
            </Button>
          </>
        }
      />
      {queue.error !== undefined && <ErrorNote error={queue.error} />}
      {showFilters && (
        <Card className="filters-card">
          <QueueFilters actions={actions.data ?? []} />
        </Card>
      )}
      {selected.size > 0 && (
        <div className="bulk-bar" role="region" aria-label="Bulk actions">
          <strong data-testid="selected-count">{selected.size.toLocaleString('en')} selected</strong>
          <Button size="sm" onClick={() => void selectAllMatching()} disabled={collecting}>
            {collecting ? 'Collecting…' : `Select all matching (up to ${BULK_LIMIT.toLocaleString('en')})`}
          </Button>
          <label className="sr-only" htmlFor="bulk-action">
            Action for the selected items
          </label>
          <select id="bulk-action" className="select" style={{ width: 'auto', minWidth: 180, color: 'var(--text)' }} defaultValue="" onChange={(e) => {
            const action = actions.data?.find((a) => a.id === e.target.value);
            e.target.value = '';
            if (action) setPending({ action, ids: [...selected], scope: 'bulk' });
          }}>
            <option value="">Apply an action…</option>
            {(actions.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          <Button size="sm" variant="ghost" style={{ color: '#fff' }} onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        </div>
      )}
      <Card>
        {items.error !== undefined && (
          <div className="card-body">
            <ErrorNote error={items.error} onRetry={items.reload} />
          </div>
        )}
        {!items.data && items.loading && (
          <div className="card-body">
            <Spinner label="Loading items" />
          </div>
        )}
        {items.data && list.length === 0 && <Empty>Nothing to review here{query.includeResolved ? '' : ': every item is resolved'}.</Empty>}
        {list.length > 0 && (
          <QueueTable items={list} queueId={queueId} currentId={currentId} selected={selected} onSelect={onSelect} onSelectPage={onSelectPage} onFocusRow={setCurrentId} sortField={sortField} sortDirection={sortDirection} onSort={onSort} />
        )}
        {page && page.totalItems > 0 && (
          <Pager page={page.currentPage} hasNext={page.hasNextPage} hasPrevious={page.hasPreviousPage} total={page.totalItems} label="items" onPage={(n) => setSearch({ pageNumber: String(n) })} />
        )}
      </Card>
      {actions.data && actions.data.length > 0 && (
        <p className="small muted" style={{ marginTop: 10 }}>
          Actions here: {actions.data.map((a) => a.name).join(', ')}. <Badge outline>x</Badge> selects items for a bulk action.
        </p>
      )}
      {pending && (
        <ActionDialog action={pending.action} count={pending.ids.length} noun="item" onClose={() => setPending(null)} onConfirm={(input) => run(pending, input)} />
      )}
    </div>
  );
}
