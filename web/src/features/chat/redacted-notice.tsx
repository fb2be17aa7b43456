import type { ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './redaction-i18n';

/** Under a question whose numbers the company's redaction hid: what was removed before it was stored or sent. */
export function RedactedNotice({ count }: { count: number }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <p role="status" className="text-right text-xs text-gray-600 dark:text-gray-400" data-testid="question-redacted">
      {t('removed', { count })}
    </p>
  );
}
