import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterRow, sortKey, type Db, type PageEnd } from '@earshot/kit';
import { mailMessages, mailPreferences, mailRecordings, notifications } from '../db/schema';

/** Rows of one person in their company's part of a table (null: a platform administrator's). */
const inCompany = (column: typeof notifications.companyId | typeof mailMessages.companyId, companyId: string | null) =>
  companyId ? eq(column, companyId) : isNull(column);

/** A page of a person's notifications in their company, oldest first, after `after`; each with its sort key. */
export async function notificationsOf(
  db: Db,
  companyId: string | null,
  userId: string,
  page: { after: PageEnd | null; limit: number },
) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
      sortKey: sortKey(notifications.createdAt),
    })
    .from(notifications)
    .where(
      and(
        inCompany(notifications.companyId, companyId),
        eq(notifications.userId, userId),
        afterRow(notifications.createdAt, notifications.id, page.after),
      ),
    )
    .orderBy(asc(notifications.createdAt), asc(notifications.id))
    .limit(page.limit);
}

/**
 * A page of the mail sent to a person in their company, oldest first, after `after`, each with its
 * sort key: the stored plain text only (never kept for mail carrying a sign-in link), never the sealed body.
 */
export async function mailOf(
  db: Db,
  companyId: string | null,
  userId: string,
  page: { after: PageEnd | null; limit: number },
) {
  return db
    .select({
      id: mailMessages.id,
      type: mailMessages.type,
      toAddress: mailMessages.toAddress,
      subject: mailMessages.subject,
      text: mailMessages.textBody,
      link: mailMessages.link,
      status: mailMessages.status,
      readAt: mailMessages.readAt,
      createdAt: mailMessages.createdAt,
      sentAt: mailMessages.sentAt,
      sortKey: sortKey(mailMessages.createdAt),
    })
    .from(mailMessages)
    .where(
      and(
        inCompany(mailMessages.companyId, companyId),
        eq(mailMessages.userId, userId),
        afterRow(mailMessages.createdAt, mailMessages.id, page.after),
      ),
    )
    .orderBy(asc(mailMessages.createdAt), asc(mailMessages.id))
    .limit(page.limit);
}

/** A person's notifications, the mail to them (queued mail is never sent) and their mail choices removed; how many of each. */
export async function deleteInbox(
  tx: Db,
  companyId: string | null,
  userId: string,
): Promise<{ notifications: number; mail: number }> {
  const notes = await tx
    .delete(notifications)
    .where(and(inCompany(notifications.companyId, companyId), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  const mail = await tx
    .delete(mailMessages)
    .where(and(inCompany(mailMessages.companyId, companyId), eq(mailMessages.userId, userId)))
    .returning({ id: mailMessages.id });
  await tx.delete(mailPreferences).where(eq(mailPreferences.userId, userId));
  return { notifications: notes.length, mail: mail.length };
}

/** The copies of a user's recordings kept under their company without them as uploader. */
export async function forgetUploader(tx: Db, companyId: string, userId: string): Promise<void> {
  await tx
    .update(mailRecordings)
    .set({ uploadedBy: null })
    .where(and(eq(mailRecordings.companyId, companyId), eq(mailRecordings.uploadedBy, userId)));
}
