// Formatting rules of the transcripts screens (unit tested in format.test.ts).

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Upload date as 'Mon D, YYYY' (spec: month abbreviation, day, year). English is written by hand
 * so it never depends on the runtime's ICU data; other languages use Intl with the same parts.
 */
export function formatDate(iso: string, language = 'en', timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  if (language.startsWith('en')) {
    const parts = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'numeric', day: 'numeric', timeZone }).formatToParts(date);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return `${EN_MONTHS[get('month') - 1]} ${get('day')}, ${get('year')}`;
  }
  return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric', timeZone }).format(date);
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
