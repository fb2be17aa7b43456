import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { afterRow, sortKey, type Db, type PageEnd } from '@earshot/kit';
import {
  clientRecordings,
  clients,
  companyMembers,
  mailRecipients,
  type ClientRecordingRow,
  type ClientRow,
} from '../db/schema';

/** A client contact of one company. */
export async function clientOf(db: Db, companyId: string, clientId: string): Promise<ClientRow | null> {
  const [client] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.companyId, companyId), eq(clients.id, clientId)));
  return client ?? null;
}

/** A call's place among a client's calls: by upload, one not known to have been uploaded last. */
const uploaded = sql`coalesce(${clientRecordings.uploadedAt}, 'infinity'::timestamptz)`;

/**
 * A page of the calls linked to a client, oldest upload first, after `after` (whose id is the
 * call's file id); each with its sort key.
 */
export async function callsOfClient(
  db: Db,
  companyId: string,
  clientId: string,
  page: { after: PageEnd | null; limit: number },
): Promise<(ClientRecordingRow & Pick<PageEnd, 'sortKey'>)[]> {
  return db
    .select({ ...getTableColumns(clientRecordings), sortKey: sortKey(uploaded) })
    .from(clientRecordings)
    .where(
      and(
        eq(clientRecordings.companyId, companyId),
        eq(clientRecordings.clientId, clientId),
        afterRow(uploaded, clientRecordings.fileId, page.after),
      ),
    )
    .orderBy(uploaded, asc(clientRecordings.fileId))
    .limit(page.limit);
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
