// A completed "Action items" run's proposed tasks: the person ticks which to keep and "Create
// tasks" makes them (POST /tasks/from-run/{runId} with the ticked indexes). An item already made
// into a task shows as done with a link to it.
import { useMemo, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { ActionItem, TaskDto } from '@earshot/contracts';
import { buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format-time';
import { useTasksFromRunMutation, useTasksInfiniteQuery } from '../tasks';
import type { AnalysisRun } from './analysis-model';
import { catalogue } from './transcript-tasks-i18n';

const NO_TASKS: TaskDto[] = [];

/**
 * Which items are tasks already: those made here (the answer of the POST, by index), and — after a
 * reload — the recording's tasks whose source is this run's item.
 */
export function tasksOfItems(
  runId: string,
  items: readonly ActionItem[],
  recordingTasks: readonly TaskDto[],
  made: ReadonlyMap<number, TaskDto>,
): Map<number, TaskDto> {
  const done = new Map(made);
  for (const task of recordingTasks) {
    const item = task.source?.runId === runId ? task.source.item : undefined;
    if (item !== undefined && item < items.length && !done.has(item)) done.set(item, task);
  }
  return done;
}

export function ActionItemsPanel({ run, language }: { run: AnalysisRun; language: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const items = useMemo(() => run.actionItems ?? [], [run.actionItems]);
  const linked = useTasksInfiniteQuery({ fileId: run.fileId });
  const recordingTasks = useMemo(() => linked.data?.pages.flatMap((page) => page.items) ?? NO_TASKS, [linked.data]);
  const [made, setMade] = useState<Map<number, TaskDto>>(() => new Map());
  const done = useMemo(
    () => tasksOfItems(run._id, items, recordingTasks, made),
    [run._id, items, recordingTasks, made],
  );
  const open = items.map((_item, index) => index).filter((index) => !done.has(index));
  // Every open item starts ticked: keeping what the call agreed is the usual case (two clicks).
  const [unticked, setUnticked] = useState<Set<number>>(() => new Set());
  const ticked = open.filter((index) => !unticked.has(index));
  const [create, creating] = useTasksFromRunMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [createdNow, setCreatedNow] = useState<TaskDto[]>([]);

  const toggle = (index: number, on: boolean) =>
    setUnticked((current) => {
      const next = new Set(current);
      if (on) next.delete(index);
      else next.add(index);
      return next;
    });

  const submit = async () => {
    setFailure(null);
    const asked = [...ticked].sort((a, b) => a - b);
    try {
      const { items: tasks } = await create({ runId: run._id, items: asked }).unwrap();
      setMade((current) => {
        const next = new Map(current);
        asked.forEach((index, position) => {
          const task = tasks[position];
          if (task) next.set(index, task);
        });
        return next;
      });
      setCreatedNow(tasks);
    } catch (error) {
      setFailure(errorMessage(error) ?? t('actionItems.failed'));
    }
  };

  if (items.length === 0)
    return (
      <p className="mt-3 text-sm text-gray-600 dark:text-gray-400" data-testid="action-items-none">
        {t('actionItems.none')}
      </p>
    );
  return (
    <section className="mt-3" aria-labelledby={`action-items-${run._id}`} data-testid="action-items">
      <h4 id={`action-items-${run._id}`} className="text-sm font-semibold text-gray-900 dark:text-white">
        {t('actionItems.title')}
      </h4>
      {open.length > 0 ? (
        <p className="mb-2 text-xs text-gray-600 dark:text-gray-400">{t('actionItems.hint')}</p>
      ) : null}
      <ul className="flex flex-col gap-2">
        {items.map((item, index) => {
          const task = done.get(index);
          const details = [
            item.owner ? t('actionItems.owner', { name: item.owner }) : null,
            item.due ? t('actionItems.due', { date: formatDate(`${item.due}T00:00:00Z`, language, 'UTC') }) : null,
          ]
            .filter(Boolean)
            .join(' · ');
          return (
            // The run's items never change order; the index is what the API takes.
            <li
              key={index}
              className="flex items-start gap-3 rounded-lg border border-gray-200 px-3 py-2 dark:border-gray-800"
              data-testid="action-item"
              data-done={task ? 'true' : 'false'}
            >
              {task ? (
                <span aria-hidden="true" className="mt-0.5 text-green-700 dark:text-green-400">
                  ✓
                </span>
              ) : (
                <input
                  id={`action-item-${run._id}-${index}`}
                  type="checkbox"
                  className="mt-1 size-4 accent-brand-600"
                  checked={!unticked.has(index)}
                  onChange={(event) => toggle(index, event.target.checked)}
                  data-testid="action-item-check"
                />
              )}
              <div className="min-w-0 flex-1">
                <label
                  htmlFor={task ? undefined : `action-item-${run._id}-${index}`}
                  className={`block text-sm break-words ${task ? 'text-gray-600 dark:text-gray-400' : 'text-gray-900 dark:text-gray-100'}`}
                >
                  {item.title}
                </label>
                {details ? <p className="text-xs text-gray-600 dark:text-gray-400">{details}</p> : null}
              </div>
              {task ? (
                <span className="flex flex-col items-end gap-0.5 text-xs">
                  <span className="rounded-full bg-green-100 px-2 py-0.5 font-medium text-green-800 dark:bg-green-900/40 dark:text-green-200">
                    {t('actionItems.done')}
                  </span>
                  <Link
                    to={`/task-list?task=${encodeURIComponent(task._id)}`}
                    className="font-medium text-brand-700 underline dark:text-brand-300"
                    data-testid="action-item-task"
                  >
                    {t('actionItems.openTask')}
                  </Link>
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {failure ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300" data-testid="action-items-error">
          {failure}
        </p>
      ) : null}
      {createdNow.length > 0 ? (
        <p role="status" className="mt-2 text-sm text-green-800 dark:text-green-300" data-testid="action-items-created">
          {t('actionItems.created', { count: createdNow.length })}
        </p>
      ) : null}
      {open.length > 0 ? (
        <button
          type="button"
          className={`${buttonClass.primary} mt-3`}
          disabled={ticked.length === 0 || creating.isLoading}
          onClick={() => void submit()}
          data-testid="action-items-create"
        >
          {creating.isLoading ? t('actionItems.creating') : t('actionItems.create')}
        </button>
      ) : null}
    </section>
  );
}
