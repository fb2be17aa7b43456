// The task dialog's form: the contracts' TaskCreateBody validates it (blank pickers become null,
// the API's "none"); an edit sends only the fields that changed (PUT is partial). The server's
// answer about a field is shown at that field.
import { useState, type ReactElement } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link } from 'react-router-dom';
import {
  TaskCreateBody,
  type TaskCreateInput,
  type TaskDto,
  type TaskLink,
  type TaskSaved,
  type TaskUpdateBody,
} from '@earshot/contracts';
import { TASK_LIMITS, TASK_STATUSES, type TaskStatus } from '@earshot/contracts/constants';
import { useFeatureTranslation } from '../../i18n/feature';
import { formErrorsOf } from '../../lib/form-errors';
import { formMessages } from '../../lib/form-messages';
import { formatClock } from '../../lib/format-time';
import { useCreateTaskMutation, useUpdateTaskMutation, type TaskDirectory } from './tasks-api';
import { DialogButtons } from '../../components/form-dialog';
import { buttonClass, FormField } from '../../components/form-field';
import { catalogue } from './task-dialog-i18n';

const FIELDS = ['title', 'description', 'status', 'assigneeId', 'dueDate', 'clientId', 'link'] as const;
type Field = (typeof FIELDS)[number];

interface TaskFormInput {
  title: string;
  description: string;
  status: TaskStatus;
  assigneeId: string;
  dueDate: string;
  clientId: string;
  link: TaskLink | null;
}

const TaskFormSchema = z.preprocess(
  (input: TaskFormInput) => ({
    ...input,
    assigneeId: input.assigneeId || null,
    dueDate: input.dueDate || null,
    clientId: input.clientId || null,
  }),
  TaskCreateBody,
);

function formValues(task: TaskDto | null, prefill: Partial<TaskCreateInput>): TaskFormInput {
  const source = task ?? prefill;
  return {
    title: source.title ?? '',
    description: source.description ?? '',
    status: source.status ?? 'todo',
    assigneeId: source.assigneeId ?? '',
    dueDate: source.dueDate ?? '',
    clientId: source.clientId ?? '',
    link: source.link ?? null,
  };
}

/** The fields of `body` that differ from the task's. */
export function changedFields(task: TaskDto, body: TaskCreateBody): TaskUpdateBody {
  const changes: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (JSON.stringify(body[field] ?? null) !== JSON.stringify(task[field] ?? null)) changes[field] = body[field];
  }
  return changes as TaskUpdateBody;
}

/** Which field a refusal without `details` is about, from its words (e.g. "Assignee is not a member"). */
function fieldOfMessage(message: string): Field | null {
  if (/assignee|member/i.test(message)) return 'assigneeId';
  if (/client/i.test(message)) return 'clientId';
  if (/due/i.test(message)) return 'dueDate';
  if (/recording|file|link/i.test(message)) return 'link';
  return null;
}

/** Create (no `task`) or edit a task. */
export function TaskForm({
  task,
  prefill,
  directory,
  onSaved,
  onCancel,
  extraButtons,
}: {
  task: TaskDto | null;
  prefill: Partial<TaskCreateInput>;
  directory: TaskDirectory;
  /** The task as stored: `redacted` says what the company's redaction hid in it. */
  onSaved: (task: TaskSaved, created: boolean) => void;
  onCancel: () => void;
  extraButtons?: ReactElement | null;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [create, creating] = useCreateTaskMutation();
  const [update, updating] = useUpdateTaskMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors },
  } = useForm<TaskFormInput, unknown, TaskCreateBody>({
    resolver: zodResolver(TaskFormSchema, formMessages(t)),
    defaultValues: formValues(task, prefill),
  });
  const link = watch('link');
  const assigneeId = watch('assigneeId');
  const clientId = watch('clientId');
  const { me, members, clients } = directory;

  const submit = async (body: TaskCreateBody) => {
    setFailure(null);
    try {
      if (!task) onSaved(await create(body).unwrap(), true);
      else {
        const changes = changedFields(task, body);
        onSaved(Object.keys(changes).length > 0 ? await update({ id: task._id, body: changes }).unwrap() : task, false);
      }
    } catch (error) {
      const found = formErrorsOf(error, fieldOfMessage);
      for (const [field, message] of Object.entries(found.fields)) {
        if ((FIELDS as readonly string[]).includes(field)) setError(field as Field, { type: 'server', message });
      }
      const placed = Object.keys(found.fields).some((field) => (FIELDS as readonly string[]).includes(field));
      if (!placed) setFailure(found.message ?? t('taskDialog.failed'));
    }
  };

  // The current assignee or client stays choosable when the pickers do not list it.
  // The caller is "Me" among the company's people (and the only choice while the list is unknown).
  const memberChoices = (members ?? (me.id ? [{ _id: me.id, name: '' }] : [])).map((member) =>
    member._id === me.id ? { ...member, name: t('taskDialog.me') } : member,
  );
  const assigneeUnlisted = assigneeId && !memberChoices.some((member) => member._id === assigneeId);
  const clientUnlisted = clientId && clients && !clients.some((client) => client._id === clientId);

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
      data-testid="task-form"
    >
      {failure ? (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
          data-testid="task-form-error"
        >
          {failure}
        </p>
      ) : null}
      <FormField label={t('taskDialog.title')} error={errors.title?.message}>
        <input type="text" autoComplete="off" maxLength={TASK_LIMITS.titleMax} {...register('title')} />
      </FormField>
      <FormField label={t('taskDialog.description')} error={errors.description?.message}>
        <textarea rows={3} maxLength={TASK_LIMITS.descriptionMax} {...register('description')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t('taskDialog.status')} error={errors.status?.message}>
          <select {...register('status')}>
            {TASK_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`taskStatus.${status}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label={t('taskDialog.assignee')} error={errors.assigneeId?.message}>
          <select {...register('assigneeId')}>
            <option value="">{t('taskDialog.nobody')}</option>
            {memberChoices.map((member) => (
              <option key={member._id} value={member._id}>
                {member.name}
              </option>
            ))}
            {assigneeUnlisted ? <option value={assigneeId}>{t('taskDialog.colleague')}</option> : null}
          </select>
        </FormField>
        <FormField label={t('taskDialog.dueDate')} error={errors.dueDate?.message}>
          <input type="date" {...register('dueDate')} />
        </FormField>
        {clients ? (
          <FormField label={t('taskDialog.client')} error={errors.clientId?.message}>
            <select {...register('clientId')}>
              <option value="">{t('taskDialog.noClient')}</option>
              {clients.map((client) => (
                <option key={client._id} value={client._id}>
                  {client.name}
                </option>
              ))}
              {clientUnlisted ? <option value={clientId}>{t('taskDialog.callClient')}</option> : null}
            </select>
          </FormField>
        ) : clientId ? (
          <p className="self-end text-sm text-gray-600 dark:text-gray-400" data-testid="task-client-fixed">
            {t('taskDialog.client')}: {t('taskDialog.callClient')}
          </p>
        ) : null}
      </div>
      {link ? (
        <div>
          <p className="mb-1.5 text-sm font-medium text-gray-700 dark:text-gray-300">{t('taskDialog.link')}</p>
          <div className="flex flex-wrap items-center gap-3">
            <Link
              to={momentPath(link)}
              className="text-sm font-medium text-brand-700 underline hover:text-brand-800 dark:text-brand-300"
              data-testid="task-link"
            >
              {t('taskDialog.linkAt', { time: formatClock(link.seconds) })}
            </Link>
            <button
              type="button"
              className={buttonClass.row}
              onClick={() => setValue('link', null, { shouldDirty: true })}
            >
              {t('taskDialog.removeLink')}
            </button>
          </div>
          {errors.link?.message ? (
            <p role="alert" className="mt-1.5 text-xs text-red-700 dark:text-red-300" data-testid="field-error">
              {errors.link.message}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-3">
        {extraButtons ?? <span />}
        <DialogButtons
          cancelLabel={t('taskDialog.cancel')}
          submitLabel={task ? t('taskDialog.save') : t('taskDialog.create')}
          busy={creating.isLoading || updating.isLoading}
          onCancel={onCancel}
        />
      </div>
    </form>
  );
}

/** The viewer's address of a task's moment (`?t=` in seconds, as the viewer reads it). */
export function momentPath(link: TaskLink): string {
  return `/transcripts/${encodeURIComponent(link.fileId)}?t=${Math.max(0, Math.floor(link.seconds * 10) / 10)}`;
}
