import { lazy, Suspense, useState, type ReactElement } from 'react';
import { buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import type { AvailablePrompt } from '../../entities/transcripts';
import { catalogue } from './patterns-i18n';

// Loaded on first open: other roles never download the form and its zod schema.
const PatternsDialog = lazy(() => import('./patterns-dialog'));

/** "Manage patterns", next to the run picker, for a HOST_ADMIN or an ADMIN. */
export function ManagePatterns({ host, prompts }: { host: boolean; prompts: AvailablePrompt[] }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`${buttonClass.secondary} mt-3`}
        onClick={() => setOpen(true)}
        data-testid="manage-patterns"
      >
        {t('patterns.manage')}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <PatternsDialog host={host} prompts={prompts} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
