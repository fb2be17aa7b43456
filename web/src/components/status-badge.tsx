import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

const BADGE: Record<string, string> = {
  completed: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200',
  failed: 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200',
  processing: 'bg-blue-100 text-blue-800 dark:bg-blue-900/40 dark:text-blue-200',
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
  not_started: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
};

/** A file's or a transcription's status, pulsing while pending or processing. */
export function StatusBadge({ status, testId }: { status: string; testId?: string }): ReactElement {
  const { t } = useTranslation();
  const busy = status === 'pending' || status === 'processing';
  return (
    <span
      data-testid={testId}
      data-status={status}
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium ${BADGE[status] ?? BADGE.not_started}`}
    >
      {busy ? <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-current" /> : null}
      {t(`transcripts.status.${status}`, { defaultValue: status })}
    </span>
  );
}
