import { useMemo, type ReactElement } from 'react';
import { useDroppable } from '@dnd-kit/core';
import type { TaskDto } from '@earshot/contracts';
import type { TaskStatus } from '@earshot/contracts/constants';
import { Spinner } from '../../components/spinner';
import {
  taskDialogCatalogue as dialogCatalogue,
  mayEditTask,
  useTasksInfiniteQuery,
  type TaskDirectory,
  type TaskFilters,
} from '../../entities/tasks';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { catalogue } from './i18n';
import { KanbanCard, type CardNames } from './kanban-card';

const NO_TASKS: TaskDto[] = [];
const small =
  'rounded-lg border border-gray-300 px-3 py-1.5 text-xs font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

/** One status's column: its own keyset list (Load more), a drop target for the cards. */
export function KanbanColumn({
  status,
  filters,
  directory,
  names,
  today,
  focusId,
  onOpen,
  onMove,
}: {
  status: TaskStatus;
  filters: TaskFilters;
  directory: TaskDirectory;
  names: CardNames;
  today: string;
  focusId: string | null;
  onOpen: (task: TaskDto) => void;
  onMove: (task: TaskDto, status: TaskStatus) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue, dialogCatalogue);
  const { setNodeRef, isOver } = useDroppable({ id: status });
  const list = useTasksInfiniteQuery(filters);
  const tasks = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? NO_TASKS, [list.data]);
  const name = t(`taskStatus.${status}`);
  const headingId = `kanban-${status}`;
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      data-testid="kanban-column"
      data-status={status}
      className={`flex min-h-40 flex-col rounded-2xl border p-3 ${isOver ? 'border-brand-500 bg-brand-50 dark:border-brand-400 dark:bg-brand-950/40' : 'border-gray-200 bg-gray-50 dark:border-gray-800 dark:bg-gray-900'}`}
    >
      <header className="mb-3 flex items-center justify-between gap-2">
        <h2 id={headingId} className="text-sm font-semibold text-gray-900 dark:text-white">
          {name}
        </h2>
        <span
          className="rounded-full bg-gray-200 px-2 py-0.5 text-xs text-gray-700 dark:bg-gray-800 dark:text-gray-300"
          data-testid="kanban-count"
        >
          {t('tasks.kanban_.count', { count: tasks.length })}
          {list.hasNextPage ? '+' : ''}
        </span>
      </header>
      {list.isError ? (
        <div role="alert" className="text-sm text-red-700 dark:text-red-300">
          <p>{errorMessage(list.error) ?? t('tasks.loadFailed')}</p>
          <button type="button" className={`${small} mt-2`} onClick={() => void list.refetch()}>
            {t('dataTable.retry')}
          </button>
        </div>
      ) : list.isLoading ? (
        <div className="flex justify-center py-6">
          <Spinner label={t('common.loading')} />
        </div>
      ) : tasks.length === 0 ? (
        <p className="py-4 text-center text-sm text-gray-500 dark:text-gray-400">{t('tasks.kanban_.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-labelledby={headingId}>
          {tasks.map((task) => (
            <KanbanCard
              key={task._id}
              task={task}
              editable={mayEditTask(task, directory.me)}
              names={names}
              today={today}
              focus={focusId === task._id}
              onOpen={() => onOpen(task)}
              onMove={(to) => onMove(task, to)}
            />
          ))}
        </ul>
      )}
      {list.hasNextPage ? (
        <button
          type="button"
          className={`${small} mt-3 self-center`}
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? t('common.loading') : t('tasks.loadMore')}
        </button>
      ) : null}
    </section>
  );
}
