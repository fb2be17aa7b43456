import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/** Below 768 px a wide table scrolls sideways; this says so where it would otherwise look cut off. */
export function ScrollHint({ className = '' }: { className?: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <p
      className={`text-xs text-gray-500 md:hidden dark:text-gray-400 ${className}`}
      data-testid="data-table-scroll-hint"
    >
      <span aria-hidden="true">↔ </span>
      {t('dataTable.scrollHint')}
    </p>
  );
}
