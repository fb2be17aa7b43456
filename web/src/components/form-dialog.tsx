import type { ReactElement, ReactNode } from 'react';
import { buttonClass } from './form-field';
import { Modal } from './modal';

/** A modal with a heading, holding a form or a one-time secret. */
export function FormDialog({
  open = true,
  title,
  onClose,
  children,
  testId,
  size = 'md',
}: {
  /** A dialog mounted only while it is shown can leave this out. */
  open?: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  size?: 'md' | 'lg';
}): ReactElement {
  return (
    <Modal open={open} label={title} onClose={onClose} testId={testId} size={size}>
      <h2 className="mb-4 text-lg font-semibold">{title}</h2>
      {children}
    </Modal>
  );
}

export const secondaryButtonClass = buttonClass.secondary;
export const submitButtonClass = buttonClass.primary;

/** Cancel and submit, at the foot of a dialog's form. */
export function DialogButtons({
  cancelLabel,
  submitLabel,
  busy,
  onCancel,
}: {
  cancelLabel: string;
  submitLabel: string;
  busy: boolean;
  onCancel: () => void;
}): ReactElement {
  return (
    <div className="mt-6 flex justify-end gap-3">
      <button type="button" onClick={onCancel} className={secondaryButtonClass}>
        {cancelLabel}
      </button>
      <button type="submit" disabled={busy} className={submitButtonClass} data-testid="form-submit">
        {submitLabel}
      </button>
    </div>
  );
}
