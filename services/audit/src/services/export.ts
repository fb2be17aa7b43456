import type { AuditEntryDto } from '@earshot/contracts';
import { csvLine } from '@earshot/kit';

export const CSV_COLUMNS = ['occurredAt', 'type', 'companyId', 'actorType', 'actorId', 'actorEmail', 'actorRole', 'actorIp', 'targetType', 'targetId', 'before', 'after', 'data', 'id'] as const;

// Snapshots (before, after, data) are objects: written as their JSON text, defused like any text.
const field = (value: unknown): string | number | null | undefined =>
  value !== null && typeof value === 'object' ? JSON.stringify(value) : (value as string | number | null | undefined);

function csvRow(entry: AuditEntryDto): string {
  const { actor, target } = entry;
  const values = [entry.occurredAt, entry.type, entry.companyId, actor.type, actor.id, actor.email, actor.role, actor.ip, target.type, target.id, entry.before, entry.after, entry.data, entry._id];
  return csvLine(values.map(field));
}

/** The export as CSV text chunks, one per batch, header first. */
export async function* toCsv(batches: AsyncIterable<AuditEntryDto[]>): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS);
  for await (const batch of batches) yield batch.map(csvRow).join('');
}

/** The export as JSON Lines: one entry (the list's shape) per line. */
export async function* toJsonLines(batches: AsyncIterable<AuditEntryDto[]>): AsyncGenerator<string> {
  for await (const batch of batches) yield batch.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
