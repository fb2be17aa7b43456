import { and, eq, getTableColumns, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { PeaksDto, SpeakerInfo, SpeakerSegment, TranscriptWord } from '@earshot/contracts';
import { transcripts, type NewTranscriptRow, type TranscriptRow } from '../db/schema';

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
  return and(condition, scope.companyId ? eq(transcripts.companyId, scope.companyId) : undefined, scope.owner ? eq(transcripts.uploadedBy, scope.owner) : undefined);
}

export async function insertFromUpload(tx: Db, row: NewTranscriptRow): Promise<boolean> {
  const rows = await tx.insert(transcripts).values(row).onConflictDoNothing().returning({ id: transcripts.id });
  return rows.length > 0;
}

export async function findByFile(db: Db, fileId: string, scope: Scope): Promise<TranscriptSummary | null> {
  const [row] = await db.select(summaryColumns).from(transcripts).where(scoped(eq(transcripts.fileId, fileId), scope)).limit(1);
  return row ?? null;
}

/** By transcript id or by file id (the files list links with the file id). */
export async function findByEitherId(db: Db, id: string, scope: Scope): Promise<TranscriptSummary | null> {
  const [row] = await db.select(summaryColumns).from(transcripts)
    .where(scoped(or(eq(transcripts.id, id), eq(transcripts.fileId, id)), scope)).limit(1);
  return row ?? null;
}

export async function findPeaks(db: Db, fileId: string, scope: Scope): Promise<{ peaks: PeaksDto | null } | null> {
  const [row] = await db.select({ peaks: transcripts.peaks }).from(transcripts).where(scoped(eq(transcripts.fileId, fileId), scope)).limit(1);
  return row ?? null;
}

/** File facts the worker needs to fetch the audio. */
export async function findSource(db: Db, fileId: string): Promise<{ id: string; storageKey: string; originalName: string } | null> {
  const [row] = await db.select({ id: transcripts.id, storageKey: transcripts.storageKey, originalName: transcripts.originalName })
    .from(transcripts).where(eq(transcripts.fileId, fileId)).limit(1);
  return row ?? null;
}

export interface TranscriptResult {
  engine: string;
  duration: number;
  speakers: SpeakerInfo[];
  segments: SpeakerSegment[];
  peaks: PeaksDto;
}

export async function saveResult(tx: Db, fileId: string, result: TranscriptResult): Promise<{ id: string; originalName: string }> {
  const [row] = await tx.update(transcripts)
    .set({ ...result, completedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(transcripts.fileId, fileId))
    .returning({ id: transcripts.id, originalName: transcripts.originalName });
  return row!;
}

export interface LocatedWord {
  segmentIndex: number;
  wordIndex: number;
  words: TranscriptWord[];
}

/**
 * Finds a word inside its segment by ids, locking the transcript row so that two edits of the
 * same transcript apply one after the other. Null when any of the three ids is unknown.
 */
export async function locateWord(tx: Db, transcriptId: string, scope: Scope, segmentId: string, wordId: string): Promise<(LocatedWord & { fileId: string; companyId: string }) | null> {
  const [owner] = await tx.select({ fileId: transcripts.fileId, companyId: transcripts.companyId }).from(transcripts)
    .where(scoped(eq(transcripts.id, transcriptId), scope)).for('update');
  if (!owner) return null;
  const result = (await tx.execute(sql`
    select (s.ord - 1)::int as segment_index, (w.ord - 1)::int as word_index, s.seg -> 'words' as words
    from transcription.transcripts t,
         jsonb_array_elements(t.segments) with ordinality as s(seg, ord),
         jsonb_array_elements(s.seg -> 'words') with ordinality as w(word, ord)
    where t.id = ${transcriptId} and s.seg ->> '_id' = ${segmentId} and w.word ->> '_id' = ${wordId}
    limit 1`)) as unknown as { rows: { segment_index: number; word_index: number; words: TranscriptWord[] | string }[] };
  const hit = result.rows[0];
  if (!hit) return null;
  const words = typeof hit.words === 'string' ? (JSON.parse(hit.words) as TranscriptWord[]) : hit.words;
  return { ...owner, segmentIndex: Number(hit.segment_index), wordIndex: Number(hit.word_index), words };
}

/** Sets one word's text and its segment's text in place (no rewrite of the other segments). */
export async function writeWord(tx: Db, transcriptId: string, at: LocatedWord, text: string, segmentText: string): Promise<void> {
  const wordPath = `{${at.segmentIndex},words,${at.wordIndex},text}`;
  const textPath = `{${at.segmentIndex},text}`;
  await tx.execute(sql`
    update transcription.transcripts
    set segments = jsonb_set(jsonb_set(segments, ${wordPath}::text[], to_jsonb(${text}::text)), ${textPath}::text[], to_jsonb(${segmentText}::text)),
        updated_at = now()
    where id = ${transcriptId}`);
}

export async function setClient(tx: Db, id: string, clientId: string | null): Promise<void> {
  await tx.update(transcripts).set({ clientId, updatedAt: sql`now()` }).where(eq(transcripts.id, id));
}

export async function remove(tx: Db, fileId: string): Promise<boolean> {
  const rows = await tx.delete(transcripts).where(eq(transcripts.fileId, fileId)).returning({ id: transcripts.id });
  return rows.length > 0;
}
