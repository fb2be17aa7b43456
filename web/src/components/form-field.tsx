// The admin forms' controls: a labelled input, select or text area with its error under it, named
// for screen readers (aria-invalid, aria-describedby, the error announced) — `Field` leaves the
// control's look to the caller, `FormField` gives it the admin forms' input style — a checkbox,
// and the buttons of admin forms.
import { cloneElement, useId, type ReactElement } from 'react';

export const fieldInputClass =
  'w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-[invalid=true]:border-red-500 dark:border-gray-700 dark:bg-gray-900 dark:text-white';

type Control = ReactElement<{ id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string; className?: string }>;

/** `children` is the one control (`<input {...register('email')} />`); it gets the id, the error wiring and the admin forms' input style. */
export function FormField({
  children,
  ...field
}: {
  label: string;
  error?: string;
  hint?: string;
  children: Control;
}): ReactElement {
  return (
    <Field {...field}>
      {cloneElement(children, { className: `${fieldInputClass} ${children.props.className ?? ''}` })}
    </Field>
  );
}

/** A labelled control with its hint and the server's complaint about it. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: Control;
}): ReactElement {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      {cloneElement(children, { id, 'aria-describedby': note ? noteId : undefined, 'aria-invalid': Boolean(error) })}
      {note ? (
        <p
          id={noteId}
          role={error ? 'alert' : undefined}
          className={`mt-1.5 text-xs ${error ? 'text-red-700 dark:text-red-300' : 'text-gray-600 dark:text-gray-400'}`}
          data-testid={error ? 'field-error' : undefined}
        >
          {note}
        </p>
      ) : null}
    </div>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
}): ReactElement {
  return (
    <label className="flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
        className="size-4 accent-brand-600"
      />
      {label}
    </label>
  );
}

export const buttonClass = {
  primary: 'rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-on-brand hover:bg-brand-700 disabled:opacity-60',
  secondary:
    'rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium text-gray-800 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800',
  row: 'rounded-lg px-2.5 py-1 text-xs font-medium text-brand-800 hover:bg-brand-50 disabled:opacity-50 dark:text-brand-200 dark:hover:bg-brand-900/40',
  danger:
    'rounded-lg px-2.5 py-1 text-xs font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950',
};
