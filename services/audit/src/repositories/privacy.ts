import { and, asc, count, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { entries, type EntryRow } from '../db/schema';

/**
 * The entries about one person: what they did (the actor) and what was done to them (the target),
 * in the chain of their company only (null: the platform's), so no other company's entry goes;
 * a page of them in the chain's order, after the entry `afterSeq` (null: from the first).
 */
export async function entriesAboutPerson(
  db: Db,
  companyId: string | null,
  personId: string,
  page: { afterSeq: number | null; limit: number },
): Promise<EntryRow[]> {
  const after = page.afterSeq === null ? undefined : gt(entries.seq, page.afterSeq);
  return db
    .select()
    .from(entries)
    .where(and(aboutPerson(companyId, personId), after))
    .orderBy(asc(entries.seq))
    .limit(page.limit);
}

/** How many entries are about one person (what an erasure keeps). */
export async function countEntriesAboutPerson(db: Db, companyId: string | null, personId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(entries).where(aboutPerson(companyId, personId));
  return row?.n ?? 0;
}

function aboutPerson(companyId: string | null, personId: string) {
  const chain = companyId ? eq(entries.companyId, companyId) : isNull(entries.companyId);
  return and(chain, or(eq(entries.actorId, personId), eq(entries.targetId, personId)));
}
