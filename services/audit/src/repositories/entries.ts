import { and, count, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { entries, type NewEntryRow } from '../db/schema';

export interface EntryFilter {
  companyId?: string;
  actorId?: string;
  /** Exact type, or with `typePrefix` every type starting with it. */
  type?: string;
  typePrefix?: boolean;
  from?: Date;
  to?: Date;
}

/** Stores an entry once: a redelivered event (same id) is ignored. */
export async function insertEntry(tx: Db, entry: NewEntryRow): Promise<void> {
  await tx.insert(entries).values(entry).onConflictDoNothing({ target: entries.id });
}

function where(filter: EntryFilter): SQL | undefined {
  return and(
    filter.companyId ? eq(entries.companyId, filter.companyId) : undefined,
    filter.actorId ? eq(entries.actorId, filter.actorId) : undefined,
    // starts_with: '_' in type names must not act as a LIKE wildcard.
    filter.type ? (filter.typePrefix ? sql`starts_with(${entries.type}, ${filter.type})` : eq(entries.type, filter.type)) : undefined,
    filter.from ? gte(entries.occurredAt, filter.from) : undefined,
    filter.to ? lte(entries.occurredAt, filter.to) : undefined,
  );
}

/** Newest first; entries of the same instant in the order they were recorded, newest first. */
export async function listEntries(db: Db, filter: EntryFilter, page: number, pageSize: number) {
  const condition = where(filter);
  const [rows, [totals]] = await Promise.all([
    db.select().from(entries).where(condition).orderBy(desc(entries.occurredAt), desc(entries.seq)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ total: count() }).from(entries).where(condition),
  ]);
  return { rows, total: totals?.total ?? 0 };
}
