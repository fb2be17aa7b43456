import type { AuditEntryDto } from '@earshot/contracts';

export const CSV_COLUMNS = ['occurredAt', 'type', 'companyId', 'actorType', 'actorId', 'actorEmail', 'actorRole', 'actorIp', 'targetType', 'targetId', 'before', 'after', 'data', 'id'] as const;

/** Spreadsheets run a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): formula-looking text gets a leading ', then quoted when it must be. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvRow(entry: AuditEntryDto): string {
  const { actor, target } = entry;
  const values = [entry.occurredAt, entry.type, entry.companyId, actor.type, actor.id, actor.email, actor.role, actor.ip, target.type, target.id, entry.before, entry.after, entry.data, entry._id];
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** The export as CSV text chunks, one per batch, header first. */
export async function* toCsv(batches: AsyncIterable<AuditEntryDto[]>): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  for await (const batch of batches) yield batch.map(csvRow).join('');
}

/** The export as JSON Lines: one entry (the list's shape) per line. */
export async function* toJsonLines(batches: AsyncIterable<AuditEntryDto[]>): AsyncGenerator<string> {
  for await (const batch of batches) yield batch.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
