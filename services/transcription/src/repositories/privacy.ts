import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { edits, transcripts, type TranscriptRow } from '../db/schema';

/** The transcripts about one person in one company: of the recordings a user uploaded, or of the calls linked to a client. */
export async function transcriptsOfPerson(db: Db, companyId: string, person: { uploadedBy: string } | { clientId: string }): Promise<TranscriptRow[]> {
  const whose = 'uploadedBy' in person ? eq(transcripts.uploadedBy, person.uploadedBy) : eq(transcripts.clientId, person.clientId);
  return db.select().from(transcripts).where(and(eq(transcripts.companyId, companyId), whose)).orderBy(asc(transcripts.uploadedAt));
}

/** The person's transcripts locked, in their company (the recordings an erasure deletes). */
export async function lockTranscriptsOfPerson(tx: Db, companyId: string, person: { uploadedBy: string } | { clientId: string }): Promise<Pick<TranscriptRow, 'fileId' | 'companyId' | 'clientId'>[]> {
  const whose = 'uploadedBy' in person ? eq(transcripts.uploadedBy, person.uploadedBy) : eq(transcripts.clientId, person.clientId);
  return tx.select({ fileId: transcripts.fileId, companyId: transcripts.companyId, clientId: transcripts.clientId })
    .from(transcripts).where(and(eq(transcripts.companyId, companyId), whose)).orderBy(asc(transcripts.fileId)).for('update');
}

/** A user's transcripts kept under their company without them as uploader; how many. */
export async function forgetUploader(tx: Db, companyId: string, userId: string): Promise<number> {
  return (await tx.update(transcripts).set({ uploadedBy: null }).where(and(eq(transcripts.companyId, companyId), eq(transcripts.uploadedBy, userId))).returning({ id: transcripts.id })).length;
}

/** The edits a user made in their company, their name and id taken off (the edit itself stays, for undo and history); how many. */
export async function anonymiseEdits(tx: Db, companyId: string, userId: string): Promise<number> {
  return (await tx.update(edits).set({ actorId: null, actorName: null }).where(and(eq(edits.companyId, companyId), eq(edits.actorId, userId))).returning({ id: edits.id })).length;
}
