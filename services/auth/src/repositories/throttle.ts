import { and, gt, inArray, eq, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { signInThrottle } from '../db/schema';

export interface ThrottlePolicy {
  /** Failures within the window that trigger a lock. */
  limit: number;
  windowSeconds: number;
  lockSeconds: number;
}

/** Seconds until the longest lock among these keys ends; 0 when none is locked. */
export async function lockedFor(db: Db, keys: string[]): Promise<number> {
  const [row] = await db
    .select({ seconds: sql<string | null>`extract(epoch from max(${signInThrottle.lockedUntil}) - now())` })
    .from(signInThrottle)
    .where(and(inArray(signInThrottle.key, keys), gt(signInThrottle.lockedUntil, sql`now()`)));
  return row?.seconds ? Math.ceil(Number(row.seconds)) : 0;
}

/**
 * Counts one failure for a key (row-locked, so replicas count together). Reaching the limit locks
 * the key and starts a fresh count, so a lock is never extended by one more stray failure.
 */
export async function recordFailure(db: Db, key: string, policy: ThrottlePolicy): Promise<void> {
  await db
    .insert(signInThrottle)
    .values({ key, failures: 0, windowStartedAt: sql`now()` })
    .onConflictDoNothing();
  const [row] = await db
    .select({
      failures: signInThrottle.failures,
      expired: sql<boolean>`${signInThrottle.windowStartedAt} <= now() - make_interval(secs => ${policy.windowSeconds})`,
    })
    .from(signInThrottle)
    .where(eq(signInThrottle.key, key))
    .for('update');
  const failures = row && !row.expired ? row.failures + 1 : 1;
  const windowStartedAt = row && !row.expired ? undefined : sql`now()`;
  if (failures >= policy.limit) {
    await db
      .update(signInThrottle)
      .set({
        failures: 0,
        windowStartedAt: sql`now()`,
        lockedUntil: sql`now() + make_interval(secs => ${policy.lockSeconds})`,
      })
      .where(eq(signInThrottle.key, key));
  } else {
    await db
      .update(signInThrottle)
      .set({ failures, ...(windowStartedAt ? { windowStartedAt } : {}) })
      .where(eq(signInThrottle.key, key));
  }
}

export async function clearKey(db: Db, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}

export async function purgeStale(db: Db): Promise<void> {
  await db
    .delete(signInThrottle)
    .where(
      and(
        sql`${signInThrottle.windowStartedAt} < now() - interval '1 day'`,
        sql`(${signInThrottle.lockedUntil} is null or ${signInThrottle.lockedUntil} < now())`,
      ),
    );
}
