import { cloneElement, useEffect, useId, useRef, type ReactElement, type ReactNode } from 'react';
import { inputClass } from '../../components/text-field';

export { inputClass };

/** A labelled control with its hint and the server's complaint about it. */
export function Field({ label, error, hint, children }: { label: string; error?: string; hint?: string; children: ReactElement<{ id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }> }): ReactElement {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">{label}</label>
      {cloneElement(children, { id, 'aria-describedby': note ? noteId : undefined, 'aria-invalid': error ? true : undefined })}
      {note ? <p id={noteId} className={`mt-1.5 text-xs ${error ? 'text-red-700 dark:text-red-300' : 'text-gray-600 dark:text-gray-400'}`} data-testid={error ? 'field-error' : undefined}>{note}</p> : null}
    </div>
  );
}

export function Checkbox({ label, checked, onChange, testId }: { label: string; checked: boolean; onChange: (checked: boolean) => void; testId?: string }): ReactElement {
  return (
    <label className="flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} data-testid={testId} className="size-4 accent-brand-600" />
      {label}
    </label>
  );
}

/** A modal form on the native <dialog> (focus trap and Esc come with it). */
export function FormDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }): ReactElement {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-[32rem] max-w-[calc(100vw-2rem)] rounded-2xl border border-gray-200 bg-white p-6 text-gray-900 shadow-xl backdrop:bg-gray-900/50 dark:border-gray-800 dark:bg-gray-900 dark:text-white"
    >
      <h2 className="mb-4 text-lg font-semibold">{title}</h2>
      {children}
    </dialog>
  );
}

export const buttonClass = {
  primary: 'rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-on-brand hover:bg-brand-700 disabled:opacity-60',
  secondary: 'rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium text-gray-800 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800',
  row: 'rounded-lg px-2.5 py-1 text-xs font-medium text-brand-800 hover:bg-brand-50 disabled:opacity-50 dark:text-brand-200 dark:hover:bg-brand-900/40',
  danger: 'rounded-lg px-2.5 py-1 text-xs font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950',
};

export function FormActions({ busy, saveLabel, cancelLabel, onCancel, message }: { busy: boolean; saveLabel: string; cancelLabel: string; onCancel: () => void; message: string | null }): ReactElement {
  return (
    <>
      {message ? <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200" data-testid="form-error">{message}</p> : null}
      <div className="flex justify-end gap-3">
        <button type="button" onClick={onCancel} className={buttonClass.secondary}>{cancelLabel}</button>
        <button type="submit" disabled={busy} className={buttonClass.primary} data-testid="form-save">{saveLabel}</button>
      </div>
    </>
  );
}
