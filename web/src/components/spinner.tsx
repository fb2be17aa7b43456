import type { ReactElement } from 'react';

export function Spinner({ label, className = '' }: { label: string; className?: string }): ReactElement {
  return (
    <span role="status" className={`inline-flex items-center gap-3 ${className}`}>
      <span
        aria-hidden="true"
        className="size-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600 dark:border-gray-700 dark:border-t-brand-400"
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Covers the screen while something the whole app needs is loading (company configuration). */
export function FullScreenSpinner({ label }: { label: string }): ReactElement {
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-white dark:bg-gray-950"
      data-testid="full-screen-spinner"
    >
      <Spinner label={label} />
    </div>
  );
}

export function PageSpinner({ label }: { label: string }): ReactElement {
  return (
    <div className="flex min-h-40 items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}
