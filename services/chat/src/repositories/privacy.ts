import { and, asc, eq, getTableColumns, isNull } from 'drizzle-orm';
import { afterRow, sortKey, type Db, type PageEnd } from '@earshot/kit';
import { conversations, feedback, messages, recordings, type ConversationRow, type MessageRow } from '../db/schema';

/** A page of a user's conversations in their company (null: a platform administrator's), oldest first, after `after`; each with its sort key. */
export async function conversationsOfOwner(
  db: Db,
  companyId: string | null,
  ownerId: string,
  page: { after: PageEnd | null; limit: number },
): Promise<(ConversationRow & PageEnd)[]> {
  const company = companyId ? eq(conversations.companyId, companyId) : isNull(conversations.companyId);
  return db
    .select({ ...getTableColumns(conversations), sortKey: sortKey(conversations.createdAt) })
    .from(conversations)
    .where(
      and(company, eq(conversations.ownerId, ownerId), afterRow(conversations.createdAt, conversations.id, page.after)),
    )
    .orderBy(asc(conversations.createdAt), asc(conversations.id))
    .limit(page.limit);
}

/** A page of a conversation's messages, oldest first, after `after`; each with its sort key. */
export async function messagesOf(
  db: Db,
  conversationId: string,
  page: { after: PageEnd | null; limit: number },
): Promise<(MessageRow & PageEnd)[]> {
  return db
    .select({ ...getTableColumns(messages), sortKey: sortKey(messages.createdAt) })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), afterRow(messages.createdAt, messages.id, page.after)))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(page.limit);
}

/** A page of the ratings a user gave to replies, with their comments, oldest first, after `after`; each with its sort key. */
export async function feedbackOfUser(db: Db, userId: string, page: { after: PageEnd | null; limit: number }) {
  return db
    .select({
      id: feedback.id,
      messageId: feedback.messageId,
      rating: feedback.rating,
      comment: feedback.comment,
      createdAt: feedback.createdAt,
      sortKey: sortKey(feedback.createdAt),
    })
    .from(feedback)
    .where(and(eq(feedback.userId, userId), afterRow(feedback.createdAt, feedback.id, page.after)))
    .orderBy(asc(feedback.createdAt), asc(feedback.id))
    .limit(page.limit);
}

/** The ids of a user's conversations in their company (null: a platform administrator's), locked for their removal. */
export async function lockConversationsOfOwner(tx: Db, companyId: string | null, ownerId: string): Promise<string[]> {
  const company = companyId ? eq(conversations.companyId, companyId) : isNull(conversations.companyId);
  const rows = await tx
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(company, eq(conversations.ownerId, ownerId)))
    .orderBy(asc(conversations.id))
    .for('update');
  return rows.map((row) => row.id);
}

/** The ratings a user gave that did not go with their conversations; how many. */
export async function deleteFeedbackOfUser(tx: Db, userId: string): Promise<number> {
  return (await tx.delete(feedback).where(eq(feedback.userId, userId)).returning({ messageId: feedback.messageId }))
    .length;
}

/** The copies of a user's recordings kept under their company without them as uploader; how many. */
export async function forgetUploader(tx: Db, companyId: string, userId: string): Promise<number> {
  return (
    await tx
      .update(recordings)
      .set({ uploadedBy: null })
      .where(and(eq(recordings.companyId, companyId), eq(recordings.uploadedBy, userId)))
      .returning({ fileId: recordings.fileId })
  ).length;
}
