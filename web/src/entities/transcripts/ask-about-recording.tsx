import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './analysis-i18n';

/** Opens chat bound to this transcript (the chat page reads `?transcript=`). */
export function AskAboutRecording({ fileId }: { fileId: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <Link
      to={`/chat?transcript=${encodeURIComponent(fileId)}`}
      className="inline-flex items-center gap-1.5 rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-on-brand hover:bg-brand-700"
      data-testid="ask-recording"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
        <path d="M3 4.5A2.5 2.5 0 0 1 5.5 2h9A2.5 2.5 0 0 1 17 4.5v7a2.5 2.5 0 0 1-2.5 2.5H9l-4 3.5V14h.5A2.5 2.5 0 0 1 3 11.5v-7Z" />
      </svg>
      {t('ask')}
    </Link>
  );
}
