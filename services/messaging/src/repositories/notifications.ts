import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { mailMessages, notifications, type NotificationRow } from '../db/schema';

export async function insertNotifications(tx: Db, rows: (typeof notifications.$inferInsert)[]): Promise<void> {
  if (rows.length) await tx.insert(notifications).values(rows);
}

/** A person's notifications, newest first, with how many are unread. */
export async function notificationPage(
  db: Db,
  userId: string,
  page: number,
  pageSize: number,
): Promise<{ rows: NotificationRow[]; total: number; unread: number }> {
  const [rows, [totals], unread] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(notifications).where(eq(notifications.userId, userId)),
    unreadCount(db, userId),
  ]);
  return { rows, total: totals?.total ?? 0, unread };
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/**
 * Marks one of the person's notifications read (again: no change), and the mail that went with it:
 * one event, read once. False when they have no such notification.
 */
export async function markRead(tx: Db, userId: string, id: string): Promise<boolean> {
  const rows = await tx
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ mailId: notifications.mailId });
  const mailIds = rows.flatMap((row) => (row.mailId ? [row.mailId] : []));
  if (mailIds.length) await markMailRead(tx, userId, inArray(mailMessages.id, mailIds));
  return rows.length > 0;
}

export async function markAllRead(tx: Db, userId: string): Promise<void> {
  await tx
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  const paired = tx
    .select({ id: notifications.mailId })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNotNull(notifications.mailId)));
  await markMailRead(tx, userId, inArray(mailMessages.id, paired));
}

const markMailRead = (tx: Db, userId: string, which: ReturnType<typeof inArray>) =>
  tx
    .update(mailMessages)
    .set({ readAt: sql`coalesce(${mailMessages.readAt}, now())` })
    .where(and(eq(mailMessages.userId, userId), which));

export async function removeCompanyNotifications(tx: Db, companyId: string): Promise<void> {
  await tx.delete(notifications).where(eq(notifications.companyId, companyId));
}

/** A person's notifications go with them. */
export async function removeUserNotifications(tx: Db, userId: string): Promise<void> {
  await tx.delete(notifications).where(eq(notifications.userId, userId));
}
