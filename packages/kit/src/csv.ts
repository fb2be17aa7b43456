/** Spreadsheets run a text cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180) of a download meant for spreadsheets: text that looks like a formula
 * gets a leading ', then the field is quoted when it must be. Numbers are written as they are: a
 * negative amount is a number, not a formula, and must stay one for the sums a reader makes.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (CRLF, as RFC 4180 and spreadsheets expect). */
export const csvLine = (values: readonly (string | number | null | undefined)[]): string =>
  `${values.map(csvCell).join(',')}\r\n`;
