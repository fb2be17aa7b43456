import { useState, type ReactElement } from 'react';
import { FormDialog, secondaryButtonClass, submitButtonClass } from '../../components/form-dialog';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/**
 * An endpoint's signing secret, shown once (after creating it or rotating it): the page keeps it
 * only while this is open, and the server never answers it again.
 */
export function SecretDialog({ secret, onDone }: { secret: string | null; onDone: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!secret) return;
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  const done = () => {
    setCopied(false);
    onDone();
  };
  return (
    <FormDialog open={secret !== null} title={t('webhooks.secret.title')} onClose={done} testId="webhook-secret">
      <p className="mb-4 text-sm text-gray-700 dark:text-gray-300">{t('webhooks.secret.explain')}</p>
      <div className="flex items-center gap-2">
        <code
          className="flex-1 rounded-lg bg-gray-100 px-3 py-2 font-mono text-sm break-all select-all dark:bg-gray-800"
          data-testid="webhook-secret-value"
        >
          {secret}
        </code>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => void copy().catch(() => setCopied(false))}
          aria-live="polite"
        >
          {copied ? t('webhooks.secret.copied') : t('webhooks.secret.copy')}
        </button>
      </div>
      <div className="mt-6 flex justify-end">
        <button type="button" className={submitButtonClass} onClick={done}>
          {t('webhooks.secret.done')}
        </button>
      </div>
    </FormDialog>
  );
}
