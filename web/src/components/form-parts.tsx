// The admin forms' parts in one import: labelled fields, checkbox, dialog, buttons, and the
// save/cancel row with the form's own error.
import type { ReactElement } from 'react';
import { buttonClass } from './form-field';
import { inputClass } from './text-field';

export { Checkbox, Field, buttonClass } from './form-field';
export { FormDialog } from './form-dialog';
export { inputClass };

export function FormActions({
  busy,
  saveLabel,
  cancelLabel,
  onCancel,
  message,
}: {
  busy: boolean;
  saveLabel: string;
  cancelLabel: string;
  onCancel: () => void;
  message: string | null;
}): ReactElement {
  return (
    <>
      {message ? (
        <p
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200"
          data-testid="form-error"
        >
          {message}
        </p>
      ) : null}
      <div className="flex justify-end gap-3">
        <button type="button" onClick={onCancel} className={buttonClass.secondary}>
          {cancelLabel}
        </button>
        <button type="submit" disabled={busy} className={buttonClass.primary} data-testid="form-save">
          {saveLabel}
        </button>
      </div>
    </>
  );
}
