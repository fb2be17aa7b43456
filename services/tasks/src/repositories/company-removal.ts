import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clients, feeds, members, proposals, recordings, reminders, tasks } from '../db/schema';

/** Everything this service holds for a company: its tasks, proposals, feeds, reminders and read models. */
export async function deleteCompanyData(tx: Db, companyId: string): Promise<void> {
  await tx.delete(reminders).where(eq(reminders.companyId, companyId));
  await tx.delete(tasks).where(eq(tasks.companyId, companyId));
  await tx.delete(proposals).where(eq(proposals.companyId, companyId));
  await tx.delete(feeds).where(eq(feeds.companyId, companyId));
  await tx.delete(recordings).where(eq(recordings.companyId, companyId));
  await tx.delete(clients).where(eq(clients.companyId, companyId));
  await tx.delete(members).where(eq(members.companyId, companyId));
}
