import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { analysisRuns } from '../db/schema';

/** The analysis runs a user asked for, in their company. */
export async function runsRequestedBy(db: Db, companyId: string, userId: string): Promise<(typeof analysisRuns.$inferSelect)[]> {
  return db.select().from(analysisRuns).where(and(eq(analysisRuns.companyId, companyId), eq(analysisRuns.requestedBy, userId))).orderBy(asc(analysisRuns.createdAt));
}
