import type { ReactElement } from 'react';
import type { CompanyQueueDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';

/** The company's line at a glance, above the list: how many run (and the cap) and wait. */
export function QueueSummary({ queue }: { queue: CompanyQueueDto }): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  if (queue.running === 0 && queue.pending === 0) return null;
  return (
    <p className="mb-3 text-xs text-gray-600 dark:text-gray-400" data-testid="queue-summary">
      {t('transcriptList.queue.summary', { running: queue.running, cap: queue.cap, pending: queue.pending })}
    </p>
  );
}

/** A waiting recording's place in its company's line, under its status. */
export function QueuePosition({ position, pending }: { position: number; pending: number }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <p className="mt-1 text-xs text-gray-600 dark:text-gray-400" data-testid="queue-position">
      {t('transcriptList.queue.position', { position, pending })}
    </p>
  );
}
