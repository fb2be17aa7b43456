import { and, asc, eq, gt, inArray, isNull, lt, ne, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import {
  endedSessions,
  passwordResets,
  refreshTokens,
  sessions,
  twoStepChallenges,
  users,
  type ChallengePurpose,
  type RefreshTokenRow,
  type ResetPurpose,
} from '../db/schema';

// Refresh tokens ---------------------------------------------------------------------------------

export async function insertRefreshToken(
  db: Db,
  token: { tokenHash: string; familyId: string; userId: string; remember: boolean; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(token);
}

/** Marks a live token used, atomically: only one of two concurrent refreshes gets the row back. */
export async function consumeRefreshToken(db: Db, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row;
}

export async function findRefreshToken(db: Db, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** Remembers, sealed, what a used token was rotated into (for the grace window). */
export async function recordSuccessor(db: Db, tokenHash: string, successorSealed: string): Promise<void> {
  await db.update(refreshTokens).set({ successorSealed }).where(eq(refreshTokens.tokenHash, tokenHash));
}

/** A token used within the last `seconds`, in a family still alive: a second tab refreshing at once. */
export async function usedWithin(db: Db, tokenHash: string, seconds: number): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.usedAt, sql`now() - make_interval(secs => ${seconds})`),
      ),
    );
  return row;
}

const distinct = (rows: { familyId: string }[]) => [...new Set(rows.map((r) => r.familyId))];

/** Revokes one session; returns its id when it was still alive. */
export async function revokeFamily(db: Db, familyId: string): Promise<string[]> {
  return distinct(
    await db
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
      .returning({ familyId: refreshTokens.familyId }),
  );
}

/** Ends every session of a user, except the family given (the caller's own session); returns their ids. */
export async function revokeUserSessions(db: Db, userId: string, exceptFamilyId?: string): Promise<string[]> {
  return distinct(
    await db
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.revokedAt),
          exceptFamilyId ? ne(refreshTokens.familyId, exceptFamilyId) : undefined,
        ),
      )
      .returning({ familyId: refreshTokens.familyId }),
  );
}

/** Ends the sessions of everyone in a company; returns their ids. */
export async function revokeCompanySessions(db: Db, companyId: string): Promise<string[]> {
  return distinct(
    await db
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          isNull(refreshTokens.revokedAt),
          inArray(refreshTokens.userId, db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId))),
        ),
      )
      .returning({ familyId: refreshTokens.familyId }),
  );
}

// Ended sessions ---------------------------------------------------------------------------------

export async function insertEndedSessions(db: Db, sessionIds: readonly string[], until: Date): Promise<void> {
  if (sessionIds.length === 0) return;
  await db
    .insert(endedSessions)
    .values(sessionIds.map((sessionId) => ({ sessionId, until })))
    .onConflictDoUpdate({
      target: endedSessions.sessionId,
      set: { until: sql`greatest(${endedSessions.until}, excluded.until)` },
    });
}

/** Sessions whose tokens may still be presented (what a verifier must refuse after a restart). */
export async function liveEndedSessions(db: Db): Promise<{ sessionId: string; until: Date }[]> {
  return db
    .select()
    .from(endedSessions)
    .where(gt(endedSessions.until, sql`now()`));
}

// Pending sign-ins (two-step code, or the new password replacing a one-time one) -----------------

export async function insertChallenge(
  db: Db,
  challenge: { tokenHash: string; userId: string; remember: boolean; expiresAt: Date; purpose: ChallengePurpose },
): Promise<void> {
  await db.insert(twoStepChallenges).values(challenge);
}

/** A live challenge of that purpose (a two-step challenge never lets someone set a password, and back). */
export async function findChallenge(db: Db, tokenHash: string, purpose: ChallengePurpose) {
  const [row] = await db
    .select()
    .from(twoStepChallenges)
    .where(
      and(
        eq(twoStepChallenges.tokenHash, tokenHash),
        eq(twoStepChallenges.purpose, purpose),
        gt(twoStepChallenges.expiresAt, sql`now()`),
      ),
    );
  return row;
}

export async function deleteChallenge(db: Db, tokenHash: string): Promise<void> {
  await db.delete(twoStepChallenges).where(eq(twoStepChallenges.tokenHash, tokenHash));
}

// Password resets --------------------------------------------------------------------------------

export async function insertReset(
  db: Db,
  reset: { tokenHash: string; userId: string; expiresAt: Date; purpose?: ResetPurpose },
): Promise<void> {
  await db.insert(passwordResets).values(reset);
}

/** Voids all but the newest `keep` live reset links of a user (the user row is locked by the caller). */
export async function keepNewestResets(db: Db, userId: string, keep: number): Promise<void> {
  const live = await db
    .select({ tokenHash: passwordResets.tokenHash })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.userId, userId),
        eq(passwordResets.purpose, 'reset'),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    )
    .orderBy(asc(passwordResets.createdAt));
  const stale = live.slice(0, Math.max(0, live.length - keep)).map((r) => r.tokenHash);
  if (stale.length)
    await db
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(inArray(passwordResets.tokenHash, stale));
}

/** Uses a live reset token, atomically (single use). */
export async function consumeReset(db: Db, tokenHash: string) {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row;
}

/** Once a password changed, older reset links must not work any more. */
export async function voidResets(db: Db, userId: string): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** When each of these users' live invitation link expires (users without one are left out). */
export async function liveInvitations(db: Db, userIds: readonly string[]): Promise<Map<string, Date>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({
      userId: passwordResets.userId,
      expiresAt: sql<Date>`max(${passwordResets.expiresAt})`.mapWith(passwordResets.expiresAt),
    })
    .from(passwordResets)
    .where(
      and(
        inArray(passwordResets.userId, [...userIds]),
        eq(passwordResets.purpose, 'invitation'),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    )
    .groupBy(passwordResets.userId);
  return new Map(rows.map((r) => [r.userId, r.expiresAt]));
}

/** Housekeeping: rows nobody can use any more. */
export async function purgeExpired(db: Db): Promise<void> {
  const dayAgo = sql`now() - interval '1 day'`;
  await db.delete(refreshTokens).where(or(lt(refreshTokens.expiresAt, dayAgo), lt(refreshTokens.revokedAt, dayAgo)));
  await db.delete(twoStepChallenges).where(lt(twoStepChallenges.expiresAt, sql`now()`));
  await db.delete(passwordResets).where(lt(passwordResets.expiresAt, dayAgo));
  await db.delete(endedSessions).where(lt(endedSessions.until, sql`now()`));
  // A session whose refresh tokens are all gone has nothing left to list.
  await db.delete(sessions).where(
    notExists(
      db
        .select({ one: sql`1` })
        .from(refreshTokens)
        .where(eq(refreshTokens.familyId, sessions.id)),
    ),
  );
}
