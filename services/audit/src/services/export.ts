import type { AuditExportEntry } from '@earshot/contracts';
import { csvLine } from '@earshot/kit';

export const CSV_COLUMNS = [
  'occurredAt',
  'type',
  'companyId',
  'actorType',
  'actorId',
  'actorEmail',
  'actorRole',
  'actorIp',
  'targetType',
  'targetId',
  'before',
  'after',
  'data',
  'id',
  'version',
  'seq',
  'prevHash',
  'hash',
] as const;

// Snapshots (before, after, data) are written as their JSON text whatever they hold (a string
// too, quoted), so a verifier reads back exactly what was hashed; null is an empty cell.
const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

function csvRow(entry: AuditExportEntry): string {
  const { actor, target } = entry;
  return csvLine([
    entry.occurredAt,
    entry.type,
    entry.companyId,
    actor.type,
    actor.id,
    actor.email,
    actor.role,
    actor.ip,
    target.type,
    target.id,
    json(entry.before),
    json(entry.after),
    json(entry.data),
    entry._id,
    entry.version,
    entry.seq,
    entry.prevHash,
    entry.hash,
  ]);
}

/** The export as CSV text chunks, one per batch, header first. */
export async function* toCsv(batches: AsyncIterable<AuditExportEntry[]>): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS);
  for await (const batch of batches) yield batch.map(csvRow).join('');
}

/** The export as JSON Lines: one entry (the list's shape) per line. */
export async function* toJsonLines(batches: AsyncIterable<AuditExportEntry[]>): AsyncGenerator<string> {
  for await (const batch of batches) yield batch.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
