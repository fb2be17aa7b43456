import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Above a conversation about one recording: which recording, and the way back to it. */
export default function RecordingBanner({
  fileId,
  fileName,
  missing,
}: {
  fileId: string;
  fileName: string | null;
  missing: boolean;
}): ReactElement {
  const { t } = useTranslation();
  if (missing) {
    return (
      <p
        role="alert"
        className="rounded-xl border border-red-300 bg-red-50 px-4 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200"
        data-testid="recording-banner"
      >
        {t('chat.recordingMissing')}
      </p>
    );
  }
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-brand-200 bg-brand-50 px-4 py-2 text-sm text-brand-900 dark:border-brand-800 dark:bg-brand-900/40 dark:text-brand-100"
      data-testid="recording-banner"
    >
      <p className="min-w-0 truncate">{fileName === null ? '…' : t('chat.aboutRecording', { name: fileName })}</p>
      <Link
        to={`/transcripts/${encodeURIComponent(fileId)}`}
        className="shrink-0 font-medium underline hover:no-underline"
        data-testid="recording-link"
      >
        {t('chat.openRecording')}
      </Link>
    </div>
  );
}
