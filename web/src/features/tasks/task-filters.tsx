import { useEffect, useState, type ReactElement } from 'react';
import { TASK_DUE_FILTERS, TASK_STATUSES, type TaskDueFilter, type TaskStatus } from '@earshot/contracts/constants';
import { fieldInputClass } from '../../components/form-field';
import { taskDialogCatalogue as dialogCatalogue, type TaskDirectory, type TaskFilters } from '../../entities/tasks';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { activeFilterCount } from './model';

const label = 'mb-1 block text-xs font-medium text-gray-700 dark:text-gray-300';

/**
 * The list's and the board's filters, applied as they change. The assignee and client pickers show
 * only to the roles that may list people and clients (the others would be refused).
 */
/**
 * The filters as last chosen, shown at once: the router applies the URL in a transition, and a
 * controlled control would show its old value until then (a ticked box unticks for a moment).
 */
export function useShownFilters(
  value: TaskFilters,
  onChange: (next: TaskFilters) => void,
): [TaskFilters, (next: TaskFilters) => void] {
  const [shown, setShown] = useState(value);
  useEffect(() => setShown(value), [value]);
  return [
    shown,
    (next) => {
      setShown(next);
      onChange(next);
    },
  ];
}

export function TaskFiltersForm({
  value,
  directory,
  withStatus,
  onChange,
}: {
  value: TaskFilters;
  directory: TaskDirectory;
  /** The board's columns are the statuses: it has no status filter. */
  withStatus: boolean;
  onChange: (next: TaskFilters) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue, dialogCatalogue);
  const [shown, change] = useShownFilters(value, onChange);
  const set = (patch: Partial<TaskFilters>) => change({ ...shown, ...patch });
  const select = `${fieldInputClass} py-1.5`;
  return (
    <form
      role="search"
      aria-label={t('tasks.filters.label')}
      className="mb-4 flex flex-wrap items-end gap-3 rounded-2xl border border-gray-200 bg-white p-3 dark:border-gray-800 dark:bg-gray-900"
      onSubmit={(event) => event.preventDefault()}
      data-testid="task-filters"
    >
      <label className="flex items-center gap-2 self-center text-sm text-gray-700 dark:text-gray-300">
        <input
          type="checkbox"
          className="size-4 accent-brand-600"
          checked={Boolean(shown.mine)}
          onChange={(event) =>
            set({ mine: event.target.checked || undefined, ...(event.target.checked ? { assignee: undefined } : {}) })
          }
          data-testid="filter-mine"
        />
        {t('tasks.filters.mine')}
      </label>
      {directory.members ? (
        <div className="w-full sm:w-44">
          <label htmlFor="filter-assignee" className={label}>
            {t('tasks.filters.assignee')}
          </label>
          <select
            id="filter-assignee"
            className={select}
            value={shown.assignee ?? ''}
            disabled={Boolean(shown.mine)}
            onChange={(event) => set({ assignee: event.target.value || undefined })}
          >
            <option value="">{t('tasks.filters.anyone')}</option>
            {directory.members.map((member) => (
              <option key={member._id} value={member._id}>
                {member.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {withStatus ? (
        <div className="w-[calc(50%-0.375rem)] sm:w-36">
          <label htmlFor="filter-status" className={label}>
            {t('tasks.filters.status')}
          </label>
          <select
            id="filter-status"
            className={select}
            value={shown.status ?? ''}
            onChange={(event) => set({ status: (event.target.value || undefined) as TaskStatus | undefined })}
          >
            <option value="">{t('tasks.filters.anyStatus')}</option>
            {TASK_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`taskStatus.${status}`)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {directory.clients ? (
        <div className="w-[calc(50%-0.375rem)] sm:w-44">
          <label htmlFor="filter-client" className={label}>
            {t('tasks.filters.client')}
          </label>
          <select
            id="filter-client"
            className={select}
            value={shown.clientId ?? ''}
            onChange={(event) => set({ clientId: event.target.value || undefined })}
          >
            <option value="">{t('tasks.filters.anyClient')}</option>
            {directory.clients.map((client) => (
              <option key={client._id} value={client._id}>
                {client.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="w-[calc(50%-0.375rem)] sm:w-36">
        <label htmlFor="filter-due" className={label}>
          {t('tasks.filters.due')}
        </label>
        <select
          id="filter-due"
          className={select}
          value={shown.due ?? ''}
          onChange={(event) => set({ due: (event.target.value || undefined) as TaskDueFilter | undefined })}
        >
          <option value="">{t('tasks.filters.anyTime')}</option>
          {TASK_DUE_FILTERS.map((due) => (
            <option key={due} value={due}>
              {t(`tasks.filters.${due}`)}
            </option>
          ))}
        </select>
      </div>
      {activeFilterCount(shown) > 0 ? (
        <button
          type="button"
          className="rounded-lg px-2 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-gray-800"
          onClick={() => change({ sort: shown.sort, order: shown.order })}
          data-testid="filter-clear"
        >
          {t('tasks.filters.clear')}
        </button>
      ) : null}
    </form>
  );
}
