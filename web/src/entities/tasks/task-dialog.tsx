// The task dialog: create, read, edit and delete one task. A lazy chunk of its own —
// the form validates with the contracts' zod schema, which stays out of the pages that open it.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { TaskCreateInput, TaskDto, TaskSaved } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatClock, formatDate, formatDay } from '../../lib/format-time';
import {
  mayEditTask,
  nameIn,
  useDeleteTaskMutation,
  useTaskDirectory,
  useTaskQuery,
  type TaskDirectory,
} from './tasks-api';
import { FormDialog } from '../../components/form-dialog';
import { buttonClass } from '../../components/form-field';
import { PageSpinner } from '../../components/spinner';
import { catalogue } from './task-dialog-i18n';
import { momentPath, TaskForm } from './task-form';

export interface TaskDialogProps {
  /** An existing task: read from the server (`initial` shows meanwhile). Left out: a new task. */
  taskId?: string;
  initial?: TaskDto;
  /** A new task's first values (a transcript's selection). */
  prefill?: Partial<TaskCreateInput>;
  onClose: () => void;
  /** The task as stored: `redacted` says what the company's redaction hid in it (the caller tells the person). */
  onSaved?: (task: TaskSaved, created: boolean) => void;
  onDeleted?: (task: TaskDto) => void;
}

const alert =
  'rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200';

export default function TaskDialog({
  taskId,
  initial,
  prefill = {},
  onClose,
  onSaved,
  onDeleted,
}: TaskDialogProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const directory = useTaskDirectory();
  const loaded = useTaskQuery(taskId ?? '', { skip: !taskId });
  const task = taskId ? (loaded.data ?? (initial?._id === taskId ? initial : undefined)) : undefined;
  const editable = task ? mayEditTask(task, directory.me) : true;
  const title = !taskId
    ? t('taskDialog.newTitle')
    : editable && task
      ? t('taskDialog.editTitle')
      : t('taskDialog.viewTitle');

  let body: ReactElement;
  if (taskId && !task) {
    body = loaded.isError ? (
      <p role="alert" className={alert} data-testid="task-dialog-error">
        {errorMessage(loaded.error) && (loaded.error as { status?: unknown }).status !== 404
          ? errorMessage(loaded.error)
          : t('taskDialog.notFound')}
      </p>
    ) : (
      <PageSpinner label={t('taskDialog.loading')} />
    );
  } else if (task && !editable) {
    body = <TaskDetails task={task} directory={directory} onClose={onClose} />;
  } else {
    body = (
      <TaskForm
        task={task ?? null}
        prefill={prefill}
        directory={directory}
        onCancel={onClose}
        onSaved={(saved, created) => {
          onSaved?.(saved, created);
          onClose();
        }}
        extraButtons={
          task ? (
            <DeleteTask
              task={task}
              onDeleted={(gone) => {
                onDeleted?.(gone);
                onClose();
              }}
            />
          ) : null
        }
      />
    );
  }
  return (
    <FormDialog title={title} onClose={onClose} testId="task-dialog" size="lg">
      {body}
    </FormDialog>
  );
}

/** Delete after a second click on the dialog's own question (a dialog over a dialog is one too many). */
function DeleteTask({ task, onDeleted }: { task: TaskDto; onDeleted: (task: TaskDto) => void }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [asking, setAsking] = useState(false);
  const [remove, removing] = useDeleteTaskMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    try {
      await remove(task._id).unwrap();
      onDeleted(task);
    } catch (error) {
      setFailure(errorMessage(error) ?? t('taskDialog.deleteFailed'));
      setAsking(false);
    }
  };
  if (!asking) {
    return (
      <div className="flex flex-col gap-2">
        {failure ? (
          <p role="alert" className={alert}>
            {failure}
          </p>
        ) : null}
        <button
          type="button"
          className={`${buttonClass.danger} self-start text-sm`}
          onClick={() => setAsking(true)}
          data-testid="task-delete"
        >
          {t('taskDialog.delete')}
        </button>
      </div>
    );
  }
  return (
    <div role="group" aria-label={t('taskDialog.confirmDelete')} className="flex flex-wrap items-center gap-2">
      <span className="text-sm text-gray-800 dark:text-gray-200">{t('taskDialog.confirmDelete')}</span>
      <button
        type="button"
        autoFocus
        className="rounded-lg bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60"
        disabled={removing.isLoading}
        onClick={() => void confirm()}
        data-testid="task-delete-yes"
      >
        {t('taskDialog.confirmYes')}
      </button>
      <button type="button" className={buttonClass.row} onClick={() => setAsking(false)}>
        {t('taskDialog.keep')}
      </button>
    </div>
  );
}

/** A task the caller may read but not change. */
function TaskDetails({
  task,
  directory,
  onClose,
}: {
  task: TaskDto;
  directory: TaskDirectory;
  onClose: () => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const none = t('taskDialog.none');
  const assignee =
    task.assigneeId === null
      ? t('taskDialog.nobody')
      : task.assigneeId === directory.me.id
        ? t('taskDialog.me')
        : (nameIn(directory.members, task.assigneeId) ?? t('taskDialog.colleague'));
  const client =
    task.clientId === null ? none : (nameIn(directory.clients, task.clientId) ?? t('taskDialog.callClient'));
  const rows: Array<[string, ReactElement | string]> = [
    [t('taskDialog.status'), t(`taskStatus.${task.status}`)],
    [t('taskDialog.assignee'), assignee],
    [t('taskDialog.dueDate'), task.dueDate ? formatDay(task.dueDate, i18n.language) : none],
    [t('taskDialog.client'), client],
  ];
  if (task.link)
    rows.push([
      t('taskDialog.link'),
      <Link
        key="link"
        to={momentPath(task.link)}
        className="font-medium text-brand-700 underline dark:text-brand-300"
        data-testid="task-link"
      >
        {t('taskDialog.linkAt', { time: formatClock(task.link.seconds) })}
      </Link>,
    ]);
  return (
    <div className="flex flex-col gap-4" data-testid="task-details">
      <p className="text-base font-semibold break-words">{task.title}</p>
      {task.description ? (
        <p className="text-sm whitespace-pre-wrap break-words text-gray-700 dark:text-gray-300">{task.description}</p>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-gray-600 dark:text-gray-400">{label}</dt>
            <dd className="text-gray-900 dark:text-gray-100">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-gray-600 dark:text-gray-400">
        {t('taskDialog.createdAt', { date: formatDate(task.createdAt, i18n.language) })} · {t('taskDialog.readOnly')}
      </p>
      <div className="flex justify-end">
        <button type="button" className={buttonClass.secondary} onClick={onClose}>
          {t('taskDialog.close')}
        </button>
      </div>
    </div>
  );
}
