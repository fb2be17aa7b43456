import { and, count, desc, eq, exists, ilike, isNull, or, sql } from 'drizzle-orm';
import { PAGE_SIZE_MAX } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { conversations, messages, type ConversationRow } from '../db/schema';

/** A reply mark older than this belongs to a process that died mid-reply. */
const STALE_REPLY = sql`interval '15 minutes'`;

const newestFirst = [
  desc(sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`),
  desc(conversations.id),
];

const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function insert(
  tx: Db,
  row: {
    id: string;
    companyId: string | null;
    ownerId: string;
    title: string;
    fileId: string | null;
    customGptId?: string | null;
  },
): Promise<ConversationRow> {
  const [created] = await tx.insert(conversations).values(row).returning();
  return created!;
}

/** The conversation when `ownerId` owns it: nobody else, however privileged, can address it. */
export async function findOwned(db: Db, id: string, ownerId: string): Promise<ConversationRow | null> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.ownerId, ownerId)))
    .limit(1);
  return row ?? null;
}

/** The owner's conversations about one recording, newest activity first (a person keeps a handful). */
export async function listAboutFile(db: Db, ownerId: string, fileId: string): Promise<ConversationRow[]> {
  return db
    .select()
    .from(conversations)
    .where(and(eq(conversations.ownerId, ownerId), eq(conversations.fileId, fileId)))
    .orderBy(...newestFirst)
    .limit(PAGE_SIZE_MAX);
}

export async function listOwned(
  db: Db,
  ownerId: string,
  page: number,
  pageSize: number,
  search?: string,
): Promise<{ rows: ConversationRow[]; total: number }> {
  const pattern = search ? likePattern(search) : null;
  const where = and(
    eq(conversations.ownerId, ownerId),
    pattern
      ? or(
          ilike(conversations.title, pattern),
          exists(
            db
              .select({ one: sql`1` })
              .from(messages)
              .where(and(eq(messages.conversationId, conversations.id), ilike(messages.content, pattern))),
          ),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(conversations)
      .where(where)
      .orderBy(...newestFirst)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(conversations).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function rename(tx: Db, id: string, title: string): Promise<ConversationRow> {
  const [row] = await tx
    .update(conversations)
    .set({ title, updatedAt: sql`now()` })
    .where(eq(conversations.id, id))
    .returning();
  return row!;
}

/** Gives an untitled conversation its first title; false when it already had one. */
export async function titleIfUntitled(tx: Db, id: string, title: string): Promise<boolean> {
  const rows = await tx
    .update(conversations)
    .set({ title, updatedAt: sql`now()` })
    .where(and(eq(conversations.id, id), eq(conversations.title, '')))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

export async function touch(tx: Db, id: string): Promise<void> {
  await tx
    .update(conversations)
    .set({ lastMessageAt: sql`clock_timestamp()`, updatedAt: sql`now()` })
    .where(eq(conversations.id, id));
}

export async function remove(tx: Db, id: string): Promise<void> {
  await tx.delete(conversations).where(eq(conversations.id, id));
}

/** Marks a reply as being written; false when another one is under way. */
export async function claimReply(tx: Db, id: string): Promise<boolean> {
  const rows = await tx
    .update(conversations)
    .set({ replyingSince: sql`now()` })
    .where(
      and(
        eq(conversations.id, id),
        or(isNull(conversations.replyingSince), sql`${conversations.replyingSince} < now() - ${STALE_REPLY}`),
      ),
    )
    .returning({ id: conversations.id });
  return rows.length > 0;
}

export async function releaseReply(tx: Db, id: string): Promise<void> {
  await tx.update(conversations).set({ replyingSince: null }).where(eq(conversations.id, id));
}
