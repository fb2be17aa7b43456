import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { conversations, feedback, messages, recordings, type ConversationRow, type MessageRow } from '../db/schema';

/** A user's conversations in their company (null: a platform administrator's, which have none), with their messages. */
export async function conversationsOfOwner(
  db: Db,
  companyId: string | null,
  ownerId: string,
): Promise<{ conversation: ConversationRow; messages: MessageRow[] }[]> {
  const company = companyId ? eq(conversations.companyId, companyId) : isNull(conversations.companyId);
  const owned = await db
    .select()
    .from(conversations)
    .where(and(company, eq(conversations.ownerId, ownerId)))
    .orderBy(asc(conversations.createdAt));
  if (!owned.length) return [];
  const rows = await db
    .select()
    .from(messages)
    .where(
      inArray(
        messages.conversationId,
        owned.map((c) => c.id),
      ),
    )
    .orderBy(asc(messages.createdAt));
  return owned.map((conversation) => ({
    conversation,
    messages: rows.filter((m) => m.conversationId === conversation.id),
  }));
}

/** The ratings a user gave to replies, with their comments. */
export async function feedbackOfUser(db: Db, userId: string) {
  return db
    .select({
      messageId: feedback.messageId,
      rating: feedback.rating,
      comment: feedback.comment,
      createdAt: feedback.createdAt,
    })
    .from(feedback)
    .where(eq(feedback.userId, userId))
    .orderBy(asc(feedback.createdAt));
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
