import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/logo';

interface StatusPageProps {
  code?: string;
  title: string;
  text: string;
  action?: { to: string; label: string };
  /** Inside the signed-in layout rather than a whole screen. */
  embedded?: boolean;
  children?: ReactNode;
  testId?: string;
}

export function StatusPage({
  code,
  title,
  text,
  action,
  embedded = false,
  children,
  testId,
}: StatusPageProps): ReactElement {
  const body = (
    <section aria-labelledby="page-heading" className="mx-auto max-w-lg text-center" data-testid={testId}>
      {code && (
        <p aria-hidden="true" className="mb-4 text-7xl font-bold text-brand-600 dark:text-brand-400">
          {code}
        </p>
      )}
      <h1 id="page-heading" className="mb-3 text-2xl font-semibold text-gray-900 dark:text-white">
        {title}
      </h1>
      <p className="mb-8 text-gray-600 dark:text-gray-400">{text}</p>
      {children}
      {action && (
        <Link
          to={action.to}
          className="inline-flex items-center rounded-lg bg-brand-600 px-5 py-3 text-sm font-medium text-on-brand hover:bg-brand-700"
        >
          {action.label}
        </Link>
      )}
    </section>
  );
  if (embedded) return <div className="flex min-h-[60vh] items-center justify-center p-6">{body}</div>;
  return (
    <main id="main" className="flex min-h-screen flex-col items-center justify-center gap-10 p-6">
      <Logo />
      {body}
    </main>
  );
}
