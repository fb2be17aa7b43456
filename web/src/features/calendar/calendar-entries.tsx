// One recording or task on the calendar. A task the reader may edit can be dragged (its whole chip,
// by pointer) onto another day, and has a Move button: the keyboard's way to do the same.
import { useDraggable } from '@dnd-kit/core';
import { createContext, useContext, useMemo, type ReactElement, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { TASK_STATUSES } from '@earshot/contracts/constants';
import { Icon } from '../../components/icons';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { ENTRY_STYLE, type CalendarRecording, type CalendarTask } from './model';

export interface EntryActions {
  mayMove: (task: CalendarTask) => boolean;
  onMove: (task: CalendarTask) => void;
  /** True from a drag's start until just after its drop: the click a drop ends with is not a visit. */
  dragging: RefObject<boolean>;
}

export const EntryActionsContext = createContext<EntryActions | null>(null);

const chip = 'flex min-w-0 items-center gap-1.5 rounded-md border px-1.5 py-0.5 text-xs leading-5';

/**
 * `wrap` (week, day, agenda): the icon and the words flow as text, the whole title on as many
 * lines as it takes, the Move button in the corner; else (month) one line, the title cut short.
 */
const look = (wrap: boolean) =>
  wrap
    ? {
        box: 'relative block rounded-md border px-1.5 py-0.5 text-xs leading-5',
        link: 'block break-words',
        icon: 'mr-1 inline align-[-2px]',
        title: '',
        move: 'absolute top-0.5 right-0.5',
      }
    : // A month cell is narrow: there the Move button shows only when the keyboard reaches it (the mouse drags).
      {
        box: chip,
        link: 'flex min-w-0 flex-1 items-center gap-1.5',
        icon: 'shrink-0',
        title: 'truncate',
        move: 'sr-only shrink-0 focus-visible:not-sr-only',
      };

export function RecordingEntry({
  recording,
  showTime,
  wrap = false,
}: {
  recording: CalendarRecording;
  showTime: boolean;
  wrap?: boolean;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const time = useMemo(() => new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }), [i18n.language]);
  const css = look(wrap);
  return (
    <Link
      to={`/transcripts/${encodeURIComponent(recording.fileId)}`}
      className={`${css.box} ${wrap ? css.link : ''} ${ENTRY_STYLE.recording} hover:underline`}
      title={recording.originalName}
      data-testid="calendar-recording"
    >
      <Icon name="transcript" width={14} height={14} className={css.icon} />
      <span className="sr-only">{t('calendarPage.recording')}: </span>
      {showTime ? (
        <time dateTime={recording.date} className="mr-1 shrink-0 whitespace-nowrap tabular-nums opacity-80">
          {time.format(new Date(recording.date))}
        </time>
      ) : null}
      <span className={css.title}>{recording.originalName}</span>
    </Link>
  );
}

export function TaskEntry({ task, wrap = false }: { task: CalendarTask; wrap?: boolean }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const actions = useContext(EntryActionsContext);
  const movable = actions?.mayMove(task) ?? false;
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: task._id, data: { task }, disabled: !movable });
  const status = t(`calendarPage.status.${task.status}`);
  const css = look(wrap);
  return (
    <div
      ref={setNodeRef}
      className={`${css.box} ${ENTRY_STYLE[task.status]} ${isDragging ? 'opacity-40' : ''} ${movable ? 'cursor-grab touch-none' : ''}`}
      data-testid="calendar-task"
      data-task-id={task._id}
      data-movable={movable}
    >
      <Link
        to={`/task-list?task=${encodeURIComponent(task._id)}`}
        className={`${css.link} ${wrap && movable ? 'pr-5' : ''} hover:underline ${task.status === 'done' ? 'line-through decoration-1' : ''}`}
        title={`${task.title} (${status})`}
        onClick={(event) => {
          if (actions?.dragging.current) event.preventDefault();
        }}
        {...(movable ? listeners : {})}
      >
        <Icon name="task" width={14} height={14} className={css.icon} />
        <span className="sr-only">{t('calendarPage.taskOf', { status })}: </span>
        <span className={css.title}>{task.title}</span>
      </Link>
      {movable ? (
        <button
          type="button"
          onClick={() => actions?.onMove(task)}
          aria-label={t('calendarPage.moveOf', { title: task.title })}
          title={t('calendarPage.move')}
          className={`${css.move} rounded px-0.5 opacity-70 hover:bg-black/10 hover:opacity-100 focus-visible:opacity-100 dark:hover:bg-white/10`}
          data-testid="calendar-task-move"
        >
          <Icon name="calendar" width={14} height={14} />
        </button>
      ) : null}
    </div>
  );
}

/** What each colour means. */
export function Legend(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const items = [
    { key: 'recording', label: t('calendarPage.recording'), icon: 'transcript' as const },
    ...TASK_STATUSES.map((status) => ({
      key: status,
      label: t('calendarPage.taskOf', { status: t(`calendarPage.status.${status}`) }),
      icon: 'task' as const,
    })),
  ];
  return (
    <ul aria-label={t('calendarPage.legend')} className="flex flex-wrap gap-2" data-testid="calendar-legend">
      {items.map((item) => (
        <li key={item.key} className={`${chip} ${ENTRY_STYLE[item.key as keyof typeof ENTRY_STYLE]}`}>
          <Icon name={item.icon} width={14} height={14} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}
