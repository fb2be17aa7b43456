// Formatting rules of the transcripts screens (unit tested in format.test.ts).

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

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes, human readable (1024 steps): 0 B, 912 B, 1.5 KB, 23.4 MB. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 || value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${text} ${UNITS[unit]}`;
}
