import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clientRecordings, clients, companyMembers, mailRecipients, type ClientRow } from '../db/schema';

/** A client contact of one company, and the calls linked to it. */
export async function clientWithCalls(db: Db, companyId: string, clientId: string) {
  const [client] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.companyId, companyId), eq(clients.id, clientId)));
  if (!client) return null;
  const calls = await db
    .select()
    .from(clientRecordings)
    .where(and(eq(clientRecordings.companyId, companyId), eq(clientRecordings.clientId, clientId)))
    .orderBy(asc(clientRecordings.uploadedAt));
  return { client, calls };
}

/** The clients a user owns in their company, locked (in id order) for their owner to be cleared. */
export async function lockClientsOwnedBy(tx: Db, companyId: string, userId: string): Promise<ClientRow[]> {
  return tx
    .select()
    .from(clients)
    .where(and(eq(clients.companyId, companyId), eq(clients.ownerId, userId)))
    .orderBy(asc(clients.id))
    .for('update');
}

/** A user's membership copies (their company, role and cap; where their mail goes); how many rows. */
export async function forgetMember(tx: Db, companyId: string, userId: string): Promise<number> {
  const members = await tx
    .delete(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
    .returning({ userId: companyMembers.userId });
  const recipients = await tx
    .delete(mailRecipients)
    .where(and(eq(mailRecipients.companyId, companyId), eq(mailRecipients.userId, userId)))
    .returning({ userId: mailRecipients.userId });
  return members.length + recipients.length;
}
