import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import { afterRow, sortKey, type Db, type PageEnd } from '@earshot/kit';
import { analysisRuns, dashboardCalls, transcripts } from '../db/schema';

/** A page of the analysis runs a user asked for, in their company, oldest first, after `after`; each with its sort key. */
export async function runsRequestedBy(
  db: Db,
  companyId: string,
  userId: string,
  page: { after: PageEnd | null; limit: number },
): Promise<(typeof analysisRuns.$inferSelect & PageEnd)[]> {
  const after = afterRow(analysisRuns.createdAt, analysisRuns.id, page.after);
  return db
    .select({ ...getTableColumns(analysisRuns), sortKey: sortKey(analysisRuns.createdAt) })
    .from(analysisRuns)
    .where(and(eq(analysisRuns.companyId, companyId), eq(analysisRuns.requestedBy, userId), after))
    .orderBy(asc(analysisRuns.createdAt), asc(analysisRuns.id))
    .limit(page.limit);
}

/** The analysis runs a user asked for, in their company, removed; how many. */
export async function deleteRunsRequestedBy(tx: Db, companyId: string, userId: string): Promise<number> {
  return (
    await tx
      .delete(analysisRuns)
      .where(and(eq(analysisRuns.companyId, companyId), eq(analysisRuns.requestedBy, userId)))
      .returning({ id: analysisRuns.id })
  ).length;
}

/** The same runs kept for the company without saying who asked; how many. */
export async function anonymiseRunsRequestedBy(tx: Db, companyId: string, userId: string): Promise<number> {
  return (
    await tx
      .update(analysisRuns)
      .set({ requestedBy: null })
      .where(and(eq(analysisRuns.companyId, companyId), eq(analysisRuns.requestedBy, userId)))
      .returning({ id: analysisRuns.id })
  ).length;
}

/** The copies of a user's recordings (the transcript copy, the dashboards' calls) kept without them; how many recordings. */
export async function forgetUploader(tx: Db, companyId: string, userId: string): Promise<number> {
  await tx
    .update(dashboardCalls)
    .set({ uploadedBy: null })
    .where(and(eq(dashboardCalls.companyId, companyId), eq(dashboardCalls.uploadedBy, userId)));
  await tx
    .update(dashboardCalls)
    .set({ agentId: null })
    .where(and(eq(dashboardCalls.companyId, companyId), eq(dashboardCalls.agentId, userId)));
  return (
    await tx
      .update(transcripts)
      .set({ uploadedBy: null })
      .where(and(eq(transcripts.companyId, companyId), eq(transcripts.uploadedBy, userId)))
      .returning({ fileId: transcripts.fileId })
  ).length;
}
