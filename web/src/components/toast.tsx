import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';

export interface Toast {
  id: number;
  kind: 'success' | 'error';
  title: string;
  detail?: string | null;
}

/** Toasts that vanish after `durationMs` (3000 ms); a success clears the errors shown before it. */
export function useToasts(durationMs = 3000): {
  toasts: Toast[];
  show: (toast: Omit<Toast, 'id'>) => void;
  dismiss: (id: number) => void;
} {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);
  const show = useCallback(
    (toast: Omit<Toast, 'id'>) => {
      const id = next.current++;
      // A success says the last attempt worked, so an earlier failure's message would now mislead.
      setToasts((list) => [
        ...(toast.kind === 'success' ? list.filter((t) => t.kind !== 'error') : list),
        { ...toast, id },
      ]);
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        dismiss(id);
      }, durationMs);
      timers.current.add(timer);
    },
    [dismiss, durationMs],
  );
  return { toasts, show, dismiss };
}

export function ToastRegion({
  toasts,
  onDismiss,
  closeLabel,
}: {
  toasts: Toast[];
  onDismiss: (id: number) => void;
  closeLabel: string;
}): ReactElement {
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed top-4 right-4 z-[60] flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2"
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          data-testid={`toast-${toast.kind}`}
          className={`pointer-events-auto flex items-start gap-3 rounded-xl border p-4 text-sm shadow-lg ${
            toast.kind === 'error'
              ? 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100'
              : 'border-green-200 bg-green-50 text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100'
          }`}
        >
          <div className="flex-1">
            <p className="font-semibold">{toast.title}</p>
            {toast.detail ? <p className="mt-1">{toast.detail}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => onDismiss(toast.id)}
            aria-label={closeLabel}
            className="rounded px-1 text-lg leading-none opacity-70 hover:opacity-100"
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
