import { sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { feedback } from '../db/schema';

/** One rating per message and person: a second one replaces the first. */
export async function upsert(
  tx: Db,
  row: { id: string; messageId: string; userId: string; rating: 'up' | 'down'; comment: string | null },
) {
  const [saved] = await tx
    .insert(feedback)
    .values(row)
    .onConflictDoUpdate({
      target: [feedback.messageId, feedback.userId],
      set: { rating: row.rating, comment: row.comment, updatedAt: sql`now()` },
    })
    .returning();
  return saved!;
}
