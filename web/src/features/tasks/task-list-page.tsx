import { useMemo, type ReactElement } from 'react';
import type { TaskDto } from '@earshot/contracts';
import { TASK_SORTS, type TaskSort } from '@earshot/contracts/constants';
import { DataTable, type DataColumn } from '../../components/data-table';
import { fieldInputClass } from '../../components/form-field';
import { taskDialogCatalogue as dialogCatalogue, useTasksInfiniteQuery } from '../../entities/tasks';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatDate, formatDay } from '../../lib/format-time';
import { catalogue } from './i18n';
import { isOverdue, todayUtc } from './model';
import { useShownFilters } from './task-filters';
import { TaskPageFrame, useTaskNames, useTaskPage } from './task-page';
import { StatusBadge } from './status-badge';

const NO_TASKS: TaskDto[] = [];
const loadMoreClass =
  'rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-200 dark:hover:bg-gray-800';

/** /task-list: the company's tasks, filtered and sorted by the server, a keyset page at a time. */
export default function TaskListPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue, dialogCatalogue);
  const state = useTaskPage();
  const { filters, setFilters, openTask } = state;
  const list = useTasksInfiniteQuery(filters);
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? NO_TASKS, [list.data]);
  const names = useTaskNames(state.directory);
  const today = todayUtc();

  const columns = useMemo<Array<DataColumn<TaskDto>>>(
    () => [
      {
        id: 'title',
        header: t('tasks.columns.title'),
        canHide: false,
        className: 'min-w-48',
        cell: (task) => (
          <button
            type="button"
            className="text-left font-medium text-brand-700 hover:underline dark:text-brand-300"
            onClick={() => openTask(task._id)}
            aria-label={t('tasks.open', { title: task.title })}
            data-testid="task-open"
          >
            {task.title}
          </button>
        ),
      },
      { id: 'status', header: t('tasks.columns.status'), cell: (task) => <StatusBadge status={task.status} /> },
      {
        id: 'assignee',
        header: t('tasks.columns.assignee'),
        cell: (task) => <span className="whitespace-nowrap">{names.assignee(task)}</span>,
      },
      {
        id: 'due',
        header: t('tasks.columns.due'),
        cell: (task) =>
          task.dueDate ? (
            <span
              data-testid="task-due"
              className={`whitespace-nowrap ${isOverdue(task, today) ? 'font-medium text-red-700 dark:text-red-300' : ''}`}
            >
              {formatDay(task.dueDate, i18n.language)}
              {isOverdue(task, today) ? <span className="ml-1 text-xs">({t('tasks.overdue')})</span> : null}
            </span>
          ) : (
            '—'
          ),
      },
      {
        id: 'client',
        header: t('tasks.columns.client'),
        cell: (task) => <span className="whitespace-nowrap">{names.client(task) || '—'}</span>,
      },
      {
        id: 'created',
        header: t('tasks.columns.created'),
        cell: (task) => <span className="whitespace-nowrap">{formatDate(task.createdAt, i18n.language)}</span>,
      },
    ],
    [i18n.language, names, openTask, t, today],
  );

  const [shown, change] = useShownFilters(filters, setFilters);
  const sort = shown.sort ?? 'dueDate';
  const order = shown.order ?? 'asc';
  const select = `${fieldInputClass} py-1.5`;
  const sorter = (
    <div className="mb-3 flex flex-wrap items-end gap-3" data-testid="task-sort">
      <div className="w-40">
        <label htmlFor="task-sort" className="mb-1 block text-xs font-medium text-gray-700 dark:text-gray-300">
          {t('tasks.sort.label')}
        </label>
        <select
          id="task-sort"
          className={select}
          value={sort}
          onChange={(event) => change({ ...shown, sort: event.target.value as TaskSort })}
        >
          {TASK_SORTS.map((key) => (
            <option key={key} value={key}>
              {t(`tasks.sort.${key}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="w-36">
        <label htmlFor="task-order" className="mb-1 block text-xs font-medium text-gray-700 dark:text-gray-300">
          {t('tasks.sort.order')}
        </label>
        <select
          id="task-order"
          className={select}
          value={order}
          onChange={(event) => change({ ...shown, order: event.target.value as 'asc' | 'desc' })}
        >
          <option value="asc">{t('tasks.sort.asc')}</option>
          <option value="desc">{t('tasks.sort.desc')}</option>
        </select>
      </div>
    </div>
  );

  return (
    <TaskPageFrame state={state} title={t('pages.taskList')} withStatus toolbar={sorter}>
      <DataTable
        label={t('pages.taskList')}
        testId="task-table"
        columns={columns}
        rows={rows}
        rowId={(task) => task._id}
        loading={list.isFetching && !list.isFetchingNextPage && rows.length === 0}
        error={list.isError ? (errorMessage(list.error) ?? t('tasks.loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={t('tasks.empty')}
        footer={
          list.hasNextPage ? (
            <button
              type="button"
              className={loadMoreClass}
              disabled={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
              data-testid="task-load-more"
            >
              {list.isFetchingNextPage ? t('common.loading') : t('tasks.loadMore')}
            </button>
          ) : undefined
        }
      />
    </TaskPageFrame>
  );
}
