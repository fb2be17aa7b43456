// The notice a save shows when the company's redaction hid something in what was typed (the
// answer's `redacted` count, or the `x-redacted` header of an answer that is a list): the same
// sentence in every form that saves free text, beside the message that says it was saved.
import { useCallback, type ReactElement } from 'react';
import { useFeatureTranslation } from '../i18n/feature';
import { catalogue } from './redacted-notice-i18n';

/** The notice's text for a save's count; null when redaction hid nothing. */
export function useRedactedNotice(): (redacted: number | undefined) => string | null {
  const { t } = useFeatureTranslation(catalogue);
  return useCallback((redacted) => (redacted ? t('removed', { count: redacted }) : null), [t]);
}

/** The notice inline, inside the message (a status) that says the save worked; nothing when redaction hid nothing. */
export function RedactedNotice({ redacted }: { redacted: number | undefined }): ReactElement | null {
  const text = useRedactedNotice()(redacted);
  return text ? (
    <span className="block text-xs" data-testid="redacted-notice">
      {text}
    </span>
  ) : null;
}
