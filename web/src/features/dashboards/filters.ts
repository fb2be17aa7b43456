// The analytics filters live in the page's URL query (?from=&to=&groupBy=&agentId=&clientId=&tag=
// &companyId=), so a reload, Back or a shared link keeps them. A value the form could not have
// written (a bad date, an unknown grouping) is dropped instead of turning the page into a 400.
// Days are UTC and both ends are included; a week starts on Monday and a period is named by its
// first day (packages/contracts/src/api/dashboards.ts). The contracts' zod schemas stay on the
// server: this page is not an administration chunk and must not load zod.
import type { DashboardGroup } from '@earshot/contracts';

export const GROUPS = ['day', 'week', 'month'] as const satisfies readonly DashboardGroup[];
/** Without a range in the address: the 90 days before today, as the server's own default. */
export const DEFAULT_RANGE_DAYS = 90;
const TAG_MAX = 60;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

export interface DashboardFilters {
  from: string;
  to: string;
  groupBy: DashboardGroup;
  agentId?: string;
  clientId?: string;
  tag?: string;
  companyId?: string;
}

export const FILTER_KEYS = ['from', 'to', 'groupBy', 'agentId', 'clientId', 'tag', 'companyId'] as const;

export function isDay(value: string | null | undefined): value is string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The filters the address holds, with the range filled in (`today` is a UTC day). */
export function filtersFromParams(params: URLSearchParams, today: string): DashboardFilters {
  const to = isDay(params.get('to')) ? params.get('to')! : today;
  const fromParam = params.get('from');
  const from = isDay(fromParam) && fromParam <= to ? fromParam : addDays(to, -DEFAULT_RANGE_DAYS);
  const group = params.get('groupBy');
  const filters: DashboardFilters = {
    from,
    to,
    groupBy: (GROUPS as readonly string[]).includes(group ?? '') ? (group as DashboardGroup) : 'week',
  };
  for (const key of ['agentId', 'clientId', 'companyId'] as const) {
    const id = params.get(key);
    if (id && ID.test(id)) filters[key] = id;
  }
  const tag = params.get('tag')?.trim();
  if (tag && tag.length <= TAG_MAX && !/\p{Cc}/u.test(tag)) filters.tag = tag;
  return filters;
}

/** The last day of the period that starts on `period` (its name), for `groupBy`. */
export function periodEnd(period: string, groupBy: DashboardGroup): string {
  if (groupBy === 'day') return period;
  if (groupBy === 'week') return addDays(period, 6);
  const [year, month] = period.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

/** The days of one period inside the chosen range: a first or last week may be cut by it. */
export function periodRange(
  period: string,
  filters: Pick<DashboardFilters, 'from' | 'to' | 'groupBy'>,
): { from: string; to: string } {
  const end = periodEnd(period, filters.groupBy);
  return { from: period > filters.from ? period : filters.from, to: end < filters.to ? end : filters.to };
}

/** A day's UTC date today. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
