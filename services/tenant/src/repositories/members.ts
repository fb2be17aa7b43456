import { and, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companyMembers, mailRecipients, type MailRecipientRow } from '../db/schema';

export interface MemberFacts {
  companyId: string;
  role: string;
  /** Monthly credits cap; undefined when the event predates caps (keep what is known). */
  monthlyCredits?: number | null;
}

/** Records (or moves) a user as a member of a company, with their role and cap, from the auth service's events. */
export async function upsertMember(tx: Db, userId: string, facts: MemberFacts): Promise<void> {
  const set = {
    companyId: facts.companyId,
    role: facts.role,
    ...(facts.monthlyCredits !== undefined ? { monthlyCredits: facts.monthlyCredits } : {}),
  };
  await tx
    .insert(companyMembers)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: companyMembers.userId, set });
}

export async function removeMember(tx: Db, userId: string): Promise<void> {
  await tx.delete(companyMembers).where(eq(companyMembers.userId, userId));
}

/** Whether the user is a member of that company (as far as the projection knows yet). */
export async function isMember(db: Db, userId: string, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(and(eq(companyMembers.userId, userId), eq(companyMembers.companyId, companyId)));
  return row !== undefined;
}

/** A person's name for the usage statement (who spent what). */
export async function upsertName(tx: Db, row: MailRecipientRow): Promise<void> {
  const { userId: _id, ...fields } = row;
  await tx.insert(mailRecipients).values(row).onConflictDoUpdate({ target: mailRecipients.userId, set: fields });
}

export async function removeName(tx: Db, userId: string): Promise<void> {
  await tx.delete(mailRecipients).where(eq(mailRecipients.userId, userId));
}
