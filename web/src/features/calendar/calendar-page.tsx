// /calendar: the company's recordings and tasks by month, week or day (`?view=&date=`, so a
// reload or a shared link keeps the place). Only the visible range is fetched. A task the reader
// may edit moves to another day by drag and drop or by its Move button; the move shows at once and
// goes back if the server refuses it.
import {
  DndContext,
  DragOverlay,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useCallback, useMemo, useRef, useState, type ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { buttonClass } from '../../components/form-field';
import { Icon } from '../../components/icons';
import { PageHeading } from '../../components/page-heading';
import { Spinner } from '../../components/spinner';
import { ToastRegion, useToasts } from '../../components/toast';
import { MOBILE_QUERY, useMediaQuery } from '../../components/use-media-query';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { withParams } from '../../lib/search-params';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { useCalendarQuery, useRescheduleTaskMutation } from './calendar-api';
import { EntryActionsContext, Legend, type EntryActions } from './calendar-entries';
import { CalendarToolbar } from './calendar-toolbar';
import { Agenda, DayColumns, MonthGrid } from './calendar-views';
import {
  CALENDAR_VIEWS,
  fetchRange,
  monthOf,
  parseDay,
  today as todayOf,
  visibleDays,
  type CalendarView,
} from './dates';
import { FeedDialog } from './feed-dialog';
import { catalogue } from './i18n';
import { ENTRY_STYLE, entriesByDay, mayMove, type CalendarTask } from './model';
import { MoveTaskDialog } from './move-task-dialog';

export default function CalendarPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const [params, setParams] = useSearchParams();
  const today = todayOf();
  const view: CalendarView = (CALENDAR_VIEWS as readonly string[]).includes(params.get('view') ?? '')
    ? (params.get('view') as CalendarView)
    : 'month';
  const anchor = parseDay(params.get('date')) ? params.get('date')! : today;
  const days = useMemo(() => visibleDays(view, anchor), [view, anchor]);
  const range = useMemo(() => fetchRange(days), [days]);
  const calendar = useCalendarQuery(range);
  const entries = useMemo(() => entriesByDay(calendar.data), [calendar.data]);
  const phone = useMediaQuery(MOBILE_QUERY);

  const user = useAppSelector((state) => state.session.user);
  const me = useMemo(() => ({ id: user?._id, role: roleOf(user) }), [user]);
  const [reschedule] = useRescheduleTaskMutation();
  const { toasts, show, dismiss } = useToasts();
  const [moving, setMoving] = useState<CalendarTask | null>(null);
  const [dragged, setDragged] = useState<CalendarTask | null>(null);
  const [feedOpen, setFeedOpen] = useState(false);
  const dragging = useRef(false);

  const go = useCallback(
    (changes: { view?: CalendarView; date?: string }) => setParams(withParams(params, changes)),
    [params, setParams],
  );
  const openDay = useCallback((day: string) => go({ view: 'day', date: day }), [go]);

  const move = useCallback(
    async (task: CalendarTask, day: string) => {
      setMoving(null);
      if (day === task.due) return;
      try {
        await reschedule({ id: task._id, dueDate: day, range }).unwrap();
        const label = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
          new Date(`${day}T00:00:00Z`),
        );
        show({ kind: 'success', title: t('calendarPage.moved', { day: label }) });
      } catch (error) {
        show({ kind: 'error', title: t('calendarPage.moveFailed'), detail: errorMessage(error) });
      }
    },
    [reschedule, range, show, t, i18n.language],
  );

  const actions = useMemo(
    (): EntryActions => ({ mayMove: (task) => mayMove(task, me), onMove: setMoving, dragging }),
    [me],
  );
  // A small move first, so that a click on a task still opens it. The day under the pointer is
  // the one dropped on (not the one the dragged chip overlaps most, which a wide chip can disagree with).
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const onDragStart = (event: DragStartEvent) => {
    dragging.current = true;
    setDragged((event.active.data.current as { task: CalendarTask } | undefined)?.task ?? null);
  };
  const onDragEnd = (event: DragEndEvent) => {
    const task = (event.active.data.current as { task: CalendarTask } | undefined)?.task;
    setDragged(null);
    // The click that ends a drag comes right after this handler; let it pass first.
    setTimeout(() => {
      dragging.current = false;
    }, 0);
    if (task && event.over) void move(task, String(event.over.id));
  };

  const nothing = calendar.isSuccess && entries.size === 0;
  const viewProps = { days, entries, today, onOpenDay: openDay };
  return (
    <section aria-labelledby="page-heading" className="min-w-0">
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('calendarPage.close')} />
      <PageHeading>{t('pages.calendar')}</PageHeading>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-2xl text-sm text-gray-700 dark:text-gray-300">
          {t('calendarPage.intro')} {t('calendarPage.dragHint')}
        </p>
        <button
          type="button"
          onClick={() => setFeedOpen(true)}
          className={`${buttonClass.secondary} inline-flex items-center gap-2`}
          data-testid="calendar-feed-open"
        >
          <Icon name="calendar" width={16} height={16} />
          {t('calendarPage.feed.open')}
        </button>
      </div>
      <CalendarToolbar view={view} anchor={anchor} days={days} today={today} onGo={go} />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <Legend />
        {calendar.isFetching ? <Spinner label={t('calendarPage.loading')} className="scale-75" /> : null}
      </div>
      {calendar.isError ? (
        <div
          role="alert"
          className="mb-3 flex flex-wrap items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
          data-testid="calendar-error"
        >
          {errorMessage(calendar.error) ?? t('calendarPage.error')}
          <button type="button" onClick={() => void calendar.refetch()} className={buttonClass.secondary}>
            {t('calendarPage.retry')}
          </button>
        </div>
      ) : null}
      {nothing && !(view === 'month' && phone) ? (
        <p className="mb-3 text-sm text-gray-600 dark:text-gray-400" data-testid="calendar-empty">
          {t('calendarPage.empty')}
        </p>
      ) : null}
      <EntryActionsContext.Provider value={actions}>
        <DndContext
          sensors={sensors}
          collisionDetection={pointerWithin}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => {
            setDragged(null);
            dragging.current = false;
          }}
        >
          <div aria-busy={calendar.isLoading} data-testid="calendar-body" data-from={range.from} data-to={range.to}>
            {view === 'month' ? (
              phone ? (
                <Agenda {...viewProps} month={monthOf(anchor)} />
              ) : (
                <MonthGrid {...viewProps} month={monthOf(anchor)} />
              )
            ) : (
              <DayColumns {...viewProps} />
            )}
          </div>
          <DragOverlay dropAnimation={null}>
            {dragged ? (
              <div className={`rounded-md border px-2 py-0.5 text-xs shadow-lg ${ENTRY_STYLE[dragged.status]}`}>
                {dragged.title}
              </div>
            ) : null}
          </DragOverlay>
        </DndContext>
      </EntryActionsContext.Provider>
      {moving ? (
        <MoveTaskDialog task={moving} onClose={() => setMoving(null)} onMove={(day) => void move(moving, day)} />
      ) : null}
      {feedOpen ? <FeedDialog onClose={() => setFeedOpen(false)} /> : null}
    </section>
  );
}
