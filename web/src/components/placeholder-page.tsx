import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeading } from './page-heading';

/**
 * Marks a screen whose feature is built in its own, later issue: the route, title and access
 * rules are real; the content is not yet.
 */
export function PlaceholderPage({ titleKey }: { titleKey: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="page-heading" data-testid="placeholder-page">
      <PageHeading>{t(titleKey)}</PageHeading>
      <div className="rounded-2xl border-2 border-dashed border-amber-400 bg-amber-50 p-6 text-amber-900 dark:border-amber-500/60 dark:bg-amber-950/40 dark:text-amber-100">
        <p className="mb-2 inline-block rounded-full bg-amber-200 px-3 py-0.5 text-xs font-semibold uppercase tracking-wide text-amber-900 dark:bg-amber-800 dark:text-amber-50">
          {t('placeholder.badge')}
        </p>
        <p>{t('placeholder.text')}</p>
      </div>
    </section>
  );
}
