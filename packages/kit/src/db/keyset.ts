import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * A keyset page's condition: the rows after the row `afterId` names, in (`order`, `id`) order
 * (none: from the first); `order` may be an expression of the row's columns (a nullable column
 * with a coalesce, since no row compares after a null). That row's sort key is read in the database, exact to the microsecond
 * where a timestamp carried through a JS Date is not.
 */
export function afterRow(table: PgTable, order: PgColumn | SQL, id: PgColumn, afterId: string | null): SQL | undefined {
  if (afterId === null) return undefined;
  return sql`(${order}, ${id}) > (select ${order}, ${id} from ${table} where ${id} = ${afterId})`;
}
