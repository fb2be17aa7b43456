import { and, desc, eq, exists, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { refreshTokens, sessions, type SessionRow } from '../db/schema';

/** Where a session's request came from. */
export interface SeenFrom {
  userAgent: string;
  address: string;
}

/** A new session (insert) or a refresh of one (last seen now, from where the refresh came). */
export async function touchSession(db: Db, id: string, userId: string, seen: SeenFrom): Promise<void> {
  await db
    .insert(sessions)
    .values({ id, userId, ...seen })
    .onConflictDoUpdate({ target: sessions.id, set: { ...seen, lastSeenAt: sql`now()` } });
}

/** A refresh token of the session that still works: the session is alive. */
const alive = (db: Db) =>
  db
    .select({ one: sql`1` })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, sessions.id),
        isNull(refreshTokens.revokedAt),
        isNull(refreshTokens.usedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    );

/** A user's live sessions, the most recently seen first. */
export async function liveSessions(db: Db, userId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), exists(alive(db))))
    .orderBy(desc(sessions.lastSeenAt));
}

/** One live session of this user (another person's is not found). */
export async function findLiveSession(db: Db, userId: string, id: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), exists(alive(db))));
  return row;
}
