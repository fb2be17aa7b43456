// CSV of a dashboard table, as spreadsheets read it (RFC 4180): fields with a comma, quote or line
// break are quoted with their quotes doubled, lines end with CRLF. A cell that a spreadsheet would
// run as a formula (=, +, -, @, tab, CR at its start) gets a leading apostrophe: names come from
// people (clients, tags) and must not execute when the file is opened.
export type CsvCell = string | number | null;

const FORMULA = /^[=+\-@\t\r]/;

function field(value: CsvCell): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(value) : FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: CsvCell[][]): string {
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** Saves `text` as a file named `name` (a byte-order mark first, so Excel reads it as UTF-8). */
export function downloadCsv(name: string, text: string): void {
  const href = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  // A detached link downloads in Chromium and Firefox; the blob is freed once the click has taken it.
  Object.assign(document.createElement('a'), { href, download: name }).click();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
