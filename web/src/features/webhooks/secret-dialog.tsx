import type { ReactElement } from 'react';
import { ShownOnceDialog } from '../../components/shown-once-dialog';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/**
 * An endpoint's signing secret, shown once (after creating it or rotating it): the page keeps it
 * only while this is open, and the server never answers it again.
 */
export function SecretDialog({ secret, onDone }: { secret: string | null; onDone: () => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <ShownOnceDialog
      value={secret}
      title={t('webhooks.secret.title')}
      explain={t('webhooks.secret.explain')}
      labels={{ copy: t('webhooks.secret.copy'), copied: t('webhooks.secret.copied'), done: t('webhooks.secret.done') }}
      testId="webhook-secret"
      valueTestId="webhook-secret-value"
      onDone={onDone}
    />
  );
}
