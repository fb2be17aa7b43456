import { useMemo, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import type { ClientDetailDto, TaskDto } from '@earshot/contracts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatClock, formatDateTime, formatDay } from '../../lib/format-time';
import { catalogue as timelineCatalogue } from './client-timeline-i18n';
import { catalogue } from './i18n';
import { formatDuration } from './model';
import { timelineEntries, type TimelineEntry } from './timeline-entries';

const STATUS_TONE: Record<TaskDto['status'], string> = {
  todo: 'bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-200',
  in_progress: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  done: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
};
const DOT = { created: 'bg-gray-400', updated: 'bg-gray-400', call: 'bg-brand-500', task: 'bg-amber-500' } as const;
const link = 'font-medium break-words text-brand-700 hover:underline dark:text-brand-300';

function EntryText({ entry }: { entry: TimelineEntry }): ReactElement {
  const { t, i18n } = useFeatureTranslation(timelineCatalogue, catalogue);
  if (entry.kind === 'created') return <>{t('clients.profile.created')}</>;
  if (entry.kind === 'updated') return <>{t('clients.profile.updated')}</>;
  if (entry.kind === 'call') {
    return (
      <>
        <span className="text-xs font-semibold text-gray-500 uppercase dark:text-gray-400">
          {t('clientTimeline.call')}{' '}
        </span>
        <Link to={`/transcripts/${encodeURIComponent(entry.fileId)}`} className={link}>
          {entry.name ?? t('clients.profile.unnamed')}
        </Link>
        <span className="block text-xs text-gray-500 dark:text-gray-400">
          {entry.seconds === null
            ? t(`clientTimeline.recording.${entry.status}`, { defaultValue: entry.status })
            : formatDuration(entry.seconds)}
        </span>
      </>
    );
  }
  const { task } = entry;
  const due = task.dueDate ? formatDay(task.dueDate, i18n.language) : null;
  return (
    <>
      <span className="text-xs font-semibold text-gray-500 uppercase dark:text-gray-400">
        {t('clientTimeline.task')}{' '}
      </span>
      {/* A task's title is plain text, never HTML. */}
      <span className="break-words">{task.title}</span>
      <span className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-gray-500 dark:text-gray-400">
        <span
          className={`rounded-full px-2 py-0.5 font-medium ${STATUS_TONE[task.status]}`}
          data-testid="timeline-task-status"
        >
          {t(`clientTimeline.status.${task.status}`)}
        </span>
        {due ? <span>{t('clientTimeline.due', { date: due })}</span> : null}
        {task.link ? (
          <Link to={`/transcripts/${encodeURIComponent(task.link.fileId)}?t=${task.link.seconds}`} className={link}>
            {t('clientTimeline.atMoment', { time: formatClock(task.link.seconds) })}
          </Link>
        ) : null}
      </span>
    </>
  );
}

/**
 * What happened with the client, newest first: its calls and tasks, when it was added and when its
 * details last changed (the audit log has every edit, but only platform administrators read it).
 * `tasks` is null while they load or when the caller cannot read them (a HOST_ADMIN has no company).
 */
export function ClientTimeline({
  client,
  tasks,
  tasksError,
}: {
  client: ClientDetailDto;
  tasks: TaskDto[] | null;
  tasksError?: unknown;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(timelineCatalogue, catalogue);
  const entries = useMemo(() => timelineEntries(client, tasks ?? []), [client, tasks]);
  return (
    <>
      {tasksError ? (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-300">
          {errorMessage(tasksError) ?? t('clientTimeline.tasksFailed')}
        </p>
      ) : null}
      <ol
        className="relative ml-2 border-l border-gray-200 dark:border-gray-700"
        aria-label={t('clientTimeline.label')}
        data-testid="client-timeline"
      >
        {entries.map((entry) => (
          <li key={entry.key} className="mb-4 ml-4" data-kind={entry.kind} data-testid="timeline-entry">
            <span
              aria-hidden="true"
              className={`absolute -left-1.5 mt-1.5 size-3 rounded-full border border-white dark:border-gray-900 ${DOT[entry.kind]}`}
            />
            <time dateTime={entry.at} className="block text-xs text-gray-500 dark:text-gray-400">
              {formatDateTime(entry.at, i18n.language)}
            </time>
            <p className="text-sm text-gray-800 dark:text-gray-200">
              <EntryText entry={entry} />
            </p>
          </li>
        ))}
      </ol>
    </>
  );
}
