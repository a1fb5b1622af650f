import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Dialog, Kbd } from './kit.tsx';

export interface Shortcut {
  key: string;
  description: string;
  run: () => void;
}

// Pages register their shortcuts while mounted; `?` lists whatever is registered, read again while the list is open.
// Registering notifies no one: a re-render per registration would loop through the pages' effects.
type Registry = Map<number, Shortcut[]>;
const registry: Registry = new Map();
let nextId = 1;

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

/** Registers shortcuts for the lifetime of the calling component. */
export function useShortcuts(shortcuts: Shortcut[]): void {
  const id = useRef(0);
  if (id.current === 0) id.current = nextId++;
  useEffect(() => {
    registry.set(id.current, shortcuts);
  });
  useEffect(() => {
    const mine = id.current;
    return () => {
      registry.delete(mine);
    };
  }, []);
}

export function allShortcuts(): Shortcut[] {
  return [...registry.values()].flat();
}

const HelpContext = createContext<() => void>(() => {});
export const useShortcutHelp = () => useContext(HelpContext);

export function ShortcutProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  // A page's shortcuts can register after `?` opened the list (its actions still loading): while open, read it again.
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => setTick((t) => t + 1), 300);
    return () => clearInterval(timer);
  }, [open]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingInto(event.target)) return;
      if (document.querySelector('[role="dialog"]') && event.key !== '?') return;
      // Enter on a focused link or button keeps its own meaning.
      if (event.key === 'Enter' && event.target instanceof HTMLElement && event.target.closest('a, button, [role="button"], summary')) return;
      if (event.key === '?') {
        event.preventDefault();
        setOpen((o) => !o);
        return;
      }
      const found = allShortcuts().find((s) => s.key === event.key);
      if (found) {
        event.preventDefault();
        found.run();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <HelpContext.Provider value={show}>
      {children}
      {open && (
        <Dialog title="Keyboard shortcuts" onClose={() => setOpen(false)} footer={<Button onClick={() => setOpen(false)}>Close</Button>}>
          <dl className="shortcut-list" aria-label="Shortcuts on this page">
            {[{ key: '?', description: 'Show or hide this list' }, ...allShortcuts()].map((s) => (
              <div key={s.key} style={{ display: 'contents' }}>
                <dt>
                  <Kbd>{s.key}</Kbd>
                </dt>
                <dd style={{ margin: 0 }}>{s.description}</dd>
              </div>
            ))}
          </dl>
        </Dialog>
      )}
    </HelpContext.Provider>
  );
}
