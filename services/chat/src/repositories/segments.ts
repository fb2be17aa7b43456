import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { recordings, transcriptSegments } from '../db/schema';
import { allWordsThenAny } from './fts';
import { ownedBy } from './recordings';

export interface SegmentFacts {
  segmentId: string;
  speaker: string;
  start: number;
  end: number;
  text: string;
}

export interface Passage {
  fileId: string;
  fileName: string;
  speaker: string;
  start: number;
  text: string;
  rank: number;
}

// Bound parameters per statement stay far below PostgreSQL's 65,535 even for long recordings.
const INSERT_BATCH = 500;

/** Replaces a file's segments (a transcript completed again replaces the earlier one). */
export async function replaceFile(tx: Db, companyId: string, fileId: string, fileName: string, segments: readonly SegmentFacts[]): Promise<void> {
  await tx.delete(transcriptSegments).where(eq(transcriptSegments.fileId, fileId));
  await addSegments(tx, companyId, fileId, fileName, segments);
}

/** Adds segments of a file; one already there (a redelivered part) is left as it is. */
export async function addSegments(tx: Db, companyId: string, fileId: string, fileName: string, segments: readonly SegmentFacts[]): Promise<void> {
  for (let i = 0; i < segments.length; i += INSERT_BATCH) {
    await tx.insert(transcriptSegments)
      .values(segments.slice(i, i + INSERT_BATCH).map((s) => ({ companyId, fileId, fileName, ...s })))
      .onConflictDoNothing();
  }
}

export async function updateText(tx: Db, fileId: string, segmentId: string, text: string): Promise<void> {
  await tx.update(transcriptSegments).set({ text })
    .where(and(eq(transcriptSegments.fileId, fileId), eq(transcriptSegments.segmentId, segmentId)));
}

/**
 * An edit of a transcript: `removed` segments go, `segments` are written over by id (with their
 * speaker's name as the edit left it). Segments without text are not kept, as on completion.
 * Applying the same change twice leaves the same rows.
 */
export async function applyChange(tx: Db, companyId: string, fileId: string, removed: readonly string[], segments: readonly SegmentFacts[]): Promise<void> {
  const silent = segments.filter((s) => !s.text.trim()).map((s) => s.segmentId);
  const gone = [...removed, ...silent];
  for (let i = 0; i < gone.length; i += INSERT_BATCH) {
    await tx.delete(transcriptSegments).where(and(eq(transcriptSegments.fileId, fileId), inArray(transcriptSegments.segmentId, gone.slice(i, i + INSERT_BATCH))));
  }
  const spoken = segments.filter((s) => s.text.trim());
  if (spoken.length === 0) return;
  const [known] = await tx.select({ fileName: recordings.fileName }).from(recordings).where(eq(recordings.fileId, fileId)).limit(1);
  for (let i = 0; i < spoken.length; i += INSERT_BATCH) {
    await tx.insert(transcriptSegments)
      .values(spoken.slice(i, i + INSERT_BATCH).map((s) => ({ companyId, fileId, fileName: known?.fileName ?? '', segmentId: s.segmentId, speaker: s.speaker, start: s.start, end: s.end, text: s.text })))
      .onConflictDoUpdate({
        target: [transcriptSegments.fileId, transcriptSegments.segmentId],
        set: { speaker: sql`excluded.speaker`, start: sql`excluded.start`, end: sql`excluded."end"`, text: sql`excluded.text` },
      });
  }
}

export async function removeFile(tx: Db, fileId: string): Promise<void> {
  await tx.delete(transcriptSegments).where(eq(transcriptSegments.fileId, fileId));
}

/**
 * Whose segments a search reads: a company's (null: every company's), or some recordings' only;
 * with an `owner` (a b2c member), only the recordings they uploaded.
 */
export interface SearchScope {
  companyId: string | null;
  owner?: string | null;
  fileIds?: readonly string[];
}

function where(scope: SearchScope): SQL {
  const company = scope.companyId ? sql`and s.company_id = ${scope.companyId}` : sql``;
  const owner = scope.owner ? sql`and s.file_id in (${ownedBy(scope.owner)})` : sql``;
  const files = scope.fileIds ? sql`and s.file_id in (${sql.join(scope.fileIds.map((id) => sql`${id}`), sql`, `)})` : sql``;
  return sql`${company} ${owner} ${files}`;
}

type PassageRow = { file_id: string; file_name: string; speaker: string; start: number; text: string; rank: number };
const toPassage = (r: PassageRow): Passage => ({ fileId: r.file_id, fileName: r.file_name, speaker: r.speaker, start: Number(r.start), text: r.text, rank: Number(r.rank) });

async function ranked(db: Db, query: SQL, scope: SearchScope, limit: number): Promise<Passage[]> {
  const result = (await db.execute(sql`
    select s.file_id, s.file_name, s.speaker, s.start, s.text, ts_rank(s.tsv, q.query) as rank
    from chat.transcript_segments s, (select ${query} as query) q
    where s.tsv @@ q.query ${where(scope)}
    order by rank desc, s.file_id, s.start
    limit ${limit}`)) as unknown as { rows: PassageRow[] };
  return result.rows.map(toPassage);
}

/**
 * The segments that best match a question (English full-text search, ranked). Every word must
 * match first; when no segment has them all, any of them will do, ranked by how many match and
 * how often. A scope without a company searches every company (a platform administrator without one).
 */
export async function search(db: Db, question: string, scope: SearchScope, limit: number): Promise<Passage[]> {
  if (scope.fileIds?.length === 0) return [];
  return allWordsThenAny(question, (query) => ranked(db, query, scope, limit));
}

/** A recording's whole text, segment by segment in time order (rank 0). */
export async function ofFile(db: Db, fileId: string): Promise<Passage[]> {
  const result = (await db.execute(sql`
    select s.file_id, s.file_name, s.speaker, s.start, s.text, 0 as rank
    from chat.transcript_segments s where s.file_id = ${fileId}
    order by s.start, s.segment_id`)) as unknown as { rows: PassageRow[] };
  return result.rows.map(toPassage);
}
