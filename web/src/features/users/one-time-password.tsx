import type { ReactElement } from 'react';
import { ShownOnceDialog } from '../../components/shown-once-dialog';
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
  return (
    <ShownOnceDialog
      value={secret?.password ?? null}
      title={t('users.secret.title', { email: secret?.email ?? '' })}
      explain={t('users.secret.explain')}
      labels={{ copy: t('users.secret.copy'), copied: t('users.secret.copied'), done: t('users.secret.done') }}
      testId="one-time-password"
      valueTestId="temporary-password"
      onDone={onDone}
    />
  );
}
