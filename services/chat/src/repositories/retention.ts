import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { conversations, type ConversationRow } from '../db/schema';

/** A conversation's last activity: its last message, or a rename, or its start. */
const lastActivity = sql`greatest(${conversations.updatedAt}, coalesce(${conversations.lastMessageAt}, ${conversations.createdAt}))`;

/**
 * Up to `limit` of the company's conversations last active before `before`, oldest first, locked
 * (a conversation being written to is skipped rather than waited for). One whose reply is under
 * way is not due.
 */
export async function lockDueConversations(
  tx: Db,
  companyId: string,
  before: Date,
  limit: number,
): Promise<ConversationRow[]> {
  return tx
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.companyId, companyId),
        lt(lastActivity, before),
        or(isNull(conversations.replyingSince), lt(conversations.replyingSince, before)),
      ),
    )
    .orderBy(asc(lastActivity), asc(conversations.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}
