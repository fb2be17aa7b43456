import { and, eq, getTableColumns, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { PeaksDto, SpeakerInfo, SpeakerSegment } from '@earshot/contracts';
import { transcripts, type NewTranscriptRow, type StoredSegments, type TranscriptRow } from '../db/schema';

/** Everything but the peaks, which have their own route. */
export type TranscriptSummary = Omit<TranscriptRow, 'peaks'>;

const { peaks: _peaks, ...summaryColumns } = getTableColumns(transcripts);

/**
 * What a caller may see: one company's transcripts (all, for a null company) and, in a b2c
 * company, only those `owner` uploaded.
 */
export interface Scope {
  companyId: string | null;
  owner: string | null;
}

function scoped(condition: SQL | undefined, scope: Scope): SQL | undefined {
  return and(
    condition,
    scope.companyId ? eq(transcripts.companyId, scope.companyId) : undefined,
    scope.owner ? eq(transcripts.uploadedBy, scope.owner) : undefined,
  );
}

export async function insertFromUpload(tx: Db, row: NewTranscriptRow): Promise<boolean> {
  const rows = await tx.insert(transcripts).values(row).onConflictDoNothing().returning({ id: transcripts.id });
  return rows.length > 0;
}

export async function findByFile(db: Db, fileId: string, scope: Scope): Promise<TranscriptSummary | null> {
  const [row] = await db
    .select(summaryColumns)
    .from(transcripts)
    .where(scoped(eq(transcripts.fileId, fileId), scope))
    .limit(1);
  return row ?? null;
}

const { segments: _segments, ...headerColumns } = summaryColumns;

/**
 * As findByFile without the segments, which an export reads apart in pieces (readSegmentPieces):
 * whether they are sealed (one envelope object instead of an array), and the row's version (xmin,
 * new with every write of the row), which each piece is read at.
 */
export async function findHeader(
  db: Db,
  fileId: string,
  scope: Scope,
): Promise<(Omit<TranscriptSummary, 'segments'> & { sealed: boolean; rowVersion: string }) | null> {
  const [row] = await db
    .select({
      ...headerColumns,
      sealed: sql<boolean>`jsonb_typeof(${transcripts.segments}) = 'object'`,
      rowVersion: sql<string>`${transcripts}.xmin::text`,
    })
    .from(transcripts)
    .where(scoped(eq(transcripts.fileId, fileId), scope))
    .limit(1);
  return row ?? null;
}

/** Segments per read of a plain transcript's pieces: some 540 KB of JSON text. */
const SEGMENTS_PER_PIECE = 2000;

/**
 * A transcript's segments in pieces of their stored text, each handed to `onPiece` as it is read,
 * until `signal` aborts: plain, the JSON text of SEGMENTS_PER_PIECE segments at a time without the
 * array's brackets (the pieces joined by commas are the array's elements); sealed, the sealed
 * value. False when the row is gone or was written since `rowVersion` (findHeader): its pieces do
 * not belong together.
 *
 * One statement per piece, no transaction: on PGlite the database runs on the event loop that
 * serves requests, and a transaction holds every other request's query until it ends. One
 * statement over the whole value (its JSON text, about 27 MB at 100,000 segments) held the loop
 * for a second there; one piece costs decompressing the value and writing a fiftieth of it, some
 * 150 to 300 ms on a loaded machine, and requests go between two pieces. A sealed value cannot be
 * cut without being read whole (about 0.9 s on PGlite at 100,000 segments), so it is read at once.
 */
export async function readSegmentPieces(
  db: Db,
  header: { fileId: string; sealed: boolean; rowVersion: string },
  onPiece: (piece: string) => void,
  signal: AbortSignal,
): Promise<boolean> {
  const { fileId, sealed, rowVersion } = header;
  const pieceAt = async (from: number) => {
    const piece = sealed
      ? sql`${transcripts.segments} ->> 'enc'`
      : sql`jsonb_path_query_array(${transcripts.segments}, ${`$[${from} to ${from + SEGMENTS_PER_PIECE - 1}]`}::jsonpath)::text`;
    const [row] = await db
      .select({ piece: sql<string>`${piece}`, rowVersion: sql<string>`${transcripts}.xmin::text` })
      .from(transcripts)
      .where(eq(transcripts.fileId, fileId));
    return row?.rowVersion === rowVersion ? row.piece : null;
  };
  if (sealed) {
    const piece = await pieceAt(0);
    if (piece === null) return false;
    onPiece(piece);
    return true;
  }
  for (let from = 0; !signal.aborted; from += SEGMENTS_PER_PIECE) {
    const piece = await pieceAt(from);
    if (piece === null) return false;
    if (piece === '[]') break;
    onPiece(piece.slice(1, -1));
    // PGlite answers without giving the event loop a turn: requests go between two pieces.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return true;
}

/** By transcript id or by file id (the files list links with the file id). */
export async function findByEitherId(db: Db, id: string, scope: Scope): Promise<TranscriptSummary | null> {
  const [row] = await db
    .select(summaryColumns)
    .from(transcripts)
    .where(scoped(or(eq(transcripts.id, id), eq(transcripts.fileId, id)), scope))
    .limit(1);
  return row ?? null;
}

export async function findPeaks(db: Db, fileId: string, scope: Scope): Promise<{ peaks: PeaksDto | null } | null> {
  const [row] = await db
    .select({ peaks: transcripts.peaks })
    .from(transcripts)
    .where(scoped(eq(transcripts.fileId, fileId), scope))
    .limit(1);
  return row ?? null;
}

/**
 * File facts the worker needs to fetch and recognise the audio: the language declared at upload
 * (`auto` included), the speaker count it gave, and the company's language, from the projection search keeps of company events.
 */
export async function findSource(
  db: Db,
  fileId: string,
): Promise<{
  id: string;
  storageKey: string;
  mimeType: string;
  originalName: string;
  language: string | null;
  companyLanguage: string | null;
  expectedSpeakers: number | null;
} | null> {
  const [row] = await db
    .select({
      id: transcripts.id,
      storageKey: transcripts.storageKey,
      mimeType: transcripts.mimeType,
      originalName: transcripts.originalName,
      language: transcripts.language,
      expectedSpeakers: transcripts.expectedSpeakers,
      companyLanguage: sql<
        string | null
      >`(select l.language from transcription.search_company_languages l where l.id = ${transcripts.companyId})`,
    })
    .from(transcripts)
    .where(eq(transcripts.fileId, fileId))
    .limit(1);
  return row ?? null;
}

export interface TranscriptResult {
  engine: string;
  duration: number;
  speakers: SpeakerInfo[];
  segments: SpeakerSegment[];
  peaks: PeaksDto;
  /** The model's name: AI Configuration's or the Whisper model's (null: PocketSphinx or the server's OpenAI setting). */
  model?: string | null;
  /** The language recognised: the one asked for, or the one the engine detected (null: unknown). */
  language?: string | null;
}

/** The result as stored: its segments sealed when the company encrypts (services/words-encryption.ts). */
export async function saveResult(
  tx: Db,
  fileId: string,
  result: Omit<TranscriptResult, 'segments'> & { segments: StoredSegments },
): Promise<{ id: string; originalName: string }> {
  const [row] = await tx
    .update(transcripts)
    .set({
      ...result,
      // A re-transcription replaces every word: it counts as a change of the transcript, so an
      // editor still holding the words it replaced is refused (409 stale) instead of editing them.
      editVersion: sql`case when ${transcripts.completedAt} is null then ${transcripts.editVersion} else ${transcripts.editVersion} + 1 end`,
      completedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(transcripts.fileId, fileId))
    .returning({ id: transcripts.id, originalName: transcripts.originalName });
  return row!;
}

export async function setClient(tx: Db, id: string, clientId: string | null): Promise<void> {
  await tx
    .update(transcripts)
    .set({ clientId, updatedAt: sql`now()` })
    .where(eq(transcripts.id, id));
}

export async function remove(tx: Db, fileId: string): Promise<boolean> {
  const rows = await tx.delete(transcripts).where(eq(transcripts.fileId, fileId)).returning({ id: transcripts.id });
  return rows.length > 0;
}

/** The file ids of a company's transcripts, oldest first (the background encryption's work list). */
export async function companyFileIds(db: Db, companyId: string): Promise<string[]> {
  const rows = await db
    .select({ fileId: transcripts.fileId })
    .from(transcripts)
    .where(eq(transcripts.companyId, companyId))
    .orderBy(transcripts.uploadedAt, transcripts.fileId);
  return rows.map((r) => r.fileId);
}

/** A transcript's segments as stored, its row locked until the transaction ends. */
export async function lockStoredSegments(tx: Db, fileId: string): Promise<{ segments: StoredSegments } | null> {
  const [row] = await tx
    .select({ segments: transcripts.segments })
    .from(transcripts)
    .where(eq(transcripts.fileId, fileId))
    .for('update');
  return row ?? null;
}

/** Replaces the stored segments without touching updated_at: the words did not change, only their form. */
export async function writeSegments(tx: Db, fileId: string, segments: StoredSegments): Promise<void> {
  await tx.update(transcripts).set({ segments }).where(eq(transcripts.fileId, fileId));
}
