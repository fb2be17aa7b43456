// The calendar's date maths. A day is a key 'YYYY-MM-DD' and all arithmetic on keys is done in
// UTC (Date.UTC), so no local daylight-saving change can skip or repeat a day. Task due dates are
// such keys already (days without a time, UTC in the contract) and sit on that day wherever the
// reader is. Recordings have a timestamp: they sit on the reader's LOCAL day (a call made at 00:30
// in Tallinn belongs to that day, not to the UTC day before), see localDayOf.
export const CALENDAR_VIEWS = ['month', 'week', 'day'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

const DAY_MS = 86_400_000;
const KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toKey(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The key as a UTC midnight, or null when it is not a real day. */
export function parseDay(key: string | null | undefined): Date | null {
  const match = KEY.exec(key ?? '');
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return toKey(date) === key ? date : null;
}

export function addDays(key: string, days: number): string {
  return toKey(new Date(parseDay(key)!.getTime() + days * DAY_MS));
}

/** Monday-based weekday, 0 (Monday) … 6 (Sunday): the week starts on Monday in every language we ship. */
function weekday(key: string): number {
  return (parseDay(key)!.getUTCDay() + 6) % 7;
}

export function startOfWeek(key: string): string {
  return addDays(key, -weekday(key));
}

export function addMonths(key: string, months: number): string {
  const date = parseDay(key)!;
  const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  // Keep the day where the target month has it (31 January + 1 month = 28 or 29 February).
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(date.getUTCDate(), last));
  return toKey(first);
}

export function monthOf(key: string): string {
  return key.slice(0, 7);
}

/** The reader's local day of a timestamp (a recording's date), or null when it is no date. */
export function localDayOf(iso: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** Today on the reader's clock. */
export function today(now: Date = new Date()): string {
  return localDayOf(now.toISOString())!;
}

/** The days a view shows, first to last: a month as whole weeks (5 or 6 rows), a week, a day. */
export function visibleDays(view: CalendarView, anchor: string): string[] {
  let first: string;
  let count: number;
  if (view === 'day') {
    first = anchor;
    count = 1;
  } else if (view === 'week') {
    first = startOfWeek(anchor);
    count = 7;
  } else {
    first = startOfWeek(`${monthOf(anchor)}-01`);
    const lastOfMonth = addDays(addMonths(`${monthOf(anchor)}-01`, 1), -1);
    const last = addDays(startOfWeek(lastOfMonth), 6);
    count = (parseDay(last)!.getTime() - parseDay(first)!.getTime()) / DAY_MS + 1;
  }
  return Array.from({ length: count }, (_, i) => addDays(first, i));
}

/**
 * What to ask the server for: the visible days plus one on each side. The server's days are UTC
 * and recordings are placed on local days, so a recording near midnight on an edge day may carry
 * the UTC date of the day before or after (any zone is within ±14 h). At most 44 days: within
 * the API's 62.
 */
export function fetchRange(days: string[]): { from: string; to: string } {
  return { from: addDays(days[0]!, -1), to: addDays(days[days.length - 1]!, 1) };
}

/** The anchor day after prev (-1) or next (+1) in a view. */
export function step(view: CalendarView, anchor: string, direction: 1 | -1): string {
  if (view === 'month') return addMonths(anchor, direction);
  return addDays(anchor, direction * (view === 'week' ? 7 : 1));
}
