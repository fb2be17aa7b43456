import { and, count, desc, eq, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { entries } from '../db/schema';

export interface EntryFilter {
  companyId?: string;
  actorId?: string;
  /** Every actor whose id starts with this (a kind of actor, e.g. every SCIM token). */
  actorIdPrefix?: string;
  /** Lower-case; compared with the lower-cased e-mail of the actor. */
  actorEmail?: string;
  /** Exact type, or with `typePrefix` every type starting with it. */
  type?: string;
  typePrefix?: boolean;
  targetType?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
}

/**
 * A place in the log's order (occurred_at desc, seq desc). `at` is the database's own text of the
 * timestamp: a JavaScript Date would drop its microseconds and skip or repeat entries.
 */
export interface Position {
  at: string;
  seq: number;
}

function where(filter: EntryFilter): SQL | undefined {
  return and(
    filter.companyId ? eq(entries.companyId, filter.companyId) : undefined,
    filter.actorId ? eq(entries.actorId, filter.actorId) : undefined,
    filter.actorIdPrefix ? sql`starts_with(${entries.actorId}, ${filter.actorIdPrefix})` : undefined,
    filter.actorEmail ? sql`lower(${entries.actor}->>'email') = ${filter.actorEmail}` : undefined,
    // starts_with: '_' in type names must not act as a LIKE wildcard.
    filter.type
      ? filter.typePrefix
        ? sql`starts_with(${entries.type}, ${filter.type})`
        : eq(entries.type, filter.type)
      : undefined,
    filter.targetType ? eq(entries.targetType, filter.targetType) : undefined,
    filter.targetId ? eq(entries.targetId, filter.targetId) : undefined,
    filter.from ? gte(entries.occurredAt, filter.from) : undefined,
    filter.to ? lte(entries.occurredAt, filter.to) : undefined,
  );
}

const columns = { ...getTableColumns(entries), at: sql<string>`${entries.occurredAt}::text` };

/** The position of an entry by its seq (cursors name entries by it); undefined if there is none. */
export async function positionOf(db: Db, seq: number): Promise<Position | undefined> {
  const [row] = await db.select({ at: columns.at, seq: entries.seq }).from(entries).where(eq(entries.seq, seq));
  return row;
}

/**
 * Newest first; entries of the same instant in the order they were recorded, newest first.
 * `after` reads on from a position with a row comparison the (…, occurred_at desc, seq desc)
 * indexes answer as a range; `offset` is the old paging, kept for clients that ask by page.
 */
export async function readEntries(
  db: Db,
  filter: EntryFilter,
  page: { limit: number; offset?: number; after?: Position },
) {
  const after = page.after
    ? sql`(${entries.occurredAt}, ${entries.seq}) < (${page.after.at}::timestamptz, ${page.after.seq})`
    : undefined;
  return db
    .select(columns)
    .from(entries)
    .where(and(where(filter), after))
    .orderBy(desc(entries.occurredAt), desc(entries.seq))
    .limit(page.limit)
    .offset(page.offset ?? 0);
}

export type ReadEntry = Awaited<ReturnType<typeof readEntries>>[number];

export async function countEntries(db: Db, filter: EntryFilter): Promise<number> {
  const [totals] = await db.select({ total: count() }).from(entries).where(where(filter));
  return totals?.total ?? 0;
}
