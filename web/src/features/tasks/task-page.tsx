// What the list and the board share: filters in the URL, the open task (`?task=<id>`, where mails
// link), the lazily loaded task dialog, the toasts, the names shown for assignees and clients.
import { Suspense, useCallback, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { NavLink, useSearchParams } from 'react-router-dom';
import type { TaskDto } from '@earshot/contracts';
import { buttonClass } from '../../components/form-field';
import { PageHeading } from '../../components/page-heading';
import {
  taskDialogCatalogue as dialogCatalogue,
  nameIn,
  TaskDialog,
  useTaskDirectory,
  type TaskDirectory,
  type TaskFilters,
} from '../../entities/tasks';
import { useRedactedNotice } from '../../components/redacted-notice';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { filtersFromParams, paramsWithFilters } from './model';
import { TaskFiltersForm } from './task-filters';

export function useTaskPage() {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(search), [search]);
  const directory = useTaskDirectory();
  const { toasts, show, dismiss } = useToasts();
  const setFilters = useCallback(
    (next: TaskFilters) => setSearch((current) => paramsWithFilters(current, next)),
    [setSearch],
  );
  const openTask = useCallback(
    (id: string) =>
      setSearch((current) => {
        const next = new URLSearchParams(current);
        next.set('task', id);
        return next;
      }),
    [setSearch],
  );
  return { search, filters, setFilters, directory, toasts, show, dismiss, openTask, setSearch };
}

export type TaskPageState = ReturnType<typeof useTaskPage>;

/** Names for a task's assignee and client, as far as the caller may know them. */
export function useTaskNames(directory: TaskDirectory) {
  const { t } = useFeatureTranslation(catalogue);
  return useMemo(
    () => ({
      assignee: (task: TaskDto) => {
        if (task.assigneeId === null) return t('tasks.nobody');
        if (task.assigneeId === directory.me.id) return t('tasks.me');
        return nameIn(directory.members, task.assigneeId) ?? t('tasks.colleague');
      },
      client: (task: TaskDto) =>
        task.clientId === null ? '' : (nameIn(directory.clients, task.clientId) ?? t('tasks.callClient')),
    }),
    [directory, t],
  );
}

const viewLink = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${isActive ? 'bg-white text-gray-900 shadow-sm dark:bg-gray-700 dark:text-white' : 'text-gray-600 hover:text-gray-900 dark:text-gray-300 dark:hover:text-white'}`;

/** Heading, the two views, New task, the filters, the page's content, and the dialog over it. */
export function TaskPageFrame({
  state,
  title,
  withStatus,
  toolbar,
  children,
}: {
  state: TaskPageState;
  title: string;
  withStatus: boolean;
  toolbar?: ReactNode;
  children: ReactNode;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue, dialogCatalogue);
  const { search, setSearch, filters, setFilters, directory, toasts, show, dismiss } = state;
  const redactedNotice = useRedactedNotice();
  const [creating, setCreating] = useState(false);
  const openId = search.get('task');
  // The views keep the filters (not the open task) when switching.
  const query = paramsWithFilters(new URLSearchParams(), filters).toString();
  const close = () => {
    setCreating(false);
    if (openId !== null) {
      setSearch((current) => {
        const next = new URLSearchParams(current);
        next.delete('task');
        return next;
      });
    }
  };
  return (
    <section aria-labelledby="page-heading">
      <div className="flex flex-wrap items-start gap-x-3">
        <div className="mr-auto">
          <PageHeading>{title}</PageHeading>
        </div>
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <nav aria-label={t('tasks.views')} className="flex rounded-lg bg-gray-100 p-1 dark:bg-gray-800">
            <NavLink to={`/task-list${query ? `?${query}` : ''}`} className={viewLink}>
              {t('tasks.list')}
            </NavLink>
            <NavLink to={`/task-kanban${query ? `?${query}` : ''}`} className={viewLink}>
              {t('tasks.kanban')}
            </NavLink>
          </nav>
          {directory.mayCreate ? (
            <button
              type="button"
              className={buttonClass.primary}
              onClick={() => setCreating(true)}
              data-testid="task-new"
            >
              {t('tasks.newTask')}
            </button>
          ) : null}
        </div>
      </div>
      <TaskFiltersForm value={filters} directory={directory} withStatus={withStatus} onChange={setFilters} />
      {toolbar}
      {children}
      {creating || openId ? (
        <Suspense fallback={null}>
          <TaskDialog
            key={openId ?? 'new'}
            taskId={creating ? undefined : (openId ?? undefined)}
            onClose={close}
            onSaved={(task, created) =>
              show({
                kind: 'success',
                title: t(created ? 'tasks.created' : 'tasks.saved'),
                detail: redactedNotice(task.redacted),
              })
            }
            onDeleted={() => show({ kind: 'success', title: t('tasks.deleted') })}
          />
        </Suspense>
      ) : null}
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('tasks.close')} />
    </section>
  );
}
