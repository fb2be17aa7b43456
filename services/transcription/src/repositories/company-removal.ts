import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { clients, members, transcripts } from '../db/schema';
import { forgetCompany } from './search';
import { forgetRedactionMode } from './redaction';

/** Deletes a company's transcripts (their jobs, edits and search rows go with them: on delete cascade), its client and member projections, search language and redaction mode. */
export async function deleteCompanyTranscripts(tx: Db, companyId: string): Promise<void> {
  await tx.delete(transcripts).where(eq(transcripts.companyId, companyId));
  await tx.delete(clients).where(eq(clients.companyId, companyId));
  await tx.delete(members).where(eq(members.companyId, companyId));
  await forgetCompany(tx, companyId);
  await forgetRedactionMode(tx, companyId);
}
