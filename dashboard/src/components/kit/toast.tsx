import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

interface Toast {
  id: number;
  text: string;
  error: boolean;
}
const ToastContext = createContext<(text: string, options?: { error?: boolean }) => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((text: string, options: { error?: boolean } = {}) => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list.slice(-3), { id, text, error: options.error ?? false }]);
    window.setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), options.error ? 8000 : 4000);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toast-region" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={t.error ? 'toast toast-error' : 'toast'}>
            {t.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
