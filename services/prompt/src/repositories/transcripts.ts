import { and, asc, eq, inArray, notLike, sql } from 'drizzle-orm';
import type { CallMetricsDto, TranscriptSegmentFact } from '@earshot/contracts';
import { FIELD_PREFIX, type Db } from '@earshot/kit';
import {
  clients,
  companyLanguages,
  transcriptSegments,
  transcripts,
  type SegmentRow,
  type TranscriptRow,
} from '../db/schema';

// Bound parameters per statement stay far below PostgreSQL's 65,535 even for long recordings.
const INSERT_BATCH = 500;

/** A file as uploaded (file.uploaded): its company, name, client, date and uploader. */
export async function upsertFile(
  tx: Db,
  row: {
    fileId: string;
    companyId: string;
    fileName: string;
    clientId: string | null;
    recordedAt: Date;
    uploadedBy: string | null;
  },
): Promise<void> {
  await tx
    .insert(transcripts)
    .values(row)
    .onConflictDoUpdate({
      target: transcripts.fileId,
      set: {
        companyId: row.companyId,
        clientId: row.clientId,
        recordedAt: row.recordedAt,
        uploadedBy: row.uploadedBy,
        fileName: sql`coalesce(nullif(${transcripts.fileName}, ''), ${row.fileName})`,
      },
    });
}

/** A completed transcript replaces the file's earlier text; its own arrives in `parts` parts. */
export async function completeTranscript(
  tx: Db,
  row: {
    fileId: string;
    companyId: string;
    transcriptId: string;
    fileName: string;
    duration: number;
    parts: number;
    completedAt: Date;
  },
): Promise<void> {
  const values = { ...row, partsReceived: [] as number[], metrics: null };
  await tx
    .insert(transcripts)
    .values({ ...values, recordedAt: row.completedAt })
    .onConflictDoUpdate({
      target: transcripts.fileId,
      set: { ...values, fileName: row.fileName ? row.fileName : sql`${transcripts.fileName}` },
    });
  await tx.delete(transcriptSegments).where(eq(transcriptSegments.fileId, row.fileId));
}

/** Adds one part of the current transcript's text; a part of an older run, or one already there, changes nothing. Returns the row when the text is now whole. */
export async function addPart(
  tx: Db,
  fileId: string,
  transcriptId: string,
  part: number,
  segments: readonly TranscriptSegmentFact[],
): Promise<TranscriptRow | undefined> {
  const [row] = await tx
    .update(transcripts)
    .set({ partsReceived: sql`${transcripts.partsReceived} || ${part}::integer` })
    .where(
      and(
        eq(transcripts.fileId, fileId),
        eq(transcripts.transcriptId, transcriptId),
        sql`not (${part}::integer = any(${transcripts.partsReceived}))`,
      ),
    )
    .returning();
  if (!row) return undefined;
  await addSegments(tx, fileId, segments);
  return row.partsReceived.length >= row.parts ? row : undefined;
}

export async function addSegments(tx: Db, fileId: string, segments: readonly TranscriptSegmentFact[]): Promise<void> {
  const spoken = segments.filter((s) => s.text.trim());
  for (let i = 0; i < spoken.length; i += INSERT_BATCH) {
    await tx
      .insert(transcriptSegments)
      .values(
        spoken.slice(i, i + INSERT_BATCH).map((s) => ({
          fileId,
          segmentId: s.segmentId,
          speaker: s.speaker,
          start: s.start,
          end: s.end,
          text: s.text,
        })),
      )
      .onConflictDoNothing();
  }
}

/**
 * An edit of a transcript: `removed` segments go, `segments` are written over by id (text, times and
 * speaker name as the edit left them); segments without text are not kept. Idempotent.
 */
export async function applySegmentChanges(
  tx: Db,
  fileId: string,
  removed: readonly string[],
  segments: readonly TranscriptSegmentFact[],
): Promise<void> {
  const gone = [...removed, ...segments.filter((s) => !s.text.trim()).map((s) => s.segmentId)];
  for (let i = 0; i < gone.length; i += INSERT_BATCH) {
    await tx
      .delete(transcriptSegments)
      .where(
        and(
          eq(transcriptSegments.fileId, fileId),
          inArray(transcriptSegments.segmentId, gone.slice(i, i + INSERT_BATCH)),
        ),
      );
  }
  const spoken = segments.filter((s) => s.text.trim());
  for (let i = 0; i < spoken.length; i += INSERT_BATCH) {
    await tx
      .insert(transcriptSegments)
      .values(
        spoken.slice(i, i + INSERT_BATCH).map((s) => ({
          fileId,
          segmentId: s.segmentId,
          speaker: s.speaker,
          start: s.start,
          end: s.end,
          text: s.text,
        })),
      )
      .onConflictDoUpdate({
        target: [transcriptSegments.fileId, transcriptSegments.segmentId],
        set: {
          speaker: sql`excluded.speaker`,
          start: sql`excluded.start`,
          end: sql`excluded."end"`,
          text: sql`excluded.text`,
        },
      });
  }
}

export async function saveMetrics(tx: Db, fileId: string, metrics: CallMetricsDto): Promise<void> {
  await tx.update(transcripts).set({ metrics }).where(eq(transcripts.fileId, fileId));
}

export async function updateSegmentText(tx: Db, fileId: string, segmentId: string, text: string): Promise<void> {
  await tx
    .update(transcriptSegments)
    .set({ text })
    .where(and(eq(transcriptSegments.fileId, fileId), eq(transcriptSegments.segmentId, segmentId)));
}

export async function linkClient(tx: Db, fileId: string, clientId: string | null): Promise<TranscriptRow | undefined> {
  const [row] = await tx.update(transcripts).set({ clientId }).where(eq(transcripts.fileId, fileId)).returning();
  return row;
}

export async function removeFile(tx: Db, fileId: string): Promise<void> {
  await tx.delete(transcriptSegments).where(eq(transcriptSegments.fileId, fileId));
  await tx.delete(transcripts).where(eq(transcripts.fileId, fileId));
}

/** The file when the caller's company may see it (`companyId` null: any company, the platform administrator). */
/** A file of the company (null: any company's) and, with an `owner` (a b2c member), one they uploaded. */
export async function findFile(
  db: Db,
  fileId: string,
  companyId: string | null,
  owner: string | null = null,
): Promise<TranscriptRow | undefined> {
  const [row] = await db
    .select()
    .from(transcripts)
    .where(
      and(
        eq(transcripts.fileId, fileId),
        companyId === null ? undefined : eq(transcripts.companyId, companyId),
        owner ? eq(transcripts.uploadedBy, owner) : undefined,
      ),
    );
  return row;
}

/** Whole text: completed, and every part of it received. */
export const isReady = (row: TranscriptRow) => row.completedAt !== null && row.partsReceived.length >= row.parts;

export async function segmentsOf(db: Db, fileId: string): Promise<SegmentRow[]> {
  return db
    .select()
    .from(transcriptSegments)
    .where(eq(transcriptSegments.fileId, fileId))
    .orderBy(asc(transcriptSegments.start), asc(transcriptSegments.end), asc(transcriptSegments.segmentId));
}

/** Per client, the newest event wins (a late update cannot bring back a deleted client). */
export async function saveClient(
  tx: Db,
  row: { id: string; companyId: string; name: string; deleted: boolean; updatedAt: Date },
): Promise<void> {
  await tx
    .insert(clients)
    .values(row)
    .onConflictDoUpdate({
      target: clients.id,
      set: { name: row.name, deleted: row.deleted, updatedAt: row.updatedAt },
      setWhere: sql`${clients.updatedAt} <= ${row.updatedAt}`,
    });
}

export async function clientName(db: Db, clientId: string | null): Promise<string | null> {
  if (!clientId) return null;
  const [row] = await db
    .select({ name: clients.name })
    .from(clients)
    .where(and(eq(clients.id, clientId), eq(clients.deleted, false)));
  return row?.name ?? null;
}

export async function saveCompanyLanguage(tx: Db, id: string, language: string | null, updatedAt: Date): Promise<void> {
  await tx
    .insert(companyLanguages)
    .values({ id, language, updatedAt })
    .onConflictDoUpdate({
      target: companyLanguages.id,
      set: { language, updatedAt },
      setWhere: sql`${companyLanguages.updatedAt} <= ${updatedAt}`,
    });
}

export async function companyLanguage(db: Db, companyId: string): Promise<string | null> {
  const [row] = await db
    .select({ language: companyLanguages.language })
    .from(companyLanguages)
    .where(eq(companyLanguages.id, companyId));
  return row?.language ?? null;
}

/** A company's segments whose text is not sealed (sealed text starts with FIELD_PREFIX). */
const plainOf = (companyId: string) =>
  and(
    sql`${transcriptSegments.fileId} in (select file_id from prompt.transcripts where company_id = ${companyId})`,
    notLike(transcriptSegments.text, `${FIELD_PREFIX}%`),
  );

/** A company's transcript text still stored in plain (before it turned encryption on). */
export async function countPlainSegments(db: Db, companyId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(transcriptSegments)
    .where(plainOf(companyId));
  return Number(row?.n ?? 0);
}

export async function plainSegments(
  db: Db,
  companyId: string,
  limit: number,
): Promise<{ fileId: string; segmentId: string; text: string }[]> {
  return db
    .select({
      fileId: transcriptSegments.fileId,
      segmentId: transcriptSegments.segmentId,
      text: transcriptSegments.text,
    })
    .from(transcriptSegments)
    .where(plainOf(companyId))
    .limit(limit);
}

/** Writes segments' sealed text over their plain text; one edited meanwhile (no longer `text`) is left for the next batch. */
export async function sealSegments(
  tx: Db,
  rows: readonly { fileId: string; segmentId: string; text: string; sealed: string }[],
): Promise<void> {
  for (const row of rows) {
    await tx
      .update(transcriptSegments)
      .set({ text: row.sealed })
      .where(
        and(
          eq(transcriptSegments.fileId, row.fileId),
          eq(transcriptSegments.segmentId, row.segmentId),
          eq(transcriptSegments.text, row.text),
        ),
      );
  }
}
