import { useState, type FormEvent } from 'react';
import { setSearch, useLocation } from '../../router.tsx';
import { Button, Field } from '../kit/kit.tsx';
import type { ActionView } from './types.ts';

const FILTER_KEYS = ['labels', 'authorId', 'conversationIds', 'filteredActionIds', 'afterDate', 'beforeDate', 'includeResolved'] as const;

/** The filters of queue.items.list, applied to the URL so a filtered view can be shared. */
export function QueueFilters({ actions }: { actions: ActionView[] }) {
  const { search } = useLocation();
  const [draft, setDraft] = useState<Record<string, string>>(() => Object.fromEntries(FILTER_KEYS.map((k) => [k, search.get(k) ?? ''])));
  const set = (key: string) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setSearch({ ...draft, pageNumber: null });
  };
  const clear = () => {
    const empty = Object.fromEntries(FILTER_KEYS.map((k) => [k, '']));
    setDraft(empty);
    setSearch({ ...empty, pageNumber: null });
  };
  const text = (key: string, label: string, placeholder?: string, type = 'text') => (
    <Field label={label}>{(id) => <input id={id} className="input" type={type} placeholder={placeholder} value={draft[key] ?? ''} onChange={(e) => set(key)(e.target.value)} />}</Field>
  );
  return (
    <form className="card-body" onSubmit={apply} aria-label="Filters">
      <div className="filters">
        {text('labels', 'Flagged labels', 'toxicity, spam')}
        {text('authorId', 'Author', 'external id')}
        {text('conversationIds', 'Conversations', 'ids, comma-separated')}
        <Field label="Action taken">
          {(id) => (
            <select id={id} className="select" value={draft.filteredActionIds ?? ''} onChange={(e) => set('filteredActionIds')(e.target.value)}>
              <option value="">Any</option>
              {actions.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('afterDate', 'From', undefined, 'date')}
        {text('beforeDate', 'Until', undefined, 'date')}
        <label className="check" style={{ alignSelf: 'center' }}>
          <input type="checkbox" checked={draft.includeResolved === 'true'} onChange={(e) => set('includeResolved')(e.target.checked ? 'true' : '')} /> Include resolved
        </label>
        <div className="row">
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          <Button onClick={clear}>Clear</Button>
        </div>
      </div>
    </form>
  );
}
