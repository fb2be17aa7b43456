import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { recoveryCodes } from '../db/schema';

/** Replaces a user's recovery codes (turning two-step on again makes a new set). */
export async function replaceRecoveryCodes(db: Db, userId: string, codeHashes: readonly string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (codeHashes.length) await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses an unused code, atomically: of two requests with the same code only one gets true. */
export async function consumeRecoveryCode(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ codeHash: recoveryCodes.codeHash });
  return rows.length > 0;
}
