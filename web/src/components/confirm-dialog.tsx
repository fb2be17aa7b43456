import type { ReactElement } from 'react';
import { useModalDialog } from './use-modal-dialog';

/** A modal yes/no question on the native <dialog> (focus trap and Esc come with it). */
export function ConfirmDialog({ open, message, confirmLabel, cancelLabel, busy = false, onConfirm, onCancel }: {
  open: boolean;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}): ReactElement {
  const ref = useModalDialog(open);
  return (
    <dialog
      ref={ref}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      aria-label={message}
      className="m-auto w-96 max-w-[calc(100vw-2rem)] rounded-2xl border border-gray-200 bg-white p-6 text-gray-900 shadow-xl backdrop:bg-gray-900/50 dark:border-gray-800 dark:bg-gray-900 dark:text-white"
    >
      {open ? (
        <>
          <p className="mb-6 text-base">{message}</p>
          <div className="flex justify-end gap-3">
            <button type="button" onClick={onCancel} className="rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800">
              {cancelLabel}
            </button>
            <button type="button" onClick={onConfirm} disabled={busy} data-testid="confirm-yes" className="rounded-lg bg-red-600 px-4 py-2 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60">
              {confirmLabel}
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
