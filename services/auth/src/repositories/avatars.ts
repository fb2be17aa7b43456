import { eq, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { avatars, type AvatarRow } from '../db/schema';

/** Sets a user's picture; answers when it was stored (its URL's version). */
export async function putAvatar(db: Db, userId: string, content: Buffer, contentType: string): Promise<Date> {
  const [row] = await db
    .insert(avatars)
    .values({ userId, content, contentType })
    .onConflictDoUpdate({ target: avatars.userId, set: { content, contentType, updatedAt: sql`now()` } })
    .returning({ updatedAt: avatars.updatedAt });
  return row!.updatedAt;
}

export async function deleteAvatar(db: Db, userId: string): Promise<void> {
  await db.delete(avatars).where(eq(avatars.userId, userId));
}

export async function findAvatar(db: Db, userId: string): Promise<AvatarRow | undefined> {
  const [row] = await db.select().from(avatars).where(eq(avatars.userId, userId));
  return row;
}
