import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { entries, type EntryRow } from '../db/schema';

/**
 * The entries about one person: what they did (the actor) and what was done to them (the target),
 * in the chain of their company only (null: the platform's), so no other company's entry goes.
 */
export async function entriesAboutPerson(db: Db, companyId: string | null, personId: string): Promise<EntryRow[]> {
  const chain = companyId ? eq(entries.companyId, companyId) : isNull(entries.companyId);
  return db.select().from(entries).where(and(chain, or(eq(entries.actorId, personId), eq(entries.targetId, personId)))).orderBy(asc(entries.seq));
}
