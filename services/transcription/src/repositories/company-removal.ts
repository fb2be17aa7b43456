import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clients, transcripts } from '../db/schema';

/** Deletes a company's transcripts (their jobs go with them: on delete cascade) and its client projection. */
export async function deleteCompanyTranscripts(tx: Db, companyId: string): Promise<void> {
  await tx.delete(transcripts).where(eq(transcripts.companyId, companyId));
  await tx.delete(clients).where(eq(clients.companyId, companyId));
}
