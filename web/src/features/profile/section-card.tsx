import type { ReactElement, ReactNode } from 'react';

/** One section of the account page: a titled card (its heading names the region). */
export function SectionCard({ id, title, children }: { id: string; title: string; children: ReactNode }): ReactElement {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      data-testid={`profile-${id}`}
      className="rounded-2xl border border-gray-200 bg-white p-4 sm:p-6 dark:border-gray-800 dark:bg-gray-900"
    >
      <h2 id={`${id}-heading`} className="mb-4 text-lg font-semibold text-gray-900 dark:text-white">
        {title}
      </h2>
      <div className="flex flex-col gap-4">{children}</div>
    </section>
  );
}

/** What the last action of a section answered: shown under it, read out by screen readers. */
export type Outcome = { tone: 'success' | 'error'; text: string } | null;
