import type { ReactElement, ReactNode } from 'react';

export function PageHeading({ children }: { children: ReactNode }): ReactElement {
  return (
    <h1 id="page-heading" className="mb-6 text-2xl font-semibold text-gray-900 dark:text-white">
      {children}
    </h1>
  );
}
