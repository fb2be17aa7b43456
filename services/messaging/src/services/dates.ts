// Calendar days in what people read (notifications, mail): never the ISO form. The same Intl
// format as the console's (web/src/lib/format-time.ts), so an inbox item's text and its time agree.

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * A calendar day ('2026-11-30', or the day of an ISO instant in UTC) as the language writes it:
 * 'Nov 30, 2026', '30 nov. 2026', '30. nov 2026', '2026. g. 30. nov.'. Anything else is returned as it came.
 */
export function formatDay(day: string, language: string): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}/.test(day) || Number.isNaN(date.getTime())) return day;
  let format = formats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
    formats.set(language, format);
  }
  return format.format(date);
}
