import { useState, type ReactElement } from 'react';
import { FormDialog, secondaryButtonClass, submitButtonClass } from './form-dialog';

/**
 * A secret the server answers once (a temporary password, a signing secret): shown with a copy
 * button while the dialog is open, forgotten by the page on Done.
 */
export function ShownOnceDialog({
  value,
  title,
  explain,
  labels,
  testId,
  valueTestId,
  onDone,
}: {
  /** null: closed. */
  value: string | null;
  title: string;
  explain: string;
  labels: { copy: string; copied: string; done: string };
  testId: string;
  valueTestId: string;
  onDone: () => void;
}): ReactElement {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (value === null) return;
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  const done = () => {
    setCopied(false);
    onDone();
  };
  return (
    <FormDialog open={value !== null} title={title} onClose={done} testId={testId}>
      <p className="mb-4 text-sm text-gray-700 dark:text-gray-300">{explain}</p>
      <div className="flex items-center gap-2">
        <code
          className="flex-1 rounded-lg bg-gray-100 px-3 py-2 font-mono text-sm break-all select-all dark:bg-gray-800"
          data-testid={valueTestId}
        >
          {value}
        </code>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => void copy().catch(() => setCopied(false))}
          aria-live="polite"
        >
          {copied ? labels.copied : labels.copy}
        </button>
      </div>
      <div className="mt-6 flex justify-end">
        <button type="button" className={submitButtonClass} onClick={done}>
          {labels.done}
        </button>
      </div>
    </FormDialog>
  );
}
