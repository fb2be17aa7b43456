// Previous, today, next, the period's name and the view switcher.
import { useMemo, type ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { CALENDAR_VIEWS, step, type CalendarView } from './dates';
import { catalogue } from './i18n';

const navButton =
  'rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

export function CalendarToolbar({
  view,
  anchor,
  days,
  today,
  onGo,
}: {
  view: CalendarView;
  anchor: string;
  days: string[];
  today: string;
  onGo: (changes: { view?: CalendarView; date?: string }) => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const title = useMemo(() => {
    const utc = (day: string) => new Date(`${day}T00:00:00Z`);
    if (view === 'month')
      return new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        utc(anchor),
      );
    if (view === 'day')
      return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeZone: 'UTC' }).format(utc(anchor));
    return new Intl.DateTimeFormat(i18n.language, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }).formatRange(utc(days[0]!), utc(days[days.length - 1]!));
  }, [view, anchor, days, i18n.language]);
  return (
    <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
      <div className="flex items-center gap-1">
        <button
          type="button"
          onClick={() => onGo({ date: step(view, anchor, -1) })}
          className={navButton}
          aria-label={t('calendarPage.previous')}
          data-testid="calendar-prev"
        >
          ‹
        </button>
        <button type="button" onClick={() => onGo({ date: today })} className={navButton} data-testid="calendar-today">
          {t('calendarPage.today')}
        </button>
        <button
          type="button"
          onClick={() => onGo({ date: step(view, anchor, 1) })}
          className={navButton}
          aria-label={t('calendarPage.next')}
          data-testid="calendar-next"
        >
          ›
        </button>
      </div>
      <h2
        className="order-first w-full min-w-0 text-lg font-semibold text-gray-900 first-letter:uppercase sm:order-none sm:w-auto sm:flex-1 dark:text-white"
        aria-live="polite"
        data-testid="calendar-title"
      >
        {title}
      </h2>
      <div
        role="group"
        aria-label={t('calendarPage.view')}
        className="inline-flex overflow-hidden rounded-lg border border-gray-300 dark:border-gray-700"
      >
        {CALENDAR_VIEWS.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={view === option}
            onClick={() => onGo({ view: option })}
            className={`px-3 py-1.5 text-sm font-medium ${view === option ? 'bg-brand-600 text-on-brand' : 'text-gray-800 hover:bg-gray-50 dark:text-gray-200 dark:hover:bg-gray-800'}`}
            data-testid={`calendar-view-${option}`}
          >
            {t(`calendarPage.views.${option}`)}
          </button>
        ))}
      </div>
    </div>
  );
}
