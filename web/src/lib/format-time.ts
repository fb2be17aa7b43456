// Every date and time people read in the console goes through here, in the chosen language via
// Intl: never an ISO string, never a fixed (US) order. Unit tested in format-time.test.ts and
// entities/transcripts/format.test.ts.

/** What is shown: a day ('Mar 7, 2025'), a moment ('Mar 7, 2025, 9:05 AM') or a moment in full words. */
export type DateStyle = 'date' | 'dateTime' | 'fullDateTime' | 'precise';

export const DATE_OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { year: 'numeric', month: 'short', day: 'numeric' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  fullDateTime: { dateStyle: 'full', timeStyle: 'short' },
  // To the second: where the order of close events matters (the audit log, delivery attempts).
  precise: { dateStyle: 'medium', timeStyle: 'medium' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

function format(date: Date, style: DateStyle, language: string, timeZone?: string): string {
  if (Number.isNaN(date.getTime())) return '—';
  const key = `${style}|${language}|${timeZone ?? ''}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(language, { ...DATE_OPTIONS[style], timeZone });
    formats.set(key, found);
  }
  return found.format(date);
}

/**
 * The day of an instant with the month's abbreviation, the day and the year, in the reader's
 * language and time zone: 'Mar 7, 2025' in English, '7 mars 2025' in French.
 */
export function formatDate(iso: string, language = 'en', timeZone?: string): string {
  return format(new Date(iso), 'date', language, timeZone);
}

/** A calendar day ('2026-11-30', a due date: no time zone of its own) as the language writes it. */
export function formatDay(day: string, language = 'en'): string {
  return format(new Date(`${day.slice(0, 10)}T00:00:00Z`), 'date', language, 'UTC');
}

/** An instant with its time, in the reader's language and time zone; 'fullDateTime' names the weekday and month. */
export function formatDateTime(
  iso: string,
  language = 'en',
  style: 'dateTime' | 'fullDateTime' | 'precise' = 'dateTime',
): string {
  return format(new Date(iso), style, language);
}

/** Seconds as m:ss (minutes keep counting past an hour: 184:05). */
export function formatClock(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const m = Math.floor(whole / 60);
  const s = whole % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}
