import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { conversations, feedback, messages, type MessageRow, type NewMessageRow } from '../db/schema';

export type MessageWithFeedback = MessageRow & { rating: 'up' | 'down' | null; comment: string | null };

export async function insert(tx: Db, row: NewMessageRow): Promise<MessageRow> {
  const [created] = await tx.insert(messages).values(row).returning();
  return created!;
}

/** A conversation's messages in order, each with `userId`'s own feedback. */
export async function listWithFeedback(db: Db, conversationId: string, userId: string): Promise<MessageWithFeedback[]> {
  return db
    .select({
      id: messages.id,
      conversationId: messages.conversationId,
      role: messages.role,
      content: messages.content,
      status: messages.status,
      model: messages.model,
      providerId: messages.providerId,
      error: messages.error,
      citations: messages.citations,
      usage: messages.usage,
      createdAt: messages.createdAt,
      rating: feedback.rating,
      comment: feedback.comment,
    })
    .from(messages)
    .leftJoin(feedback, and(eq(feedback.messageId, messages.id), eq(feedback.userId, userId)))
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** The latest messages, newest first: what a model is given as the conversation so far. */
export async function latest(db: Db, conversationId: string, limit: number): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), ne(messages.status, 'failed')))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
}

/** The last message of the conversation, whatever its role. */
export async function last(tx: Db, conversationId: string): Promise<MessageRow | null> {
  const [row] = await tx
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row ?? null;
}

export async function remove(tx: Db, id: string): Promise<void> {
  await tx.delete(messages).where(eq(messages.id, id));
}

export async function setContent(tx: Db, id: string, content: string): Promise<void> {
  await tx.update(messages).set({ content }).where(eq(messages.id, id));
}

/** A message in a conversation that `ownerId` owns, with the conversation's company. */
export async function findOwned(
  db: Db,
  id: string,
  ownerId: string,
): Promise<{ id: string; role: MessageRow['role']; conversationId: string; companyId: string | null } | null> {
  const [row] = await db
    .select({
      id: messages.id,
      role: messages.role,
      conversationId: messages.conversationId,
      companyId: conversations.companyId,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, id), eq(conversations.ownerId, ownerId)))
    .limit(1);
  return row ?? null;
}
