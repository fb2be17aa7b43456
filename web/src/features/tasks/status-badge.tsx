import type { ReactElement } from 'react';
import type { TaskStatus } from '@earshot/contracts/constants';
import { taskDialogCatalogue as catalogue } from '../../entities/tasks';
import { useFeatureTranslation } from '../../i18n/feature';

const BADGE: Record<TaskStatus, string> = {
  todo: 'bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-200',
  in_progress: 'bg-blue-100 text-blue-800 dark:bg-blue-900/40 dark:text-blue-200',
  done: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200',
};

export function StatusBadge({ status }: { status: TaskStatus }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <span
      data-status={status}
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${BADGE[status]}`}
    >
      {t(`taskStatus.${status}`)}
    </span>
  );
}
