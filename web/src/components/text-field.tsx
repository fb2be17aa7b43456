import { useId, type InputHTMLAttributes, type ReactElement, type ReactNode } from 'react';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Shown next to the input (e.g. a show-password button). */
  trailing?: ReactNode;
  hint?: string;
}

export const inputClass =
  'h-11 w-full rounded-lg border border-gray-300 bg-white px-4 text-sm text-gray-900 placeholder:text-gray-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-gray-700 dark:bg-gray-900 dark:text-white dark:placeholder:text-gray-400';

export function TextField({ label, trailing, hint, id, ...input }: TextFieldProps): ReactElement {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      <div className="relative">
        <input
          id={inputId}
          aria-describedby={hintId}
          className={`${inputClass} ${trailing ? 'pr-12' : ''}`}
          {...input}
        />
        {trailing && <div className="absolute inset-y-0 right-1 flex items-center">{trailing}</div>}
      </div>
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      )}
    </div>
  );
}

export function Alert({
  tone = 'error',
  children,
  testId,
}: {
  tone?: 'error' | 'info' | 'success';
  children: ReactNode;
  testId?: string;
}): ReactElement {
  const tones = {
    error: 'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200',
    info: 'border-blue-300 bg-blue-50 text-blue-900 dark:border-blue-800 dark:bg-blue-950/50 dark:text-blue-100',
    success:
      'border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950/50 dark:text-green-100',
  };
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      className={`rounded-lg border px-4 py-3 text-sm ${tones[tone]}`}
    >
      {children}
    </div>
  );
}

export const primaryButtonClass =
  'inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-600 px-4 text-sm font-medium text-on-brand hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60';

export const linkClass = 'font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300';
