import { and, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companyMembers } from '../db/schema';

/** Records (or moves) a user as a member of a company, from the auth service's events. */
export async function upsertMember(tx: Db, userId: string, companyId: string): Promise<void> {
  await tx.insert(companyMembers).values({ userId, companyId })
    .onConflictDoUpdate({ target: companyMembers.userId, set: { companyId } });
}

export async function removeMember(tx: Db, userId: string): Promise<void> {
  await tx.delete(companyMembers).where(eq(companyMembers.userId, userId));
}

/** Whether the user is a member of that company (as far as the projection knows yet). */
export async function isMember(db: Db, userId: string, companyId: string): Promise<boolean> {
  const [row] = await db.select({ userId: companyMembers.userId }).from(companyMembers)
    .where(and(eq(companyMembers.userId, userId), eq(companyMembers.companyId, companyId)));
  return row !== undefined;
}
