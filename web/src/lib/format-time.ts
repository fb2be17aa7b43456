// Dates and times of recordings: the transcripts screens and the search's results (unit tested
// in entities/transcripts/format.test.ts).

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Upload date with the month's abbreviation, the day and the year (spec), in the reader's
 * language and time zone: 'Mar 7, 2025' in English, '7 mars 2025' in French.
 */
export function formatDate(iso: string, language = 'en', timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const key = `${language}|${timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric', timeZone });
    dateFormats.set(key, format);
  }
  return format.format(date);
}

/** Seconds as m:ss (minutes keep counting past an hour: 184:05). */
export function formatClock(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const m = Math.floor(whole / 60);
  const s = whole % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}
