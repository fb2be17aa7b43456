import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * Where a keyset page ends: its last row's id and sort key. The sort key is the row's `order` as
 * the database writes it (sortKey), exact to the microsecond where a timestamp carried through a JS
 * Date is not, and carried from the page itself: the row may be deleted before the next page is read.
 */
export interface PageEnd {
  id: string;
  sortKey: string;
}

/** A keyset page's `order` as text, selected beside the row's columns for the next page's PageEnd. */
export const sortKey = (order: PgColumn | SQL): SQL<string> => sql<string>`${order}::text`;

/**
 * A keyset page's condition: the rows after `after` (the previous page's last row; none: from the
 * first), in (`order`, `id`) order. `order` is a timestamptz, or an expression of one (a nullable
 * column with a coalesce, since no row compares after a null): its text reads back as the same
 * instant, so the comparison is exact and needs nothing of the row it came from.
 */
export function afterRow(order: PgColumn | SQL, id: PgColumn, after: PageEnd | null): SQL | undefined {
  if (after === null) return undefined;
  return sql`(${order}, ${id}) > (${after.sortKey}::timestamptz, ${after.id})`;
}
