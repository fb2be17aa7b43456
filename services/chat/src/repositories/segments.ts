import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { recordings, transcriptSegments } from '../db/schema';
import { allWordsThenAny, type BlindTerms, type SearchQueries } from './fts';
import { ownedBy } from './recordings';

/**
 * A segment as stored: `text` plain or sealed (a company with encryption on), `blind` the blind
 * index of a sealed text (null for plain text, which is indexed in English).
 */
export interface SegmentFacts {
  segmentId: string;
  speaker: string;
  start: number;
  end: number;
  text: string;
  blind: string | null;
}

export interface Passage {
  fileId: string;
  fileName: string;
  speaker: string;
  start: number;
  text: string;
  rank: number;
}

/** A passage as read: its text as stored (the service opens a sealed one with `companyId`'s key). */
export interface StoredPassage extends Passage {
  companyId: string;
}

// Bound parameters per statement stay far below PostgreSQL's 65,535 even for long recordings.
const INSERT_BATCH = 500;

/** Replaces a file's segments (a transcript completed again replaces the earlier one). */
export async function replaceFile(
  tx: Db,
  companyId: string,
  fileId: string,
  fileName: string,
  segments: readonly SegmentFacts[],
): Promise<void> {
  await tx.delete(transcriptSegments).where(eq(transcriptSegments.fileId, fileId));
  await addSegments(tx, companyId, fileId, fileName, segments);
}

/** Adds segments of a file; one already there (a redelivered part) is left as it is. */
export async function addSegments(
  tx: Db,
  companyId: string,
  fileId: string,
  fileName: string,
  segments: readonly SegmentFacts[],
): Promise<void> {
  for (let i = 0; i < segments.length; i += INSERT_BATCH) {
    await tx
      .insert(transcriptSegments)
      .values(segments.slice(i, i + INSERT_BATCH).map((s) => ({ companyId, fileId, fileName, ...s })))
      .onConflictDoNothing();
  }
}

export async function updateText(
  tx: Db,
  fileId: string,
  segmentId: string,
  stored: { text: string; blind: string | null },
): Promise<void> {
  await tx
    .update(transcriptSegments)
    .set({ text: stored.text, blind: stored.blind })
    .where(and(eq(transcriptSegments.fileId, fileId), eq(transcriptSegments.segmentId, segmentId)));
}

/**
 * An edit of a transcript: `gone` segments go, `spoken` ones are written over by id (with their
 * speaker's name as the edit left it). Applying the same change twice leaves the same rows.
 */
export async function applyChange(
  tx: Db,
  companyId: string,
  fileId: string,
  gone: readonly string[],
  spoken: readonly SegmentFacts[],
): Promise<void> {
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
  if (spoken.length === 0) return;
  const [known] = await tx
    .select({ fileName: recordings.fileName })
    .from(recordings)
    .where(eq(recordings.fileId, fileId))
    .limit(1);
  for (let i = 0; i < spoken.length; i += INSERT_BATCH) {
    await tx
      .insert(transcriptSegments)
      .values(
        spoken.slice(i, i + INSERT_BATCH).map((s) => ({ companyId, fileId, fileName: known?.fileName ?? '', ...s })),
      )
      .onConflictDoUpdate({
        target: [transcriptSegments.fileId, transcriptSegments.segmentId],
        set: {
          speaker: sql`excluded.speaker`,
          start: sql`excluded.start`,
          end: sql`excluded."end"`,
          text: sql`excluded.text`,
          blind: sql`excluded.blind`,
        },
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
  const files = scope.fileIds
    ? sql`and s.file_id in (${sql.join(
        scope.fileIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  return sql`${company} ${owner} ${files}`;
}

type PassageRow = {
  company_id: string;
  file_id: string;
  file_name: string;
  speaker: string;
  start: number;
  text: string;
  rank: number;
};
const toPassage = (r: PassageRow): StoredPassage => ({
  companyId: r.company_id,
  fileId: r.file_id,
  fileName: r.file_name,
  speaker: r.speaker,
  start: Number(r.start),
  text: r.text,
  rank: Number(r.rank),
});

/**
 * Plain rows answer the English query; each company's sealed rows answer its blind tokens (the
 * same lexemes, hashed with the company's key). Two index scans, merged by rank.
 */
async function ranked(db: Db, queries: SearchQueries, scope: SearchScope, limit: number): Promise<StoredPassage[]> {
  const blind = queries.blind.filter((b): b is { companyId: string; query: SQL } => b.query !== null);
  const sealed =
    blind.length === 0
      ? sql``
      : sql`
    union all
    select s.company_id, s.file_id, s.file_name, s.speaker, s.start, s.text, ts_rank(s.tsv, b.query) as rank
    from chat.transcript_segments s join (values ${sql.join(
      blind.map((b) => sql`(${b.companyId}::uuid, ${b.query})`),
      sql`, `,
    )}) as b(company_id, query) on b.company_id = s.company_id
    where s.blind is not null and s.tsv @@ b.query ${where(scope)}`;
  const result = (await db.execute(sql`
    select * from (
      select s.company_id, s.file_id, s.file_name, s.speaker, s.start, s.text, ts_rank(s.tsv, q.query) as rank
      from chat.transcript_segments s, (select ${queries.plain} as query) q
      where s.blind is null and s.tsv @@ q.query ${where(scope)}
      ${sealed}
    ) found
    order by rank desc, file_id, start
    limit ${limit}`)) as unknown as { rows: PassageRow[] };
  return result.rows.map(toPassage);
}

/**
 * The segments that best match a question (English full-text search, ranked). Every word must
 * match first; when no segment has them all, any of them will do, ranked by how many match and
 * how often. A scope without a company searches every company (a platform administrator without
 * one). `blind`: the question's tokens in each company of the scope whose text may be sealed.
 */
export async function search(
  db: Db,
  question: string,
  scope: SearchScope,
  limit: number,
  blind: readonly BlindTerms[] = [],
): Promise<StoredPassage[]> {
  if (scope.fileIds?.length === 0) return [];
  return allWordsThenAny(question, (queries) => ranked(db, queries, scope, limit), blind);
}

/** The companies of some recordings (to know whose keys a search of them needs). */
export async function companiesOf(db: Db, fileIds: readonly string[]): Promise<string[]> {
  if (fileIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ companyId: recordings.companyId })
    .from(recordings)
    .where(inArray(recordings.fileId, [...fileIds]));
  return rows.map((r) => r.companyId);
}

/** A recording's whole text, segment by segment in time order (rank 0). */
export async function ofFile(db: Db, fileId: string): Promise<StoredPassage[]> {
  const result = (await db.execute(sql`
    select s.company_id, s.file_id, s.file_name, s.speaker, s.start, s.text, 0 as rank
    from chat.transcript_segments s where s.file_id = ${fileId}
    order by s.start, s.segment_id`)) as unknown as { rows: PassageRow[] };
  return result.rows.map(toPassage);
}

/** A company's segments still stored in plain (before it turned encryption on). */
export async function countPlain(db: Db, companyId: string): Promise<number> {
  const result = (await db.execute(
    sql`select count(*)::int as n from chat.transcript_segments where company_id = ${companyId} and blind is null`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
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
    .where(and(eq(transcriptSegments.companyId, companyId), isNull(transcriptSegments.blind)))
    .limit(limit);
}

/**
 * Writes segments' sealed text over their plain text; a segment edited meanwhile (its text is no
 * longer `plain`) is left for the next batch, which reads it again.
 */
export async function sealSegments(
  tx: Db,
  rows: readonly { fileId: string; segmentId: string; plain: string; text: string; blind: string | null }[],
): Promise<void> {
  for (const row of rows) {
    await tx
      .update(transcriptSegments)
      .set({ text: row.text, blind: row.blind })
      .where(
        and(
          eq(transcriptSegments.fileId, row.fileId),
          eq(transcriptSegments.segmentId, row.segmentId),
          eq(transcriptSegments.text, row.plain),
          isNull(transcriptSegments.blind),
        ),
      );
  }
}
