import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { KnowledgeFileStatus } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import {
  knowledgeChunks,
  knowledgeFiles,
  knowledgeVectors,
  type KnowledgeFileRow,
  type NewKnowledgeFileRow,
} from '../db/schema';
import { allWordsThenAny, type BlindTerms, type SearchQueries } from './fts';

// Bound parameters per statement stay far below PostgreSQL's 65,535.
const INSERT_BATCH = 500;

export async function insertFile(tx: Db, row: NewKnowledgeFileRow): Promise<KnowledgeFileRow> {
  const [created] = await tx.insert(knowledgeFiles).values(row).returning();
  return created!;
}

export async function listFiles(db: Db, customGptId: string): Promise<KnowledgeFileRow[]> {
  return db
    .select()
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.customGptId, customGptId))
    .orderBy(asc(knowledgeFiles.createdAt), asc(knowledgeFiles.id));
}

export async function findFile(db: Db, customGptId: string, id: string): Promise<KnowledgeFileRow | null> {
  const [row] = await db
    .select()
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.id, id), eq(knowledgeFiles.customGptId, customGptId)))
    .limit(1);
  return row ?? null;
}

/** The GPT's files, counted under a lock on the GPT's row so two uploads cannot both pass the limit. */
export async function countFilesLocked(tx: Db, customGptId: string): Promise<number> {
  await tx.execute(sql`select 1 from chat.custom_gpts where id = ${customGptId} for update`);
  const [row] = await tx.select({ n: count() }).from(knowledgeFiles).where(eq(knowledgeFiles.customGptId, customGptId));
  return Number(row?.n ?? 0);
}

/** Removes a file; its chunks and vectors go with it (on delete cascade). */
export async function removeFile(tx: Db, id: string): Promise<void> {
  await tx.delete(knowledgeFiles).where(eq(knowledgeFiles.id, id));
}

export async function storageKeysOf(db: Db, customGptId: string): Promise<string[]> {
  const rows = await db
    .select({ key: knowledgeFiles.storageKey })
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.customGptId, customGptId));
  return rows.map((r) => r.key);
}

/** Files of a company (the platform's GPTs: the nil id) count against its cap and take turns as one. */
const companyKey = sql`coalesce(${knowledgeFiles.companyId}, '00000000-0000-0000-0000-000000000000'::uuid)`;
/** Files of the same company as the candidate row being worked on now (under a live lease). */
const companyWorking = sql`(select count(*) from chat.knowledge_files w
  where w.company_id is not distinct from ${knowledgeFiles.companyId}
    and w.status in ('extracting', 'indexing') and w.lease_until >= now())`;

/**
 * Takes a file waiting for work, or one whose lease ran out (the process working on it stopped):
 * it becomes `extracting` under a new lease. Fair between companies: the company with the fewest
 * files being worked on, then the one whose last turn is oldest, goes first (its oldest file); one
 * with `companyCap` files being worked on waits. SKIP LOCKED: two takers never get the same file.
 */
export async function claimNext(tx: Db, leaseSeconds: number, companyCap = 1): Promise<KnowledgeFileRow | undefined> {
  const next = tx
    .select({ id: knowledgeFiles.id })
    .from(knowledgeFiles)
    .where(
      sql`(${knowledgeFiles.status} = 'queued' or (${knowledgeFiles.status} in ('extracting', 'indexing') and ${knowledgeFiles.leaseUntil} < now())) and ${companyWorking} < ${companyCap}`,
    )
    .orderBy(
      companyWorking,
      sql`(select t.served_at from chat.queue_turns t where t.company_id = ${companyKey}) nulls first`,
      asc(knowledgeFiles.createdAt),
    )
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await tx
    .update(knowledgeFiles)
    .set({
      status: 'extracting',
      progress: 0,
      error: null,
      attempts: sql`${knowledgeFiles.attempts} + 1`,
      leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`,
      updatedAt: sql`now()`,
    })
    .where(inArray(knowledgeFiles.id, next))
    .returning();
  if (row)
    await tx.execute(sql`insert into chat.queue_turns (company_id, served_at)
      values (coalesce(${row.companyId}::uuid, '00000000-0000-0000-0000-000000000000'::uuid), clock_timestamp())
      on conflict (company_id) do update set served_at = excluded.served_at`);
  return row;
}

/**
 * Fails, for good, the files whose reading was under way when their process stopped without
 * handing them back (their lease ran out while `extracting`): the claim that started it counted
 * its attempt, and the file may be what stopped the process. SKIP LOCKED, as the claim.
 */
export async function failAbandonedExtractions(tx: Db, reason: string): Promise<KnowledgeFileRow[]> {
  const abandoned = tx
    .select({ id: knowledgeFiles.id })
    .from(knowledgeFiles)
    .where(
      sql`${knowledgeFiles.status} = 'extracting' and ${knowledgeFiles.leaseUntil} < now() and ${knowledgeFiles.attempts} >= 1`,
    )
    .for('update', { skipLocked: true });
  return tx
    .update(knowledgeFiles)
    .set({ status: 'failed', error: reason, leaseUntil: null, updatedAt: sql`now()` })
    .where(inArray(knowledgeFiles.id, abandoned))
    .returning();
}

/** Hands a file back to the queue uncounted (its process is stopping before the file was read). */
export async function release(db: Db, id: string): Promise<void> {
  await db
    .update(knowledgeFiles)
    .set({
      status: 'queued',
      progress: 0,
      attempts: sql`greatest(${knowledgeFiles.attempts} - 1, 0)`,
      leaseUntil: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(knowledgeFiles.id, id), eq(knowledgeFiles.status, 'extracting')));
}

/** Progress of a file being worked on; renews the lease. False when the file is gone (deleted meanwhile). */
export async function progress(
  db: Db,
  id: string,
  status: KnowledgeFileStatus,
  percent: number,
  leaseSeconds: number,
  pages?: number | null,
): Promise<boolean> {
  const rows = await db
    .update(knowledgeFiles)
    .set({
      status,
      progress: Math.max(0, Math.min(100, Math.round(percent))),
      ...(pages !== undefined ? { pages } : {}),
      leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`,
      updatedAt: sql`now()`,
    })
    .where(eq(knowledgeFiles.id, id))
    .returning({ id: knowledgeFiles.id });
  return rows.length > 0;
}

export async function finish(
  tx: Db,
  id: string,
  outcome: { status: 'ready'; pages: number | null; chunks: number } | { status: 'failed'; error: string },
): Promise<KnowledgeFileRow | undefined> {
  const set =
    outcome.status === 'ready'
      ? { status: outcome.status, progress: 100, pages: outcome.pages, chunkCount: outcome.chunks, error: null }
      : { status: outcome.status, error: outcome.error };
  const [row] = await tx
    .update(knowledgeFiles)
    .set({ ...set, leaseUntil: null, updatedAt: sql`now()` })
    .where(eq(knowledgeFiles.id, id))
    .returning();
  return row;
}

/** A chunk as stored: heading and text plain, or sealed with `blind` their blind index (null: plain). */
export interface NewChunk {
  id: string;
  position: number;
  page: number | null;
  heading: string | null;
  text: string;
  blind: string | null;
}

/** A file version's chunks, made once: a second run of the same version (after a restart) replaces them. */
export async function replaceChunks(
  tx: Db,
  file: { id: string; customGptId: string; version: number },
  chunks: readonly NewChunk[],
): Promise<void> {
  await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.fileId, file.id));
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    await tx
      .insert(knowledgeChunks)
      .values(
        chunks
          .slice(i, i + INSERT_BATCH)
          .map((c) => ({ ...c, fileId: file.id, customGptId: file.customGptId, version: file.version })),
      );
  }
}

/** A chunk as read: heading and text as stored (the service opens sealed ones). */
export interface ChunkHit {
  id: string;
  fileId: string;
  fileName: string;
  page: number | null;
  heading: string | null;
  text: string;
}

type HitRow = {
  id: string;
  file_id: string;
  file_name: string;
  page: number | null;
  heading: string | null;
  text: string;
};
const toHit = (r: HitRow): ChunkHit => ({
  id: r.id,
  fileId: r.file_id,
  fileName: r.file_name,
  page: r.page === null ? null : Number(r.page),
  heading: r.heading,
  text: r.text,
});

/** Chunks of the GPT's ready files only: a file being processed or failed answers nothing yet. */
const readyChunks = (customGptId: string) => sql`c.custom_gpt_id = ${customGptId} and f.status = 'ready'`;

/**
 * The chunks of a GPT's files that best match a question (English full-text search, ranked).
 * `blind`: the question's tokens in the GPT's company when its chunks may be sealed: sealed
 * chunks are matched by them, plain ones (stored before encryption was on) in English.
 */
export async function searchChunks(
  db: Db,
  customGptId: string,
  question: string,
  limit: number,
  blind: BlindTerms | null = null,
): Promise<ChunkHit[]> {
  return allWordsThenAny(
    question,
    async ({ plain, blind: [sealed] }: SearchQueries) => {
      const matching = sealed
        ? sql`((c.blind is null and c.tsv @@ q.query) or (c.blind is not null and c.tsv @@ q.blind))`
        : sql`c.tsv @@ q.query`;
      const result = (await db.execute(sql`
      select c.id, c.file_id, f.name as file_name, c.page, c.heading, c.text
      from chat.knowledge_chunks c join chat.knowledge_files f on f.id = c.file_id,
        (select ${plain} as query, ${sealed?.query ?? null}::tsquery as blind) q
      where ${readyChunks(customGptId)} and ${matching}
      order by ts_rank(c.tsv, case when c.blind is null then q.query else q.blind end) desc, c.file_id, c.position
      limit ${limit}`)) as unknown as { rows: HitRow[] };
      return result.rows.map(toHit);
    },
    blind ? [blind] : [],
  );
}

export async function chunksByIds(db: Db, ids: readonly string[]): Promise<ChunkHit[]> {
  if (ids.length === 0) return [];
  const result = (await db.execute(sql`
    select c.id, c.file_id, f.name as file_name, c.page, c.heading, c.text
    from chat.knowledge_chunks c join chat.knowledge_files f on f.id = c.file_id
    where c.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`)) as unknown as { rows: HitRow[] };
  return result.rows.map(toHit);
}

export interface EmbeddingSet {
  modelId: string;
  dimension: number;
}

/**
 * The embeddings sets that cover every chunk of the GPT's ready files, each with its size. A set
 * missing even one chunk is incomplete and does not answer (full-text search still does).
 */
export async function completeSets(db: Db, customGptId: string): Promise<EmbeddingSet[]> {
  const result = (await db.execute(sql`
    with ready as (
      select c.id from chat.knowledge_chunks c join chat.knowledge_files f on f.id = c.file_id where ${readyChunks(customGptId)}
    )
    select v.model_id, v.dimension, count(*) as n
    from chat.knowledge_vectors v join ready r on r.id = v.chunk_id
    group by v.model_id, v.dimension
    having count(*) = (select count(*) from ready)`)) as unknown as { rows: { model_id: string; dimension: number }[] };
  return result.rows.map((r) => ({ modelId: r.model_id, dimension: Number(r.dimension) }));
}

/** Every vector of one set for a GPT's ready files: the candidates a question is compared with. */
export async function vectorsOf(
  db: Db,
  customGptId: string,
  set: EmbeddingSet,
): Promise<{ chunkId: string; vector: number[] }[]> {
  const result = (await db.execute(sql`
    select v.chunk_id, v.vector
    from chat.knowledge_vectors v join chat.knowledge_chunks c on c.id = v.chunk_id join chat.knowledge_files f on f.id = c.file_id
    where v.custom_gpt_id = ${customGptId} and v.model_id = ${set.modelId} and v.dimension = ${set.dimension} and f.status = 'ready'`)) as unknown as {
    rows: { chunk_id: string; vector: number[] | string }[];
  };
  return result.rows.map((r) => ({
    chunkId: r.chunk_id,
    vector: typeof r.vector === 'string' ? parseRealArray(r.vector) : r.vector.map(Number),
  }));
}

/** `{0.1,0.2}` as a driver that does not parse real[] gives it. */
function parseRealArray(text: string): number[] {
  return text
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean)
    .map(Number);
}

/**
 * Chunks that have no vector of `modelId` yet, oldest files first: of one file (being indexed), or
 * of every ready file (re-embedding).
 */
export async function chunksWithoutVectors(
  db: Db,
  modelId: string,
  filter: { fileId?: string; limit: number },
): Promise<
  { id: string; customGptId: string; companyId: string | null; fileId: string; text: string; heading: string | null }[]
> {
  const result = (await db.execute(sql`
    select c.id, c.custom_gpt_id, f.company_id, c.file_id, c.text, c.heading
    from chat.knowledge_chunks c join chat.knowledge_files f on f.id = c.file_id
    where ${filter.fileId ? sql`c.file_id = ${filter.fileId}` : sql`f.status = 'ready'`}
      and not exists (select 1 from chat.knowledge_vectors v where v.chunk_id = c.id and v.model_id = ${modelId})
    order by f.created_at, c.file_id, c.position
    limit ${filter.limit}`)) as unknown as {
    rows: {
      id: string;
      custom_gpt_id: string;
      company_id: string | null;
      file_id: string;
      text: string;
      heading: string | null;
    }[];
  };
  return result.rows.map((r) => ({
    id: r.id,
    customGptId: r.custom_gpt_id,
    companyId: r.company_id,
    fileId: r.file_id,
    text: r.text,
    heading: r.heading,
  }));
}

export async function insertVectors(
  tx: Db,
  rows: readonly { chunkId: string; customGptId: string; modelId: string; dimension: number; vector: number[] }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await tx
      .insert(knowledgeVectors)
      .values(rows.slice(i, i + INSERT_BATCH))
      .onConflictDoNothing();
  }
}

/**
 * Changes whenever the GPT's files or any of its vector sets do: keys what is cached of the GPT
 * (which sets are complete, a set's vectors). Two small aggregate reads over indexed columns.
 */
export async function gptStamp(db: Db, customGptId: string): Promise<string> {
  const result = (await db.execute(sql`
    select (select coalesce(max(updated_at)::text, '') || ':' || count(*) from chat.knowledge_files where custom_gpt_id = ${customGptId})
      || '|' || (select coalesce(string_agg(model_id || ':' || dimension || ':' || n, ',' order by model_id, dimension), '')
                 from (select model_id, dimension, count(*) as n from chat.knowledge_vectors where custom_gpt_id = ${customGptId} group by 1, 2) v) as stamp`)) as unknown as {
    rows: { stamp: string }[];
  };
  return result.rows[0]!.stamp;
}

/** The company a GPT's events belong to (null: a platform GPT). */
export async function companyOfGpt(db: Db, customGptId: string): Promise<string | null> {
  const result = (await db.execute(
    sql`select company_id from chat.custom_gpts where id = ${customGptId}`,
  )) as unknown as { rows: { company_id: string | null }[] };
  return result.rows[0]?.company_id ?? null;
}

/** A company's knowledge files, for the background encryption of their originals. */
export async function filesOfCompany(
  db: Db,
  companyId: string,
): Promise<Pick<KnowledgeFileRow, 'id' | 'customGptId' | 'storageKey' | 'mimeType' | 'status'>[]> {
  return db
    .select({
      id: knowledgeFiles.id,
      customGptId: knowledgeFiles.customGptId,
      storageKey: knowledgeFiles.storageKey,
      mimeType: knowledgeFiles.mimeType,
      status: knowledgeFiles.status,
    })
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.companyId, companyId))
    .orderBy(asc(knowledgeFiles.createdAt), asc(knowledgeFiles.id));
}

/** Points a file at its original's new key unless it moved meanwhile; the key it has now (null: the file is gone). */
export async function moveObject(db: Db, id: string, from: string, to: string): Promise<string | null> {
  await db
    .update(knowledgeFiles)
    .set({ storageKey: to })
    .where(and(eq(knowledgeFiles.id, id), eq(knowledgeFiles.storageKey, from)));
  const [row] = await db
    .select({ key: knowledgeFiles.storageKey })
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.id, id));
  return row?.key ?? null;
}

const plainChunksOf = (companyId: string) =>
  sql`c.blind is null and c.file_id in (select id from chat.knowledge_files where company_id = ${companyId})`;

/** A company's knowledge chunks still stored in plain (made before it turned encryption on). */
export async function countPlainChunks(db: Db, companyId: string): Promise<number> {
  const result = (await db.execute(
    sql`select count(*)::int as n from chat.knowledge_chunks c where ${plainChunksOf(companyId)}`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
}

export async function plainChunks(
  db: Db,
  companyId: string,
  limit: number,
): Promise<{ id: string; heading: string | null; text: string }[]> {
  const result = (await db.execute(
    sql`select c.id, c.heading, c.text from chat.knowledge_chunks c where ${plainChunksOf(companyId)} order by c.id limit ${limit}`,
  )) as unknown as { rows: { id: string; heading: string | null; text: string }[] };
  return result.rows;
}

/** Writes chunks' sealed heading and text over their plain ones (a chunk sealed meanwhile is left). */
export async function sealChunks(
  tx: Db,
  rows: readonly { id: string; heading: string | null; text: string; blind: string | null }[],
): Promise<void> {
  for (const row of rows) {
    await tx
      .update(knowledgeChunks)
      .set({ heading: row.heading, text: row.text, blind: row.blind })
      .where(and(eq(knowledgeChunks.id, row.id), isNull(knowledgeChunks.blind)));
  }
}
