import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { Forbidden } from '../../lib/access';

/**
 * Said on the page a person lands on after opening one their role may not: the guard still sends
 * them to the start page, but no longer silently, so a shared link does not look broken.
 */
export function ForbiddenNotice(): ReactElement | null {
  const { t, i18n } = useTranslation();
  const { state, key } = useLocation() as { state: { forbidden?: Forbidden } | null; key: string };
  const [dismissed, setDismissed] = useState<string | null>(null);
  const forbidden = state?.forbidden;
  if (!forbidden || dismissed === key) return null;
  const roles = new Intl.ListFormat(i18n.language, { type: 'disjunction' }).format(
    forbidden.roles.map((role) => t(`roles.${role}`)),
  );
  return (
    <div
      role="status"
      data-testid="forbidden-notice"
      className="mb-4 flex flex-wrap items-start justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="min-w-0 flex-1 break-words">{t('status.forbidden', { path: forbidden.path, roles })}</p>
      <button type="button" onClick={() => setDismissed(key)} className="font-medium underline">
        {t('status.dismiss')}
      </button>
    </div>
  );
}
