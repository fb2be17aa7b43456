import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { afterRow, sortKey, type Db, type PageEnd } from '@earshot/kit';
import { edits, transcripts, type TranscriptRow } from '../db/schema';

/** What an export holds of a transcript besides its segments. */
const exportColumns = {
  id: transcripts.id,
  fileId: transcripts.fileId,
  companyId: transcripts.companyId,
  originalName: transcripts.originalName,
  uploadedBy: transcripts.uploadedBy,
  clientId: transcripts.clientId,
  uploadedAt: transcripts.uploadedAt,
  language: transcripts.language,
  duration: transcripts.duration,
  engine: transcripts.engine,
  completedAt: transcripts.completedAt,
  speakers: transcripts.speakers,
  /**
   * Whether the segments are read in one piece (segmentsTextOf): sealed ones (an envelope, opened
   * whole), and small ones (64 KB as stored, compressed), which one answer carries as cheaply as a
   * page; the others are read page by page (plainSegmentsOf).
   */
  whole: sql<boolean>`(jsonb_typeof(${transcripts.segments}) <> 'array' or pg_column_size(${transcripts.segments}) <= 65536)`,
};

/**
 * A page of the transcripts about one person in one company (of the recordings a user uploaded, or
 * of the calls linked to a client), oldest upload first, after `after`, each with its sort key;
 * without their segments, which may be large and are read apart (plainSegmentsOf, sealedSegmentsOf).
 */
export async function transcriptsOfPerson(
  db: Db,
  companyId: string,
  person: { uploadedBy: string } | { clientId: string },
  page: { after: PageEnd | null; limit: number },
) {
  const whose =
    'uploadedBy' in person ? eq(transcripts.uploadedBy, person.uploadedBy) : eq(transcripts.clientId, person.clientId);
  const after = afterRow(transcripts.uploadedAt, transcripts.id, page.after);
  return db
    .select({ ...exportColumns, sortKey: sortKey(transcripts.uploadedAt) })
    .from(transcripts)
    .where(and(eq(transcripts.companyId, companyId), whose, after))
    .orderBy(asc(transcripts.uploadedAt), asc(transcripts.id))
    .limit(page.limit);
}

/** A transcript's segments as their JSON text, as stored (sealed: the envelope, which the caller opens). */
export async function segmentsTextOf(db: Db, fileId: string): Promise<string> {
  const [row] = await db
    .select({ segments: sql<string>`${transcripts.segments}::text` })
    .from(transcripts)
    .where(eq(transcripts.fileId, fileId));
  return row?.segments ?? '[]';
}

/**
 * A plain transcript's segments, each as its JSON text, in pages of `limit`: read through a cursor
 * in the caller's transaction, so PostgreSQL reads the value once and each page arrives as a small
 * answer (a hundred thousand segments in one value are tens of MB, received and decoded in one go).
 */
export async function* plainSegmentsOf(tx: Db, fileId: string, limit = 1000): AsyncGenerator<string[]> {
  const cursor = sql.identifier(`segments_${randomUUID().replaceAll('-', '')}`);
  await tx.execute(sql`declare ${cursor} no scroll cursor for
    select s.segment::text as segment
    from ${transcripts} t cross join lateral jsonb_array_elements(t.segments) with ordinality as s(segment, n)
    where t.file_id = ${fileId} and jsonb_typeof(t.segments) = 'array'
    order by s.n`);
  try {
    for (;;) {
      const page = (await tx.execute(sql`fetch forward ${sql.raw(String(limit))} from ${cursor}`)) as unknown as {
        rows: { segment: string }[];
      };
      if (page.rows.length > 0) yield page.rows.map((row) => row.segment);
      if (page.rows.length < limit) return;
    }
  } finally {
    await tx.execute(sql`close ${cursor}`);
  }
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
