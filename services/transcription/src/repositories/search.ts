import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { SearchSort } from '@earshot/contracts';
import type { Scope } from './transcripts';

const rowsOf = async <T>(db: Db, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

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
 * Rebuilds a file's search rows from its transcript (segments, speaker names, file facts, tags),
 * in the caller's transaction: every write to a transcript calls it, so a search sees an edit as
 * soon as it commits. A transcript not completed yet has no rows.
 */
export async function reindexSegments(tx: Db, fileId: string): Promise<void> {
  await tx.execute(sql`delete from transcription.search_segments where file_id = ${fileId}`);
  // speaker_name follows speakerName() of the contracts: the speaker's label, else "Speaker n" for speaker_<n-1>.
  await tx.execute(sql`
    insert into transcription.search_segments
      (file_id, ord, company_id, segment_id, speaker_id, speaker_name, start, text, config, tsv, uploaded_at, client_id, uploaded_by, language, tags)
    select t.file_id, s.ord, t.company_id, s.seg ->> '_id', s.seg ->> 'speakerId',
           coalesce(
             nullif(btrim((select sp ->> 'label' from jsonb_array_elements(t.speakers) sp where sp ->> 'id' = s.seg ->> 'speakerId' limit 1)), ''),
             case when s.seg ->> 'speakerId' ~ '^speaker_[0-9]{1,4}$' then 'Speaker ' || (substr(s.seg ->> 'speakerId', 9)::int + 1) else s.seg ->> 'speakerId' end),
           (s.seg ->> 'start')::double precision, s.seg ->> 'text', c.config, to_tsvector(c.config::regconfig, s.seg ->> 'text'),
           t.uploaded_at, t.client_id, t.uploaded_by, t.language, coalesce(g.tags, '{}')
    from transcription.transcripts t
    cross join lateral (select ${companyConfig(sql`t.company_id`)} as config) c
    left join transcription.search_file_tags g on g.file_id = t.file_id
    cross join lateral jsonb_array_elements(t.segments) with ordinality as s(seg, ord)
    where t.file_id = ${fileId} and t.completed_at is not null and btrim(s.seg ->> 'text') <> ''`);
}

/** A client was deleted: its recordings' rows lose the link, as the transcripts did. */
export async function unlinkClient(tx: Db, clientId: string): Promise<void> {
  await tx.execute(sql`update transcription.search_segments set client_id = null where client_id = ${clientId}`);
}

/**
 * Remembers a company's language (the newest event wins) and, when that changes its configuration,
 * re-indexes the company's rows with the new one in the same transaction.
 */
export async function saveCompanyLanguage(tx: Db, companyId: string, language: string | null, at: Date): Promise<void> {
  const candidate = (language && CONFIG_OF_LANGUAGE[language]) ?? FALLBACK_CONFIG;
  const [previous] = await rowsOf<{ config: string }>(tx, sql`select config from transcription.search_company_languages where id = ${companyId} for update`);
  const [saved] = await rowsOf<{ config: string }>(tx, sql`
    insert into transcription.search_company_languages (id, language, config, updated_at)
    values (${companyId}, ${language}, coalesce((select cfgname::text from pg_catalog.pg_ts_config
                                                  where cfgname = ${candidate} and cfgnamespace = 'pg_catalog'::regnamespace), ${FALLBACK_CONFIG}), ${at})
    on conflict (id) do update set language = excluded.language, config = excluded.config, updated_at = excluded.updated_at
      where search_company_languages.updated_at <= excluded.updated_at
    returning config`);
  if (!saved || saved.config === (previous?.config ?? FALLBACK_CONFIG)) return;
  await tx.execute(sql`
    update transcription.search_segments set config = ${saved.config}, tsv = to_tsvector(${saved.config}::regconfig, text)
    where company_id = ${companyId}`);
}

export async function forgetCompany(tx: Db, companyId: string): Promise<void> {
  await tx.execute(sql`delete from transcription.search_company_languages where id = ${companyId}`);
}

/** A recording's tags changed (newest event wins); a file this service has no transcript of is skipped. */
export async function saveTags(tx: Db, fileId: string, tags: readonly string[], at: Date): Promise<void> {
  const list = sql`array[${sql.join([...tags].map((t) => sql`${t}`), sql`, `)}]::text[]`;
  const saved = await rowsOf<{ file_id: string }>(tx, sql`
    insert into transcription.search_file_tags (file_id, tags, updated_at)
    select file_id, ${list}, ${at} from transcription.transcripts where file_id = ${fileId}
    on conflict (file_id) do update set tags = excluded.tags, updated_at = excluded.updated_at
      where search_file_tags.updated_at <= excluded.updated_at
    returning file_id`);
  if (saved.length) await tx.execute(sql`update transcription.search_segments set tags = ${list} where file_id = ${fileId}`);
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
  segmentId: string;
  speakerName: string;
  start: number;
  text: string;
  /** 1-based positions of the words of `text` (split at single spaces) that match the search. */
  marks: number[];
}

/**
 * The configurations the scope's rows may be indexed with: one company's, or (a HOST_ADMIN
 * searching every company) each in use, the query being parsed once per configuration.
 */
async function configsOf(db: Db, scope: Scope): Promise<string[]> {
  if (scope.companyId) {
    const [row] = await rowsOf<{ config: string }>(db, sql`select ${companyConfig(sql`${scope.companyId}::uuid`)} as config`);
    return [row!.config];
  }
  const rows = await rowsOf<{ config: string }>(db, sql`select distinct config from transcription.search_company_languages`);
  return [...new Set([FALLBACK_CONFIG, ...rows.map((r) => r.config)])];
}

const tsquery = (config: string | SQL, q: string) => sql`websearch_to_tsquery(${config}::regconfig, ${q})`;

function conditions(request: SearchRequest, configs: string[]): SQL {
  const { scope, filters: f, q } = request;
  const match = configs.length === 1
    ? sql`s.tsv @@ ${tsquery(configs[0]!, q)}`
    : sql`(${sql.join(configs.map((c) => sql`(s.config = ${c} and s.tsv @@ ${tsquery(c, q)})`), sql` or `)})`;
  const parts: (SQL | false)[] = [
    match,
    !!scope.companyId && sql`s.company_id = ${scope.companyId}`,
    !!scope.owner && sql`s.uploaded_by = ${scope.owner}`,
    !!f.clientId && sql`s.client_id = ${f.clientId}`,
    !!f.tag && sql`s.tags @> array[${f.tag}]::text[]`,
    !!f.from && sql`s.uploaded_at >= ${f.from}::date::timestamp at time zone 'UTC'`,
    !!f.to && sql`s.uploaded_at < (${f.to}::date + 1)::timestamp at time zone 'UTC'`,
    !!f.speaker && sql`lower(s.speaker_name) = lower(${f.speaker})`,
    !!f.language && sql`s.language = ${f.language}`,
  ];
  return sql.join(parts.filter((p): p is SQL => p !== false), sql` and `);
}

const micros = (column: SQL) => sql`(extract(epoch from ${column}) * 1000000)::bigint::text`;
const fromMicros = (value: string) => sql`(timestamptz 'epoch' + ${value}::bigint * interval '1 microsecond')`;

/** The rank of a passage: how often and how close together the searched words occur in it. */
const rankOf = (request: SearchRequest, configs: string[]) =>
  sql`ts_rank(s.tsv, ${tsquery(configs.length === 1 ? configs[0]! : sql`s.config`, request.q)})`;

/**
 * One page of recordings with a matching passage, in the page's order. Newest first walks the
 * (company, uploaded_at) index backwards and stops at the page's end; best match ranks every
 * matching passage, a recording scoring the sum of its passages' ranks (ties: newest first).
 */
export async function findRecordings(db: Db, request: SearchRequest): Promise<{ found: FoundRecording[]; configs: string[] }> {
  const configs = await configsOf(db, request.scope);
  const where = conditions(request, configs);
  const { after, limit } = request;
  type Row = { file_id: string; uploaded_us: string; score: string | null };
  let rows: Row[];
  if (request.sort === 'newest') {
    const keyset = after ? sql`and (s.uploaded_at, s.file_id) < (${fromMicros(after.uploadedAtUs)}, ${after.fileId}::uuid)` : sql``;
    rows = await rowsOf<Row>(db, sql`
      select s.file_id, ${micros(sql`s.uploaded_at`)} as uploaded_us, null as score
      from transcription.search_segments s
      where ${where} ${keyset}
      group by s.uploaded_at, s.file_id
      order by s.uploaded_at desc, s.file_id desc
      limit ${limit + 1}`);
  } else {
    const keyset = after
      ? sql`where (r.score, r.uploaded_at, r.file_id) < (${after.score ?? '0'}::bigint, ${fromMicros(after.uploadedAtUs)}, ${after.fileId}::uuid)`
      : sql``;
    rows = await rowsOf<Row>(db, sql`
      select r.file_id, ${micros(sql`r.uploaded_at`)} as uploaded_us, r.score::text as score
      from (select s.file_id, s.uploaded_at, round(sum(${rankOf(request, configs)}) * 1000000)::bigint as score
            from transcription.search_segments s
            where ${where}
            group by s.file_id, s.uploaded_at) r
      ${keyset}
      order by r.score desc, r.uploaded_at desc, r.file_id desc
      limit ${limit + 1}`);
  }
  if (rows.length === 0) return { found: [], configs };
  const names = await rowsOf<{ file_id: string; original_name: string; uploaded_at: Date | string }>(db, sql`
    select file_id, original_name, uploaded_at from transcription.transcripts
    where file_id in (${sql.join(rows.map((r) => sql`${r.file_id}::uuid`), sql`, `)})`);
  const byId = new Map(names.map((n) => [n.file_id, n]));
  const found = rows.flatMap((r): FoundRecording[] => {
    const file = byId.get(r.file_id);
    if (!file) return [];
    return [{
      fileId: r.file_id,
      uploadedAtUs: String(r.uploaded_us),
      ...(r.score === null ? {} : { score: String(r.score) }),
      originalName: file.original_name,
      uploadedAt: new Date(file.uploaded_at),
    }];
  });
  return { found, configs };
}

/**
 * The first matching passages of each recording (best match: the best ranked), with the positions
 * of the words to mark: each word whose lexemes match one of the searched words.
 */
export async function findHits(db: Db, request: SearchRequest, configs: string[], fileIds: readonly string[]): Promise<FoundHit[]> {
  if (fileIds.length === 0) return [];
  const order = request.sort === 'best' ? sql`${rankOf(request, configs)} desc, s.ord` : sql`s.ord`;
  const rows = await rowsOf<{ file_id: string; segment_id: string; speaker_name: string; start: number; text: string; marks: number[] | string }>(db, sql`
    select h.*
    from unnest(array[${sql.join(fileIds.map((id) => sql`${id}::uuid`), sql`, `)}]) as f(id)
    cross join lateral (
      select s.file_id, s.segment_id, s.speaker_name, s.start, s.text,
             array(select w.ord::int from string_to_table(s.text, ' ') with ordinality as w(word, ord)
                   where to_tsvector(s.config::regconfig, w.word) @@ ${tsquery(sql`s.config`, request.marked)}
                   order by w.ord) as marks
      from transcription.search_segments s
      where s.file_id = f.id and ${conditions(request, configs)}
      order by ${order}
      limit ${request.hitsPerRecording}
    ) h`);
  return rows.map((r) => ({
    fileId: r.file_id,
    segmentId: r.segment_id,
    speakerName: r.speaker_name,
    start: Number(r.start),
    text: r.text,
    marks: parseIntArray(r.marks),
  }));
}

/** An int[] as the driver gives it: an array, or PostgreSQL's text form `{1,2}`. */
function parseIntArray(value: number[] | string): number[] {
  if (Array.isArray(value)) return value.map(Number);
  return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}
