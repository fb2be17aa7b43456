import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clients, conversations, recordings, transcriptSegments } from '../db/schema';

/**
 * Deletes a company's conversations (messages and feedback go with them: on delete cascade) and
 * its copies of the company's transcripts, recordings and clients.
 */
export async function deleteCompanyChats(tx: Db, companyId: string): Promise<void> {
  await tx.delete(conversations).where(eq(conversations.companyId, companyId));
  await tx.delete(transcriptSegments).where(eq(transcriptSegments.companyId, companyId));
  await tx.delete(recordings).where(eq(recordings.companyId, companyId));
  await tx.delete(clients).where(eq(clients.companyId, companyId));
}
