import type { AuditEntryDto, AuditPage, AuditQuery, Envelope } from '@earshot/contracts';
import { badRequest, companyScope, type Db, type Identity, type ServiceContext } from '@earshot/kit';
import type { EntryRow } from '../db/schema';
import { insertEntry, listEntries, type EntryFilter } from '../repositories/entries';
import { entryOf } from './record';

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A query bound as a Date: a bare date is the start (from) or the end (to) of that UTC day. */
function instant(value: string | undefined, field: 'from' | 'to'): Date | undefined {
  if (value === undefined) return undefined;
  const iso = BARE_DATE.test(value) ? `${value}T${field === 'from' ? '00:00:00.000' : '23:59:59.999'}Z` : value;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    throw badRequest(`Invalid query.${field}: not a real date`, [{ field: `query.${field}`, message: 'not a real date' }]);
  }
  return date;
}

function toDto(row: EntryRow): AuditEntryDto {
  return {
    _id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    type: row.type,
    version: row.version,
    companyId: row.companyId,
    actor: row.actor,
    target: { type: row.targetType, id: row.targetId },
    before: row.before ?? null,
    after: row.after ?? null,
    data: row.data,
  };
}

/** The audit log: records every event once, and lists entries to the platform administrator. */
export class AuditLog {
  constructor(private readonly ctx: ServiceContext) {}

  /** Stores an event, in the transaction that records it as applied (redelivery adds nothing). */
  async record(tx: Db, envelope: Envelope): Promise<void> {
    await insertEntry(tx, entryOf(envelope));
  }

  /** Entries newest first; a caller scoped to one company would see only that company's. */
  async list(identity: Identity, query: AuditQuery): Promise<AuditPage> {
    const from = instant(query.from, 'from');
    const to = instant(query.to, 'to');
    if (from && to && from > to) {
      throw badRequest('Invalid query.from: must not be after query.to', [{ field: 'query.from', message: 'must not be after query.to' }]);
    }
    const filter: EntryFilter = {
      companyId: companyScope(identity, query.companyId) ?? undefined,
      actorId: query.actorId,
      type: query.type,
      typePrefix: query.type?.endsWith('.') ?? false,
      from,
      to,
    };
    const { rows, total } = await listEntries(this.ctx.db, filter, query.page, query.pageSize);
    return { items: rows.map(toDto), page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) };
  }
}
