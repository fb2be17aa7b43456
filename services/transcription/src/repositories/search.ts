import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { SearchSort, SpeakerInfo } from '@earshot/contracts';
import type { Scope } from './transcripts';

const rowsOf = async <T>(db: Db, query: SQL): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * PostgreSQL's text search configuration for each console language. Which ones a server has
 * depends on its version (`estonian` came with PostgreSQL 16; there is no `latvian`): the name is
 * looked up in pg_ts_config when a company's language is learnt, and `simple` (no stemming, no
 * stop words) stands in for a missing one and for a company whose language is not known yet.
 */
const CONFIG_OF_LANGUAGE: Record<string, string> = { en: 'english', fr: 'french', et: 'estonian', lv: 'latvian' };
export const FALLBACK_CONFIG = 'simple';

/** The configuration a company's rows are indexed with (the fallback until its language is known). */
const companyConfig = (companyId: SQL) =>
  sql`coalesce((select l.config from transcription.search_company_languages l where l.id = ${companyId}), ${FALLBACK_CONFIG})`;

/**
 * Rebuilds a file's search rows from its transcript (passages, speaker names, file facts, tags),
 * in the caller's transaction: every write to a transcript calls it, so a search sees an edit as
 * soon as it commits. A transcript not completed yet has no rows. For a plain transcript only: a
 * sealed one is indexed by services/words-encryption.ts through replaceSealedPassages.
 */
export async function reindexSegments(tx: Db, fileId: string): Promise<void> {
  await tx.execute(sql`delete from transcription.search_segments where file_id = ${fileId}`);
  // speaker_name follows speakerName() of the contracts: the speaker's label, else "Speaker n" for speaker_<n-1>.
  await tx.execute(sql`
    insert into transcription.search_segments (file_id, ord, segment_id, speaker_name, start, text, config, tsv)
    select t.file_id, s.ord, s.seg ->> '_id',
           coalesce(
             nullif(btrim((select sp ->> 'label' from jsonb_array_elements(t.speakers) sp where sp ->> 'id' = s.seg ->> 'speakerId' limit 1)), ''),
             case when s.seg ->> 'speakerId' ~ '^speaker_[0-9]{1,4}$' then 'Speaker ' || (substr(s.seg ->> 'speakerId', 9)::int + 1) else s.seg ->> 'speakerId' end),
           (s.seg ->> 'start')::double precision, s.seg ->> 'text', c.config, to_tsvector(c.config::regconfig, s.seg ->> 'text')
    from transcription.transcripts t
    cross join lateral (select ${companyConfig(sql`t.company_id`)} as config) c
    cross join lateral jsonb_array_elements(t.segments) with ordinality as s(seg, ord)
    where t.file_id = ${fileId} and t.completed_at is not null and btrim(s.seg ->> 'text') <> ''`);
  await rebuildFileRow(tx, fileId, false);
}

/**
 * PostgreSQL refuses a tsvector of more than 1 MB of lexemes (1,048,575 bytes): past this, a
 * recording has no doc. About 30,000 distinct blind tokens, or far more distinct words than a long
 * call has; its candidates are then found by their passages (fileConditions).
 */
const DOC_LEXEME_BYTES = 1_000_000;

/** A recording's doc: the distinct lexemes (or tokens) of its passages, null when too many for one tsvector. */
const docOf = (fileId: SQL) => sql`(
  select case when count(*) = 0 then ''::tsvector
              when sum(octet_length(d.lexeme)) > ${DOC_LEXEME_BYTES} then null
              else array_to_tsvector(array_agg(d.lexeme)) end
  from (select distinct u.lexeme from transcription.search_segments x cross join lateral unnest(x.tsv) u
        where x.file_id = ${fileId}) d)`;

/** The recording's row of search_files, from its passages' lexemes (or tokens, when sealed). */
async function rebuildFileRow(tx: Db, fileId: string, sealed: boolean): Promise<void> {
  await tx.execute(sql`delete from transcription.search_files where file_id = ${fileId}`);
  await tx.execute(sql`
    insert into transcription.search_files (file_id, company_id, uploaded_at, client_id, uploaded_by, language, tags, speakers, config, doc, sealed)
    select t.file_id, t.company_id, t.uploaded_at, t.client_id, t.uploaded_by, t.language, coalesce(g.tags, '{}'),
           array(select distinct lower(speaker_name) from transcription.search_segments where file_id = t.file_id),
           ${companyConfig(sql`t.company_id`)},
           ${docOf(sql`t.file_id`)},
           ${sealed}
    from transcription.transcripts t
    left join transcription.search_file_tags g on g.file_id = t.file_id
    where t.file_id = ${fileId} and t.completed_at is not null`);
}

/** A transcript whose segments are sealed (an envelope, not an array): what indexing it needs; null for a plain one. */
export async function sealedSource(
  tx: Db,
  fileId: string,
): Promise<{ enc: string; speakers: SpeakerInfo[]; completed: boolean } | null> {
  const [row] = await rowsOf<{ enc: string; speakers: SpeakerInfo[]; completed: boolean }>(
    tx,
    sql`
    select t.segments ->> 'enc' as enc, t.speakers, t.completed_at is not null as completed
    from transcription.transcripts t where t.file_id = ${fileId} and jsonb_typeof(t.segments) = 'object'`,
  );
  return row ?? null;
}

/** The text search configuration the company's rows are indexed with. */
export async function companyConfigOf(db: Db, companyId: string): Promise<string> {
  const [row] = await rowsOf<{ config: string }>(db, sql`select ${companyConfig(sql`${companyId}::uuid`)} as config`);
  return row?.config ?? FALLBACK_CONFIG;
}

/**
 * Each text's lexemes with their positions (`1,5`), as to_tsvector makes them with `config`. The
 * text is a query parameter only: nothing of it is stored (the caller stores the tokens).
 */
export async function lexemesOf(
  db: Db,
  config: string,
  texts: readonly string[],
): Promise<{ lexeme: string; positions: string }[][]> {
  const found: { lexeme: string; positions: string }[][] = texts.map(() => []);
  if (texts.length === 0) return found;
  const rows = await rowsOf<{ i: number; lexeme: string; positions: string }>(
    db,
    sql`
    select t.i::int as i, u.lexeme, array_to_string(u.positions, ',') as positions
    from ${textsOf(texts)}
    cross join lateral unnest(to_tsvector(${config}::regconfig, t.text)) u`,
  );
  for (const row of rows) found[Number(row.i) - 1]!.push({ lexeme: row.lexeme, positions: row.positions });
  return found;
}

/** Texts as rows `t(text, i)` (1-based), from one JSON parameter however many there are. */
const textsOf = (texts: readonly string[]) =>
  sql`jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) with ordinality as t(text, i)`;

export interface SealedPassage {
  ord: number;
  segmentId: string;
  speakerName: string;
  start: number;
  /** Sealed (kit's crypto/fields). */
  text: string;
  /** tsvector text of blind-index tokens with positions (`'<token>':1,5 ...`). */
  tsv: string;
}

/** A sealed recording's search rows, replaced in the caller's transaction (none until it is completed). */
export async function replaceSealedPassages(
  tx: Db,
  fileId: string,
  config: string,
  completed: boolean,
  passages: readonly SealedPassage[],
): Promise<void> {
  await tx.execute(sql`delete from transcription.search_segments where file_id = ${fileId}`);
  if (!completed) {
    await tx.execute(sql`delete from transcription.search_files where file_id = ${fileId}`);
    return;
  }
  // One statement whatever the length: the passages travel as one JSON parameter.
  await tx.execute(sql`
    insert into transcription.search_segments (file_id, ord, segment_id, speaker_name, start, text, config, tsv)
    select ${fileId}, p.ord, p."segmentId", p."speakerName", p.start, p.text, ${config}, p.tsv::tsvector
    from jsonb_to_recordset(${JSON.stringify(passages)}::jsonb)
      as p(ord integer, "segmentId" text, "speakerName" text, start double precision, text text, tsv text)`);
  await rebuildFileRow(tx, fileId, true);
}

/** Whether a recording's search rows are sealed already. */
export async function isSealedIndex(db: Db, fileId: string): Promise<boolean> {
  const [row] = await rowsOf<{ sealed: boolean }>(
    db,
    sql`select sealed from transcription.search_files where file_id = ${fileId}`,
  );
  return row?.sealed ?? false;
}

export async function sealedFileIds(db: Db, companyId: string): Promise<string[]> {
  return (
    await rowsOf<{ file_id: string }>(
      db,
      sql`select file_id from transcription.search_files where company_id = ${companyId} and sealed`,
    )
  ).map((r) => r.file_id);
}

/** The companies with sealed recordings (of the scope's company, or of all), for a search to hash its words with each one's key. */
export async function sealedCompanies(db: Db, scope: Scope): Promise<{ companyId: string; config: string }[]> {
  const rows = await rowsOf<{ company_id: string; config: string }>(
    db,
    sql`
    select distinct f.company_id, ${companyConfig(sql`f.company_id`)} as config from transcription.search_files f
    where f.sealed ${scope.companyId ? sql`and f.company_id = ${scope.companyId}` : sql``}`,
  );
  return rows.map((r) => ({ companyId: r.company_id, config: r.config }));
}

/** A client was deleted: its recordings lose the link, as the transcripts did. */
export async function unlinkClient(tx: Db, clientId: string): Promise<void> {
  await tx.execute(sql`update transcription.search_files set client_id = null where client_id = ${clientId}`);
}

/**
 * Remembers a company's language (the newest event wins) and, when that changes its configuration,
 * re-indexes the company's rows with the new one in the same transaction.
 */
export async function saveCompanyLanguage(
  tx: Db,
  companyId: string,
  language: string | null,
  at: Date,
): Promise<boolean> {
  const candidate = (language && CONFIG_OF_LANGUAGE[language]) ?? FALLBACK_CONFIG;
  const [previous] = await rowsOf<{ config: string }>(
    tx,
    sql`select config from transcription.search_company_languages where id = ${companyId} for update`,
  );
  const [saved] = await rowsOf<{ config: string }>(
    tx,
    sql`
    insert into transcription.search_company_languages (id, language, config, updated_at)
    values (${companyId}, ${language}, coalesce((select cfgname::text from pg_catalog.pg_ts_config
                                                  where cfgname = ${candidate} and cfgnamespace = 'pg_catalog'::regnamespace), ${FALLBACK_CONFIG}), ${at})
    on conflict (id) do update set language = excluded.language, config = excluded.config, updated_at = excluded.updated_at
      where search_company_languages.updated_at <= excluded.updated_at
    returning config`,
  );
  if (!saved || saved.config === (previous?.config ?? FALLBACK_CONFIG)) return false;
  // Sealed passages hold no words to index here: the caller indexes them again from their transcripts.
  await tx.execute(sql`
    update transcription.search_segments s set config = ${saved.config}, tsv = to_tsvector(${saved.config}::regconfig, s.text)
    from transcription.search_files f where f.file_id = s.file_id and f.company_id = ${companyId} and not f.sealed`);
  await tx.execute(sql`
    update transcription.search_files f set config = ${saved.config},
      doc = ${docOf(sql`f.file_id`)}
    where f.company_id = ${companyId} and not f.sealed`);
  return true;
}

export async function forgetCompany(tx: Db, companyId: string): Promise<void> {
  await tx.execute(sql`delete from transcription.search_company_languages where id = ${companyId}`);
}

/** A recording's tags changed (newest event wins); a file this service has no transcript of is skipped. */
export async function saveTags(tx: Db, fileId: string, tags: readonly string[], at: Date): Promise<void> {
  const list = sql`array[${sql.join(
    [...tags].map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
  const saved = await rowsOf<{ file_id: string }>(
    tx,
    sql`
    insert into transcription.search_file_tags (file_id, tags, updated_at)
    select file_id, ${list}, ${at} from transcription.transcripts where file_id = ${fileId}
    on conflict (file_id) do update set tags = excluded.tags, updated_at = excluded.updated_at
      where search_file_tags.updated_at <= excluded.updated_at
    returning file_id`,
  );
  if (saved.length)
    await tx.execute(sql`update transcription.search_files set tags = ${list} where file_id = ${fileId}`);
}

export interface SearchFilters {
  clientId?: string;
  tag?: string;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  speaker?: string;
  language?: string;
}

/** Where the previous page ended: its last recording's sort key (microseconds since the epoch, exactly). */
export interface SearchKey {
  uploadedAtUs: string;
  fileId: string;
  score?: string;
}

export interface SearchRequest {
  scope: Scope;
  /** The search as typed (websearch_to_tsquery syntax). */
  q: string;
  /** The words to mark in snippets: the query's words that are not excluded, joined with `or`. */
  marked: string;
  filters: SearchFilters;
  sort: SearchSort;
  after: SearchKey | null;
  limit: number;
  hitsPerRecording: number;
}

export interface FoundRecording extends SearchKey {
  originalName: string;
  uploadedAt: Date;
}

export interface FoundHit {
  fileId: string;
  companyId: string;
  /** The text is sealed (and `marks` empty): the service opens it and marks its words (marksOf). */
  sealed: boolean;
  config: string;
  segmentId: string;
  speakerName: string;
  start: number;
  text: string;
  /** 1-based positions of the words of `text` (split at single spaces) that match the search. */
  marks: number[];
}

/**
 * Best match ranks the passages of at most this many recordings: the newest whose words match.
 * Ranking needs every matching passage of every candidate, and a common word is in nearly every
 * recording (the benchmark: 200 recordings rank in about the time the goal allows).
 */
export const BEST_POOL = 200;

/** The search parsed with one configuration: as a tsquery, and as the recordings' prefilter. */
export interface Parsed {
  config: string;
  /**
   * Null: the query of the plain rows indexed with `config`. A company id: the query of that
   * company's sealed rows, its lexemes replaced by the company's blind-index tokens.
   */
  sealedCompany: string | null;
  /** The passage query (tsquery text). */
  query: string;
  /**
   * What a recording's lexemes (no positions) must hold for one of its passages to match: the
   * query with phrases loosened to "all these words". Null when the query excludes words: a word
   * excluded from a passage may still be elsewhere in the recording.
   */
  prefilter: string | null;
}

export function parsedOf(config: string, query: string, sealedCompany: string | null = null): Parsed {
  return { config, sealedCompany, query, prefilter: query.includes('!') ? null : query.replace(/<(-|\d+)>/g, '&') };
}

/**
 * The search parsed with each configuration the scope's plain rows may be indexed with: one
 * company's, or (a HOST_ADMIN searching every company) each in use.
 */
export async function parse(db: Db, scope: Scope, q: string): Promise<Parsed[]> {
  const configs = scope.companyId
    ? sql`select ${companyConfig(sql`${scope.companyId}::uuid`)} as config`
    : sql`select ${FALLBACK_CONFIG} as config union select config from transcription.search_company_languages`;
  const rows = await rowsOf<{ config: string; query: string }>(
    db,
    sql`
    select c.config, websearch_to_tsquery(c.config::regconfig, ${q})::text as query from (${configs}) c`,
  );
  return rows.map((r) => parsedOf(r.config, r.query));
}

/** The search as a tsquery of one configuration (its lexemes are then replaced by tokens for sealed rows). */
export async function tsqueryOf(db: Db, config: string, q: string): Promise<string> {
  const [row] = await rowsOf<{ query: string }>(
    db,
    sql`select websearch_to_tsquery(${config}::regconfig, ${q})::text as query`,
  );
  return row?.query ?? '';
}

const plainOf = (parsed: Parsed[]) => parsed.filter((p) => p.sealedCompany === null);
const sealedOf = (parsed: Parsed[]) => parsed.filter((p) => p.sealedCompany !== null);

/**
 * The passage query for the recording `f`: a constant when there is one configuration and nothing
 * sealed (every plain company's search, as before encryption existed); else chosen by the row's
 * configuration, or for a sealed row by its company.
 */
function queryOf(parsed: Parsed[]): SQL {
  const plain = plainOf(parsed);
  const sealed = sealedOf(parsed);
  const plainQuery =
    plain.length === 1
      ? sql`${plain[0]!.query}::tsquery`
      : sql`(case f.config ${sql.join(
          plain.map((p) => sql`when ${p.config} then ${p.query}::tsquery`),
          sql` `,
        )} end)`;
  if (sealed.length === 0) return plainQuery;
  const sealedQuery = sql`(case f.company_id ${sql.join(
    sealed.map((p) => sql`when ${p.sealedCompany}::uuid then ${p.query}::tsquery`),
    sql` `,
  )} end)`;
  return sql`(case when f.sealed then ${sealedQuery} else ${plainQuery} end)`;
}

/** Which recordings `f` one parsed query is for. */
function rowsOfParsed(p: Parsed, anySealed: boolean): SQL {
  if (p.sealedCompany !== null) return sql`f.sealed and f.company_id = ${p.sealedCompany}::uuid`;
  return anySealed ? sql`not f.sealed and f.config = ${p.config}` : sql`f.config = ${p.config}`;
}

/** The recording-level conditions on `f` (search_files): scope, filters, prefilter. */
function fileConditions(request: SearchRequest, parsed: Parsed[]): SQL {
  const { scope, filters: f } = request;
  const anySealed = sealedOf(parsed).length > 0;
  // Each configuration's prefilter on its own rows, so that the GIN index answers each; a
  // recording without a doc (too many distinct words for one) is a candidate whatever the words.
  const prefilter =
    parsed.every((p) => p.prefilter !== null) &&
    (parsed.length === 1
      ? sql`(f.doc @@ ${parsed[0]!.prefilter}::tsquery or f.doc is null)`
      : sql`(${sql.join(
          parsed.map((p) => sql`(${rowsOfParsed(p, anySealed)} and f.doc @@ ${p.prefilter}::tsquery)`),
          sql` or `,
        )} or f.doc is null)`);
  const parts: (SQL | false)[] = [
    prefilter,
    !!scope.companyId && sql`f.company_id = ${scope.companyId}`,
    !!scope.owner && sql`f.uploaded_by = ${scope.owner}`,
    !!f.clientId && sql`f.client_id = ${f.clientId}`,
    !!f.tag && sql`f.tags @> array[${f.tag}]::text[]`,
    !!f.from && sql`f.uploaded_at >= ${f.from}::date::timestamp at time zone 'UTC'`,
    !!f.to && sql`f.uploaded_at < (${f.to}::date + 1)::timestamp at time zone 'UTC'`,
    !!f.speaker && sql`lower(${f.speaker}) = any(f.speakers)`,
    !!f.language && sql`f.language = ${f.language}`,
  ];
  const present = parts.filter((p): p is SQL => !!p);
  return present.length ? sql.join(present, sql` and `) : sql`true`;
}

/** A passage `s` of the recording `f` that matches (and is spoken by the speaker asked for). */
function passageConditions(request: SearchRequest, parsed: Parsed[]): SQL {
  const speaker = request.filters.speaker ? sql` and lower(s.speaker_name) = lower(${request.filters.speaker})` : sql``;
  return sql`s.file_id = f.file_id and s.tsv @@ ${queryOf(parsed)}${speaker}`;
}

const micros = (column: SQL) => sql`(extract(epoch from ${column}) * 1000000)::bigint::text`;
const fromMicros = (value: string) => sql`(timestamptz 'epoch' + ${value}::bigint * interval '1 microsecond')`;

/** The rank of a passage: how often and how close together the searched words occur in it. */
const rankOf = (parsed: Parsed[]) => sql`ts_rank(s.tsv, ${queryOf(parsed)})`;

/**
 * One page of recordings with a matching passage, in the page's order: newest first, or best
 * match (the passages of the newest BEST_POOL candidates ranked, a recording scoring the sum of
 * its passages' ranks; ties newest first).
 *
 * The candidates are the recordings whose lexemes hold the words, found through the GIN index of
 * search_files.doc; then, in the page's order, each is kept if one of its passages matches, until
 * the page is full. The planner counts testing a doc as cheap and would rather scan or walk the
 * table and test each row, but a doc is tens of kilobytes stored out of line (TOAST): unpacking
 * 10,000 of them takes seconds where the index takes milliseconds. Sequential scans are
 * therefore off for this one read-only transaction (there is no other index to walk).
 */
export async function findRecordings(db: Db, request: SearchRequest, parsed: Parsed[]): Promise<FoundRecording[]> {
  const where = fileConditions(request, parsed);
  const passage = passageConditions(request, parsed);
  const { after, limit } = request;
  const candidates = (keyset: SQL, top: SQL) => sql`
    select f.file_id, f.uploaded_at, f.config, f.sealed, f.company_id from transcription.search_files f
    where ${where} ${keyset}
    order by f.uploaded_at desc, f.file_id desc ${top}`;
  let page: SQL;
  if (request.sort === 'newest') {
    const keyset = after
      ? sql`and (f.uploaded_at, f.file_id) < (${fromMicros(after.uploadedAtUs)}, ${after.fileId}::uuid)`
      : sql``;
    // In a subquery (offset 0 keeps it one) the candidates stay in order, so the check of their
    // passages stops at the page's end; from a CTE they would all be checked, then sorted.
    page = sql`
      select f.file_id, f.uploaded_at, null::bigint as score
      from (${candidates(keyset, sql`offset 0`)}) f
      where exists (select 1 from transcription.search_segments s where ${passage})
      order by f.uploaded_at desc, f.file_id desc
      limit ${limit + 1}`;
  } else {
    const keyset = after
      ? sql`where (r.score, r.uploaded_at, r.file_id) < (${after.score ?? '0'}::bigint, ${fromMicros(after.uploadedAtUs)}, ${after.fileId}::uuid)`
      : sql``;
    page = sql`
      with pool as materialized (${candidates(sql``, sql`limit ${BEST_POOL}`)})
      select r.file_id, r.uploaded_at, r.score from (
        select f.file_id, f.uploaded_at, round(sum(${rankOf(parsed)}) * 1000000)::bigint as score
        from pool f join transcription.search_segments s on ${passage}
        group by f.file_id, f.uploaded_at) r
      ${keyset}
      order by r.score desc, r.uploaded_at desc, r.file_id desc
      limit ${limit + 1}`;
  }
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return rowsOf<{
      file_id: string;
      uploaded_us: string;
      score: string | null;
      original_name: string;
      uploaded_at: Date | string;
    }>(
      tx,
      sql`
      select p.file_id, ${micros(sql`p.uploaded_at`)} as uploaded_us, p.score::text as score, t.original_name, t.uploaded_at
      from (${page}) p join transcription.transcripts t on t.file_id = p.file_id
      order by p.score desc nulls last, p.uploaded_at desc, p.file_id desc`,
    );
  });
  return rows.map((r): FoundRecording => ({
    fileId: r.file_id,
    uploadedAtUs: String(r.uploaded_us),
    ...(r.score === null ? {} : { score: String(r.score) }),
    originalName: r.original_name,
    uploadedAt: new Date(r.uploaded_at),
  }));
}

/**
 * The first matching passages of each recording (best match: the best ranked), with the positions
 * of the words to mark: each word whose lexemes match one of the searched words.
 */
export async function findHits(
  db: Db,
  request: SearchRequest,
  parsed: Parsed[],
  fileIds: readonly string[],
): Promise<FoundHit[]> {
  if (fileIds.length === 0) return [];
  const order = request.sort === 'best' ? sql`${rankOf(parsed)} desc, s.ord` : sql`s.ord`;
  const rows = await rowsOf<{
    file_id: string;
    company_id: string;
    sealed: boolean;
    config: string;
    segment_id: string;
    speaker_name: string;
    start: number;
    text: string;
    marks: number[] | string;
  }>(
    db,
    sql`
    select f.company_id, f.sealed, h.*
    from transcription.search_files f
    cross join lateral (
      select s.file_id, s.config, s.segment_id, s.speaker_name, s.start, s.text,
             case when f.sealed then '{}'::int[] else
               array(select w.ord::int from string_to_table(s.text, ' ') with ordinality as w(word, ord)
                     where to_tsvector(s.config::regconfig, w.word) @@ websearch_to_tsquery(s.config::regconfig, ${request.marked})
                     order by w.ord) end as marks
      from transcription.search_segments s
      where ${passageConditions(request, parsed)}
      order by ${order}
      limit ${request.hitsPerRecording}
    ) h
    where f.file_id in (${sql.join(
      fileIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return rows.map((r) => ({
    fileId: r.file_id,
    companyId: r.company_id,
    sealed: r.sealed,
    config: r.config,
    segmentId: r.segment_id,
    speakerName: r.speaker_name,
    start: Number(r.start),
    text: r.text,
    marks: parseIntArray(r.marks),
  }));
}

/**
 * The marks of opened (sealed) passages, as findHits makes them for plain ones: the words whose
 * lexemes match the marked words. The texts are query parameters only, never stored.
 */
export async function marksOf(db: Db, config: string, texts: readonly string[], marked: string): Promise<number[][]> {
  if (texts.length === 0) return [];
  const rows = await rowsOf<{ i: number; marks: number[] | string }>(
    db,
    sql`
    select t.i::int as i,
           array(select w.ord::int from string_to_table(t.text, ' ') with ordinality as w(word, ord)
                 where to_tsvector(${config}::regconfig, w.word) @@ websearch_to_tsquery(${config}::regconfig, ${marked})
                 order by w.ord) as marks
    from ${textsOf(texts)}`,
  );
  const marks: number[][] = texts.map(() => []);
  for (const row of rows) marks[Number(row.i) - 1] = parseIntArray(row.marks);
  return marks;
}

/** An int[] as the driver gives it: an array, or PostgreSQL's text form `{1,2}`. */
function parseIntArray(value: number[] | string): number[] {
  if (Array.isArray(value)) return value.map(Number);
  return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}
