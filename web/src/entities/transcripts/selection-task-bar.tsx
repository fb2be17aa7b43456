// "Make a task" of the words selected in the viewer (Shift+click): the task dialog opens with the
// words as its title, a link to the first word's moment, and the call's client.
import { Suspense, useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { TaskCreateInput, TaskSaved } from '@earshot/contracts';
import { TASK_LIMITS } from '@earshot/contracts/constants';
import { buttonClass } from '../../components/form-field';
import { RedactedNotice } from '../../components/redacted-notice';
import { useFeatureTranslation } from '../../i18n/feature';
import { TaskDialog, useMayCreateTasks } from '../tasks';
import type { Segment } from './model';
import type { WordSelection } from './word-selection';
import { catalogue } from './transcript-tasks-i18n';

/** The new task's first values from the selected run of words (null when it selects nothing). */
export function selectionTask(
  fileId: string,
  clientId: string | null,
  segments: readonly Segment[],
  selection: WordSelection | null,
): Partial<TaskCreateInput> | null {
  const segment = selection ? segments.find((item) => item._id === selection.segmentId) : undefined;
  if (!segment || !selection) return null;
  const words = segment.words.slice(selection.from, selection.to + 1);
  const first = words[0];
  if (!first) return null;
  const title = words
    .map((word) => word.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, TASK_LIMITS.titleMax)
    .trim();
  return { title, link: { fileId, seconds: first.start }, clientId };
}

export function SelectionTaskBar({
  fileId,
  clientId,
  segments,
  selection,
  onClear,
}: {
  fileId: string;
  clientId: string | null;
  segments: readonly Segment[];
  selection: WordSelection | null;
  onClear: () => void;
}): ReactElement | null {
  const { t } = useFeatureTranslation(catalogue);
  const [prefill, setPrefill] = useState<Partial<TaskCreateInput> | null>(null);
  const [created, setCreated] = useState<TaskSaved | null>(null);
  const mayCreate = useMayCreateTasks();
  const task = mayCreate ? selectionTask(fileId, clientId, segments, selection) : null;
  const count = selection ? selection.to - selection.from + 1 : 0;
  if (!task && !prefill && !created) return null;
  return (
    <>
      {task ? (
        <div
          role="toolbar"
          aria-label={t('selectionTask.label')}
          className="sticky top-2 z-30 mb-3 flex flex-wrap items-center gap-2 rounded-xl border border-brand-200 bg-brand-50 px-3 py-2 text-sm shadow-sm dark:border-brand-800 dark:bg-gray-900"
          data-testid="selection-bar"
        >
          <span className="mr-auto text-gray-800 dark:text-gray-200">{t('selectionTask.count', { count })}</span>
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => setPrefill(task)}
            data-testid="make-task"
          >
            {t('selectionTask.make')}
          </button>
          <button type="button" className={buttonClass.secondary} onClick={onClear}>
            {t('selectionTask.clear')}
          </button>
        </div>
      ) : null}
      {created ? (
        <p
          role="status"
          className="mb-3 rounded-xl border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100"
          data-testid="selection-task-created"
        >
          {t('selectionTask.created')} <span className="font-medium">{created.title}</span>{' '}
          <Link to={`/task-list?task=${encodeURIComponent(created._id)}`} className="font-medium underline">
            {t('selectionTask.open')}
          </Link>
          <RedactedNotice redacted={created.redacted} />
        </p>
      ) : null}
      {prefill ? (
        <Suspense fallback={null}>
          <TaskDialog
            prefill={prefill}
            onClose={() => setPrefill(null)}
            onSaved={(saved) => {
              setCreated(saved);
              onClear();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
