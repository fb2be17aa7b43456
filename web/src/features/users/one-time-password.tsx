import { useState, type ReactElement } from 'react';
import { FormDialog, submitButtonClass, secondaryButtonClass } from '../../components/form-dialog';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/**
 * A temporary password, shown once: the page keeps it only while this is open and forgets it on
 * Done, and the server never answers it again.
 */
export function OneTimePassword({
  secret,
  onDone,
}: {
  secret: { email: string; password: string } | null;
  onDone: () => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!secret) return;
    await navigator.clipboard.writeText(secret.password);
    setCopied(true);
  };
  const done = () => {
    setCopied(false);
    onDone();
  };
  return (
    <FormDialog
      open={secret !== null}
      title={t('users.secret.title', { email: secret?.email ?? '' })}
      onClose={done}
      testId="one-time-password"
    >
      <p className="mb-4 text-sm text-gray-700 dark:text-gray-300">{t('users.secret.explain')}</p>
      <div className="flex items-center gap-2">
        <code
          className="flex-1 rounded-lg bg-gray-100 px-3 py-2 font-mono text-sm break-all select-all dark:bg-gray-800"
          data-testid="temporary-password"
        >
          {secret?.password}
        </code>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => void copy().catch(() => setCopied(false))}
          aria-live="polite"
        >
          {copied ? t('users.secret.copied') : t('users.secret.copy')}
        </button>
      </div>
      <div className="mt-6 flex justify-end">
        <button type="button" className={submitButtonClass} onClick={done}>
          {t('users.secret.done')}
        </button>
      </div>
    </FormDialog>
  );
}
