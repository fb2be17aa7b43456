import { and, asc, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { edits, transcripts, type TranscriptRow } from '../db/schema';

/** The transcripts about one person in one company: of the recordings a user uploaded, or of the calls linked to a client. */
export async function transcriptsOfPerson(
  db: Db,
  companyId: string,
  person: { uploadedBy: string } | { clientId: string },
): Promise<TranscriptRow[]> {
  const whose =
    'uploadedBy' in person ? eq(transcripts.uploadedBy, person.uploadedBy) : eq(transcripts.clientId, person.clientId);
  return db
    .select()
    .from(transcripts)
    .where(and(eq(transcripts.companyId, companyId), whose))
    .orderBy(asc(transcripts.uploadedAt));
}

/**
 * A client's calls as an erasure sees them: linked to the client, or unlinked because the client
 * was deleted (client.deleted may reach this service before the erasure that caused it) and not
 * linked to another client since.
 */
const callsOfClient = (clientId: string): SQL =>
  or(
    eq(transcripts.clientId, clientId),
    and(isNull(transcripts.clientId), eq(transcripts.unlinkedClientId, clientId)),
  )!;

/** The person's transcripts locked, in their company (the recordings an erasure deletes). */
export async function lockTranscriptsOfPerson(
  tx: Db,
  companyId: string,
  person: { uploadedBy: string } | { clientId: string },
): Promise<Pick<TranscriptRow, 'id' | 'fileId' | 'companyId' | 'clientId' | 'unlinkedClientId'>[]> {
  const whose = 'uploadedBy' in person ? eq(transcripts.uploadedBy, person.uploadedBy) : callsOfClient(person.clientId);
  return tx
    .select({
      id: transcripts.id,
      fileId: transcripts.fileId,
      companyId: transcripts.companyId,
      clientId: transcripts.clientId,
      unlinkedClientId: transcripts.unlinkedClientId,
    })
    .from(transcripts)
    .where(and(eq(transcripts.companyId, companyId), whose))
    .orderBy(asc(transcripts.fileId))
    .for('update');
}

/** Recordings kept under the company: a deleted client's id, remembered for its erasure, is forgotten; how many. */
export async function forgetUnlinkedClient(tx: Db, companyId: string, clientId: string): Promise<number> {
  return (
    await tx
      .update(transcripts)
      .set({ unlinkedClientId: null })
      .where(and(eq(transcripts.companyId, companyId), eq(transcripts.unlinkedClientId, clientId)))
      .returning({ id: transcripts.id })
  ).length;
}

/** A user's transcripts kept under their company without them as uploader; how many. */
export async function forgetUploader(tx: Db, companyId: string, userId: string): Promise<number> {
  return (
    await tx
      .update(transcripts)
      .set({ uploadedBy: null })
      .where(and(eq(transcripts.companyId, companyId), eq(transcripts.uploadedBy, userId)))
      .returning({ id: transcripts.id })
  ).length;
}

/**
 * The edits a user made in their company, their name and id taken off (the edit itself stays, for
 * undo and history), and the edits they undid no longer theirs to redo; how many they made.
 */
export async function anonymiseEdits(tx: Db, companyId: string, userId: string): Promise<number> {
  await tx
    .update(edits)
    .set({ undoneBy: null })
    .where(and(eq(edits.companyId, companyId), eq(edits.undoneBy, userId)));
  return (
    await tx
      .update(edits)
      .set({ actorId: null, actorName: null })
      .where(and(eq(edits.companyId, companyId), eq(edits.actorId, userId)))
      .returning({ id: edits.id })
  ).length;
}
