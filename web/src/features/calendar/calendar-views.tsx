// The month grid, the week's and the day's columns, and the agenda a phone gets instead of the
// month grid (seven columns of 50 px hold no titles). Every day is a drop target for a task.
import { useDroppable } from '@dnd-kit/core';
import { useMemo, type ReactElement, type ReactNode } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { RecordingEntry, TaskEntry } from './calendar-entries';
import { monthOf } from './dates';
import { catalogue } from './i18n';
import { EMPTY_DAY, type DayEntries } from './model';

/** Entries a month cell shows before "+N more". */
const MONTH_CELL_ENTRIES = 3;

interface ViewProps {
  days: string[];
  entries: Map<string, DayEntries>;
  today: string;
  onOpenDay: (day: string) => void;
}

function useDayFormats() {
  const { i18n } = useFeatureTranslation(catalogue);
  // Day keys are UTC midnights (dates.ts): formatted in UTC they name the same day everywhere.
  return useMemo(
    () => ({
      weekday: new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }),
      long: new Intl.DateTimeFormat(i18n.language, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }),
      short: new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    }),
    [i18n.language],
  );
}

const at = (day: string) => new Date(`${day}T00:00:00Z`);

function DayDrop({
  day,
  className,
  children,
  label,
}: {
  day: string;
  className: string;
  children: ReactNode;
  label: string;
}): ReactElement {
  const { setNodeRef, isOver } = useDroppable({ id: day });
  return (
    <div
      ref={setNodeRef}
      role="group"
      aria-label={label}
      data-day={day}
      data-testid="calendar-day"
      className={`${className} ${isOver ? 'ring-2 ring-brand-500 ring-inset' : ''}`}
    >
      {children}
    </div>
  );
}

function Entries({
  entries,
  limit,
  showTime,
}: {
  entries: DayEntries;
  limit?: number;
  showTime: boolean;
}): ReactElement {
  // The month cuts titles to one line; the week, the day and the agenda show them whole.
  const wrap = limit === undefined;
  const all = [
    ...entries.tasks.map((task) => <TaskEntry key={`t${task._id}`} task={task} wrap={wrap} />),
    ...entries.recordings.map((recording) => (
      <RecordingEntry key={`r${recording.fileId}`} recording={recording} showTime={showTime} wrap={wrap} />
    )),
  ];
  return <div className="flex min-w-0 flex-col gap-1">{limit === undefined ? all : all.slice(0, limit)}</div>;
}

const dayNumber = (day: string, today: string, outside = false) => {
  const look =
    day === today
      ? 'font-semibold bg-brand-600 text-on-brand'
      : outside
        ? 'text-gray-500 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-gray-800'
        : 'font-semibold text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800';
  return `inline-flex size-7 items-center justify-center rounded-full text-xs ${look}`;
};

export function MonthGrid({ days, entries, today, onOpenDay, month }: ViewProps & { month: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const format = useDayFormats();
  return (
    <div
      className="overflow-hidden rounded-xl border border-gray-200 dark:border-gray-800"
      data-testid="calendar-month"
    >
      <div
        className="grid grid-cols-7 border-b border-gray-200 bg-gray-50 text-xs font-medium text-gray-600 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-400"
        aria-hidden="true"
      >
        {days.slice(0, 7).map((day) => (
          <div key={day} className="px-2 py-2">
            {format.weekday.format(at(day))}
          </div>
        ))}
      </div>
      <div className="grid grid-cols-7">
        {days.map((day) => {
          const dayEntries = entries.get(day) ?? EMPTY_DAY;
          const count = dayEntries.tasks.length + dayEntries.recordings.length;
          const outside = monthOf(day) !== month;
          return (
            <DayDrop
              key={day}
              day={day}
              label={format.long.format(at(day))}
              className={`min-h-28 min-w-0 border-r border-b border-gray-200 p-1.5 dark:border-gray-800 ${outside ? 'bg-gray-50/70 dark:bg-gray-950' : 'bg-white dark:bg-gray-900'}`}
            >
              <button
                type="button"
                onClick={() => onOpenDay(day)}
                className={dayNumber(day, today, outside)}
                aria-label={format.long.format(at(day))}
                aria-current={day === today ? 'date' : undefined}
              >
                {Number(day.slice(8))}
              </button>
              <Entries entries={dayEntries} limit={MONTH_CELL_ENTRIES} showTime={false} />
              {count > MONTH_CELL_ENTRIES ? (
                <button
                  type="button"
                  onClick={() => onOpenDay(day)}
                  className="mt-1 text-xs font-medium text-brand-700 hover:underline dark:text-brand-300"
                  aria-label={t('calendarPage.moreOn', {
                    count: count - MONTH_CELL_ENTRIES,
                    day: format.long.format(at(day)),
                  })}
                  data-testid="calendar-more"
                >
                  {t('calendarPage.more', { count: count - MONTH_CELL_ENTRIES })}
                </button>
              ) : null}
            </DayDrop>
          );
        })}
      </div>
    </div>
  );
}

/** The week (seven columns from 1024 px, one under the other below) or a single day. */
export function DayColumns({ days, entries, today, onOpenDay }: ViewProps): ReactElement {
  const format = useDayFormats();
  const single = days.length === 1;
  return (
    <div
      className={`grid gap-2 ${single ? '' : 'lg:grid-cols-7'}`}
      data-testid={single ? 'calendar-day-view' : 'calendar-week'}
    >
      {days.map((day) => (
        <DayDrop
          key={day}
          day={day}
          label={format.long.format(at(day))}
          className={`flex min-w-0 flex-col gap-2 rounded-xl border border-gray-200 bg-white p-2 dark:border-gray-800 dark:bg-gray-900 ${single ? 'min-h-64' : 'lg:min-h-96'}`}
        >
          <h2 className="flex items-center gap-2 text-sm font-medium text-gray-700 dark:text-gray-300">
            {single ? (
              format.long.format(at(day))
            ) : (
              <>
                <button
                  type="button"
                  onClick={() => onOpenDay(day)}
                  className={dayNumber(day, today)}
                  aria-label={format.long.format(at(day))}
                  aria-current={day === today ? 'date' : undefined}
                >
                  {Number(day.slice(8))}
                </button>
                <span aria-hidden="true">{format.weekday.format(at(day))}</span>
              </>
            )}
          </h2>
          <Entries entries={entries.get(day) ?? EMPTY_DAY} showTime />
        </DayDrop>
      ))}
    </div>
  );
}

/** A month on a phone: only the days with something on them, as a list. */
export function Agenda({ days, entries, today, onOpenDay, month }: ViewProps & { month: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const format = useDayFormats();
  const busy = days.filter((day) => monthOf(day) === month && entries.has(day));
  if (busy.length === 0)
    return (
      <p
        className="rounded-xl border border-dashed border-gray-300 p-6 text-center text-sm text-gray-600 dark:border-gray-700 dark:text-gray-400"
        data-testid="calendar-agenda-empty"
      >
        {t('calendarPage.empty')}
      </p>
    );
  return (
    <div className="flex flex-col gap-2" data-testid="calendar-agenda">
      {busy.map((day) => (
        <DayDrop
          key={day}
          day={day}
          label={format.long.format(at(day))}
          className="rounded-xl border border-gray-200 bg-white p-2 dark:border-gray-800 dark:bg-gray-900"
        >
          <h2 className="mb-1.5 flex items-center gap-2 text-sm font-medium text-gray-700 dark:text-gray-300">
            <button
              type="button"
              onClick={() => onOpenDay(day)}
              className={dayNumber(day, today)}
              aria-label={format.long.format(at(day))}
              aria-current={day === today ? 'date' : undefined}
            >
              {Number(day.slice(8))}
            </button>
            <span aria-hidden="true">{format.long.format(at(day))}</span>
          </h2>
          <Entries entries={entries.get(day) ?? EMPTY_DAY} showTime />
        </DayDrop>
      ))}
    </div>
  );
}
