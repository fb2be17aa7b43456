// How the dashboards write their figures, in the page's language. Periods are UTC days named by
// their first day, so they are formatted in UTC: a reader west of Greenwich still sees the Monday.
import type { DashboardGroup } from '@earshot/contracts';

export interface Formats {
  count: (value: number) => string;
  /** A length of time as h:mm:ss (hours keep counting: 125:00:00). */
  duration: (seconds: number) => string;
  decimal: (value: number) => string;
  /** Up to two decimals: an axis of small values (0.25 minutes) keeps its marks apart. */
  fine: (value: number) => string;
  percent: (share: number) => string;
  period: (period: string) => string;
  day: (iso: string) => string;
}

export function formats(language: string, groupBy: DashboardGroup): Formats {
  const count = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const fine = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const period = new Intl.DateTimeFormat(
    language,
    groupBy === 'month'
      ? { month: 'short', year: 'numeric', timeZone: 'UTC' }
      : { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' },
  );
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  return {
    count: (value) => count.format(value),
    fine: (value) => fine.format(value),
    duration: (seconds) => {
      const whole = Math.max(0, Math.round(seconds));
      const pad = (value: number) => String(value).padStart(2, '0');
      return `${Math.floor(whole / 3600)}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}`;
    },
    decimal: (value) => decimal.format(value),
    percent: (share) => percent.format(share),
    period: (value) => period.format(new Date(`${value.slice(0, 10)}T00:00:00Z`)),
    day: (iso) => day.format(new Date(iso)),
  };
}

/**
 * The unit a chart of call time uses: short calls would draw a flat line of zero hours, so below
 * two hours in its largest period the chart counts minutes.
 */
export function timeUnit(seconds: number[]): { unit: 'minutes' | 'hours'; divisor: number } {
  return Math.max(0, ...seconds) < 7200 ? { unit: 'minutes', divisor: 60 } : { unit: 'hours', divisor: 3600 };
}
