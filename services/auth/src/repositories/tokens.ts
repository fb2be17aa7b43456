import { and, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { passwordResets, refreshTokens, twoStepChallenges, users, type RefreshTokenRow } from '../db/schema';

// Refresh tokens ---------------------------------------------------------------------------------

export async function insertRefreshToken(db: Db, token: { tokenHash: string; familyId: string; userId: string; remember: boolean; expiresAt: Date }): Promise<void> {
  await db.insert(refreshTokens).values(token);
}

/** Marks a live token used, atomically: only one of two concurrent refreshes gets the row back. */
export async function consumeRefreshToken(db: Db, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const [row] = await db.update(refreshTokens).set({ usedAt: sql`now()` })
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, sql`now()`)))
    .returning();
  return row;
}

export async function findRefreshToken(db: Db, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: sql`now()` }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Ends every session of a user, except the family given (the caller's own session). */
export async function revokeUserSessions(db: Db, userId: string, exceptFamilyId?: string): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), exceptFamilyId ? ne(refreshTokens.familyId, exceptFamilyId) : undefined));
}

export async function revokeCompanySessions(db: Db, companyId: string): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: sql`now()` })
    .where(and(isNull(refreshTokens.revokedAt), inArray(refreshTokens.userId, db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId)))));
}

// Two-step challenges ----------------------------------------------------------------------------

export async function insertChallenge(db: Db, challenge: { tokenHash: string; userId: string; remember: boolean; expiresAt: Date }): Promise<void> {
  await db.insert(twoStepChallenges).values(challenge);
}

export async function findChallenge(db: Db, tokenHash: string) {
  const [row] = await db.select().from(twoStepChallenges).where(and(eq(twoStepChallenges.tokenHash, tokenHash), gt(twoStepChallenges.expiresAt, sql`now()`)));
  return row;
}

export async function deleteChallenge(db: Db, tokenHash: string): Promise<void> {
  await db.delete(twoStepChallenges).where(eq(twoStepChallenges.tokenHash, tokenHash));
}

// Password resets --------------------------------------------------------------------------------

export async function insertReset(db: Db, reset: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
  await db.insert(passwordResets).values(reset);
}

/** Uses a live reset token, atomically (single use). */
export async function consumeReset(db: Db, tokenHash: string) {
  const [row] = await db.update(passwordResets).set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
    .returning();
  return row;
}

/** Once a password changed, older reset links must not work any more. */
export async function voidResets(db: Db, userId: string): Promise<void> {
  await db.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Housekeeping: rows nobody can use any more. */
export async function purgeExpired(db: Db): Promise<void> {
  const dayAgo = sql`now() - interval '1 day'`;
  await db.delete(refreshTokens).where(or(lt(refreshTokens.expiresAt, dayAgo), lt(refreshTokens.revokedAt, dayAgo)));
  await db.delete(twoStepChallenges).where(lt(twoStepChallenges.expiresAt, sql`now()`));
  await db.delete(passwordResets).where(lt(passwordResets.expiresAt, dayAgo));
}
