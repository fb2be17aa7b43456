import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { transcripts, type TranscriptRow } from '../db/schema';

/** The transcripts about one person in one company: of the recordings a user uploaded, or of the calls linked to a client. */
export async function transcriptsOfPerson(db: Db, companyId: string, person: { uploadedBy: string } | { clientId: string }): Promise<TranscriptRow[]> {
  const whose = 'uploadedBy' in person ? eq(transcripts.uploadedBy, person.uploadedBy) : eq(transcripts.clientId, person.clientId);
  return db.select().from(transcripts).where(and(eq(transcripts.companyId, companyId), whose)).orderBy(asc(transcripts.uploadedAt));
}
