import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { mailMessages, mailPreferences, mailRecordings, notifications } from '../db/schema';

/** Rows of one person in their company's part of a table (null: a platform administrator's). */
const inCompany = (column: typeof notifications.companyId | typeof mailMessages.companyId, companyId: string | null) =>
  companyId ? eq(column, companyId) : isNull(column);

/** A person's inbox: their notifications and the mail sent to them, oldest first. */
export async function inboxOf(db: Db, companyId: string | null, userId: string) {
  const notes = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(and(inCompany(notifications.companyId, companyId), eq(notifications.userId, userId)))
    .orderBy(asc(notifications.createdAt));
  // The stored plain text only (never kept for mail carrying a sign-in link), never the sealed body.
  const mail = await db
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
    })
    .from(mailMessages)
    .where(and(inCompany(mailMessages.companyId, companyId), eq(mailMessages.userId, userId)))
    .orderBy(asc(mailMessages.createdAt));
  return { notifications: notes, mail };
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
