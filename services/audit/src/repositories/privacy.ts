import { and, asc, count, eq, isNull, or } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { entries, type EntryRow } from '../db/schema';

/**
 * The entries about one person: what they did (the actor) and what was done to them (the target),
 * in the chain of their company only (null: the platform's), so no other company's entry goes.
 */
export async function entriesAboutPerson(db: Db, companyId: string | null, personId: string): Promise<EntryRow[]> {
  return db.select().from(entries).where(aboutPerson(companyId, personId)).orderBy(asc(entries.seq));
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
