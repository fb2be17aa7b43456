import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clientRecordings, clients, companyFiles, companyMembers, companyRemovals } from '../db/schema';

/** Removes what this service holds for a deleted company, except the company row itself. */
export async function removeCompanyData(tx: Db, companyId: string): Promise<void> {
  await tx.delete(clients).where(eq(clients.companyId, companyId));
  await tx.delete(clientRecordings).where(eq(clientRecordings.companyId, companyId));
  await tx.delete(companyMembers).where(eq(companyMembers.companyId, companyId));
  await tx.delete(companyFiles).where(eq(companyFiles.companyId, companyId));
}

/** Records that a service removed the company's data; the services that have reported so far. */
export async function recordReport(tx: Db, companyId: string, service: string): Promise<string[]> {
  await tx.insert(companyRemovals).values({ companyId, service }).onConflictDoNothing();
  const rows = await tx
    .select({ service: companyRemovals.service })
    .from(companyRemovals)
    .where(eq(companyRemovals.companyId, companyId));
  return rows.map((r) => r.service);
}

export async function forgetReports(tx: Db, companyId: string): Promise<void> {
  await tx.delete(companyRemovals).where(eq(companyRemovals.companyId, companyId));
}
