import type { ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './editor-i18n';

/**
 * An edit was refused because someone else changed the transcript since it was read. It stays
 * until the editor reloads: the refused text is still in its field, to be saved again on the
 * transcript as it is now.
 */
export function StaleNotice({ onReload }: { onReload: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <div
      role="alert"
      data-testid="stale-notice"
      className="mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <span className="mr-auto">{t('editor.staleVersion')}</span>
      <button
        type="button"
        onClick={onReload}
        data-testid="stale-reload"
        className="rounded bg-amber-600 px-2 py-1 text-white hover:bg-amber-700"
      >
        {t('editor.reload')}
      </button>
    </div>
  );
}
