/**
 * `npm run bench:search`: figures for the README of services/transcription ("Search").
 * BENCH_FILES (default 10,000) transcripts × BENCH_SEGMENTS (default 200) segments of one English
 * company are generated in a throwaway database on the PostgreSQL server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end. The text is drawn from a
 * 20,000-word vocabulary with Zipf frequencies (the word of rank r is used in proportion to 1/r, as
 * in speech), the first ranks being the words calls are made of ("okay", "yeah", "the", "account"...),
 * and one segment in ten carries one of a few set phrases ("credit card"...). Then GET /api/search
 * is timed through the service's route (HTTP inject: parsing, scope, both queries, snippets),
 * BENCH_RUNS (default 12) queries per shape after one warm-up each: median and p95.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildEnvelope } from '@earshot/kit';
import type { SearchResults } from '@earshot/contracts';
import { ms, prng, stats } from './bench-stats';

process.env.EARSHOT_TEST_DB = 'postgres';
const URL_OF_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const { createTestStack, openThrowawayDatabase } = await import('@earshot/kit/testing');
const { transcriptionService } = await import('@earshot/transcription-service');
const { reindexSegments } = await import('../services/transcription/src/repositories/search');

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 12);
const BATCH = 500;
const VOCABULARY = 20_000;

/** The most frequent words of phone calls, most frequent first (stop words included: the dictionary drops those). */
const COMMON = `the i you and to a that it yeah okay of is so in we for just have this be on what my can it's no
  yes know do not with your but all right like if get well was are think there they go at can't one about me
  just going would need want then will from an or our how see let account now time thank please because make
  sure number call back here payment today look card check sorry email order help week send money bill
  problem phone service two day name again through three could fine date month address customer refund
  change new still system pay code contract support good great information already price plan help`.split(/\s+/);
const DOMAIN = `invoice delivery warranty upgrade discount installation router subscription parcel appointment battery
  licence meter roaming mortgage insurance balance statement transfer overdraft cancellation complaint
  technician engineer broadband signal outage password login verification identity direct debit charge
  fee tariff bundle handset screen replacement repair collection courier tracking shipment deposit loan
  interest premium claim policy renewal quote estimate agreement supervisor manager escalation callback
  voucher credit debit minutes data allowance upgrade sim network coverage postcode reference ticket`.split(/\s+/);
const PHRASES = [
  'credit card',
  'account number',
  'direct debit',
  'thank you for calling',
  'reference number',
  'bank transfer',
  'customer service',
  'date of birth',
];
const CLIENTS = 50;
const USERS = 20;

const rand = prng(22);
const next = () => rand.next().value!;

/** Made-up words for the long tail (rare terms: surnames, products, places): syllables, never a real stem clash. */
function tailWord(i: number): string {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'do', 'fi', 'gu', 'be', 'ho', 'ja'];
  let n = i;
  let word = '';
  do {
    word += syllables[n % syllables.length];
    n = Math.floor(n / syllables.length);
  } while (n > 0);
  return `${word}x`;
}

function vocabulary(): string[] {
  const words = [...new Set([...COMMON, ...DOMAIN])];
  for (let i = 0; words.length < VOCABULARY; i++) words.push(tailWord(i));
  return words;
}

const database = await openThrowawayDatabase(URL_OF_SERVER, 'earshot_bench_search', 4);
const stack = await createTestStack(
  [transcriptionService],
  { TRANSCRIPTION_WORKER: 'false', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  { database },
);
const q = (text: string, params: unknown[] = []) => database.query<Record<string, unknown>>(text, params);

try {
  const company = crypto.randomUUID();
  await stack.bus.publish([
    {
      topic: 'earshot.tenant',
      key: company,
      envelope: buildEnvelope({
        type: 'company.created',
        companyId: null,
        actor: { type: 'system', id: null },
        data: {
          id: company,
          before: null,
          after: {
            name: 'Bench',
            code: 'bench',
            domain: 'bench.test',
            status: 'active',
            maxUsers: null,
            maxStorage: null,
            type: 'b2b',
            language: 'en',
          },
        },
      }),
    },
  ]);
  await stack.settle();

  // ------------------------------------------------------------ data
  const words = vocabulary();
  const started = performance.now();
  await q('create table bench_vocab (rank int primary key, word text not null)');
  for (let i = 0; i < words.length; i += 5000) {
    const chunk = words.slice(i, i + 5000);
    await q(`insert into bench_vocab select i + ${i} + 1, w from unnest($1::text[]) with ordinality as u(w, i)`, [
      chunk,
    ]);
  }
  await q('create table bench_clients as select gen_random_uuid() as id, g as n from generate_series(1, $1::int) g', [
    CLIENTS,
  ]);
  await q(
    `create table bench_files as
    select g as n, gen_random_uuid() as file_id,
           now() - (g * (730.0 / $1::int)) * interval '1 day' as uploaded_at,
           (select id from bench_clients where n = 1 + g % $2::int) as client_id,
           'user-' || (g % $3::int) as uploaded_by,
           case when g % 10 = 0 then array['urgent'] else '{}'::text[] end as tags
    from generate_series(1, $1::int) g`,
    [FILES, CLIENTS, USERS],
  );
  await q(
    `insert into transcription.transcripts (id, file_id, company_id, storage_key, filename, original_name, mime_type, size, client_id, uploaded_by, uploaded_at, engine, duration, completed_at, language)
    select gen_random_uuid(), file_id, $1::uuid, $1::text || '/' || file_id, file_id::text, 'call-' || n || '.wav', 'audio/wav', 1000000, client_id, uploaded_by, uploaded_at, 'bench', $2::int * 6, uploaded_at, 'en'
    from bench_files`,
    [company, SEGMENTS],
  );
  await q(
    `insert into transcription.search_file_tags (file_id, tags, updated_at) select file_id, tags, now() from bench_files where cardinality(tags) > 0`,
  );
  // Bulk load without the index, built once afterwards (as a restore would).
  await q('drop index transcription.search_files_doc_idx');
  const phrases = `array[${PHRASES.map((p) => `'${p}'`).join(', ')}]`;
  for (let from = 1; from <= FILES; from += BATCH) {
    const batch = [from, Math.min(FILES, from + BATCH - 1)];
    await q(
      `
      insert into transcription.search_segments (file_id, ord, segment_id, speaker_name, start, text, config, tsv)
      select f.file_id, s.ord, 's-' || f.n || '-' || s.ord, case when s.ord % 2 = 0 then 'Agent' else 'Customer' end,
             s.ord * 6.0, t.text, 'english', to_tsvector('english', t.text)
      from bench_files f
      cross join generate_series(1, $1::int) s(ord)
      cross join lateral (
        select string_agg(v.word, ' ' order by w.i)
               || case when random() < 0.1 then ' ' || (${phrases})[1 + floor(random() * ${PHRASES.length})::int] else '' end as text
        from generate_series(1, 6 + floor(random() * 28)::int + 0 * s.ord * f.n) w(i)
        cross join lateral (select floor(exp(random() * ln(${VOCABULARY})))::int + 0 * w.i as rank) k
        join bench_vocab v on v.rank = k.rank
      ) t
      where f.n between $2 and $3`,
      [SEGMENTS, ...batch],
    );
    // The recordings' rows as reindexSegments makes them.
    await q(
      `
      insert into transcription.search_files (file_id, company_id, uploaded_at, client_id, uploaded_by, language, tags, speakers, config, doc)
      select f.file_id, $1, f.uploaded_at, f.client_id, f.uploaded_by, 'en', f.tags, array['agent', 'customer'], 'english',
             (select array_to_tsvector(array_agg(distinct u.lexeme)) from transcription.search_segments x cross join lateral unnest(x.tsv) u where x.file_id = f.file_id)
      from bench_files f where f.n between $2 and $3`,
      [company, ...batch],
    );
    process.stdout.write(`\r${batch[1]} / ${FILES} transcripts`);
  }
  process.stdout.write('\n');
  // One connection of the pool: the setting holds for the statements after it.
  await q(`set maintenance_work_mem = '512MB';
    create index search_files_doc_idx on transcription.search_files using gin (doc);
    analyze;`);
  const [size] =
    await q(`select count(*)::int as segments, sum(length(text) - length(replace(text, ' ', '')) + 1)::bigint as words,
    pg_size_pretty(pg_total_relation_size('transcription.search_segments') + pg_total_relation_size('transcription.search_files')) as size
    from transcription.search_segments`);
  const loadSeconds = (performance.now() - started) / 1000;

  // ------------------------------------------------------------ queries
  // Minted now: generating the data takes longer than an access token lives.
  const user = await stack.tokenFor('USER', company);
  const byRank = (from: number, to: number) =>
    words
      .slice(from - 1, to)
      .filter(
        (w) =>
          !/^(the|i|you|and|to|a|that|it|of|is|so|in|we|for|have|this|be|on|what|my|can|no|do|not|with|your|but|all|if|was|are|there|they|at|about|me|would|then|will|from|an|or|our|how|now|here|again|through|could|just|because|still)$/.test(
            w,
          ),
      );
  // The frequent words the dictionary keeps (its stop words find nothing).
  const kept = new Set(
    (await q(`select word from bench_vocab where rank <= 2000 and to_tsvector('english', word) <> ''::tsvector`)).map(
      (r) => String(r.word),
    ),
  );
  const common = byRank(1, 60).filter((w) => kept.has(w));
  const middle = byRank(300, 1000);
  const rare = byRank(12_000, 20_000);
  const pick = (list: string[]) => list[Math.floor(next() * list.length)]!;
  const [month] = await q(
    `select to_char(max(uploaded_at) - interval '30 days', 'YYYY-MM-DD') as from, to_char(max(uploaded_at), 'YYYY-MM-DD') as to from bench_files`,
  );
  const [client] = await q('select id from bench_clients where n = 7');
  type Shape = { name: string; query: () => Record<string, string> };
  const shapes: Shape[] = [];
  for (const sort of ['newest', 'best']) {
    shapes.push(
      { name: `common word, ${sort}`, query: () => ({ q: pick(common), sort }) },
      { name: `mid-frequency word, ${sort}`, query: () => ({ q: pick(middle), sort }) },
      { name: `rare word, ${sort}`, query: () => ({ q: pick(rare), sort }) },
      { name: `two words, ${sort}`, query: () => ({ q: `${pick(middle)} ${pick(common)}`, sort }) },
      { name: `quoted phrase, ${sort}`, query: () => ({ q: `"${pick(PHRASES)}"`, sort }) },
      {
        name: `common word, last 30 days, ${sort}`,
        query: () => ({ q: pick(common), sort, from: String(month!.from), to: String(month!.to) }),
      },
      {
        name: `common word, one client, ${sort}`,
        query: () => ({ q: pick(common), sort, clientId: String(client!.id) }),
      },
      { name: `common word, speaker Customer, ${sort}`, query: () => ({ q: pick(common), sort, speaker: 'Customer' }) },
      { name: `mid word, tag, ${sort}`, query: () => ({ q: pick(middle), sort, tag: 'urgent' }) },
    );
  }
  const search = async (query: Record<string, string>): Promise<{ time: number; body: SearchResults }> => {
    const t0 = performance.now();
    const res = await stack.as(user, { method: 'GET', url: `/api/search?${new URLSearchParams(query).toString()}` });
    const time = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`search ${JSON.stringify(query)}: ${res.statusCode} ${res.body}`);
    return { time, body: res.json() as SearchResults };
  };
  const rows: { name: string; median: number; p95: number; max: number; recordings: number }[] = [];
  const all: number[] = [];
  for (const shape of shapes) {
    await search(shape.query());
    const times: number[] = [];
    let recordings = 0;
    for (let i = 0; i < RUNS; i++) {
      const { time, body } = await search(shape.query());
      times.push(time);
      recordings += body.items.length;
    }
    all.push(...times);
    const s = stats(times);
    rows.push({ name: shape.name, ...s, recordings: Math.round(recordings / RUNS) });
    console.log(`${shape.name}: median ${ms(s.median)}, p95 ${ms(s.p95)}`);
  }
  const pages: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const word = pick(common);
    const first = await search({ q: word });
    if (!first.body.nextCursor) continue;
    pages.push((await search({ q: word, cursor: first.body.nextCursor })).time);
  }
  all.push(...pages);
  rows.push({ name: 'common word, newest, a later page (cursor)', ...stats(pages), recordings: 20 });

  // What keeping the index current costs a write: one recording's passages rebuilt from its
  // transcript (as after a word edit), in a transaction of its own.
  const [one] = await q('select file_id from bench_files where n = 1');
  await q(
    `update transcription.transcripts t set
      speakers = '[{"id":"speaker_0","label":"Agent","channel":0},{"id":"speaker_1","label":"Customer","channel":1}]',
      segments = (select jsonb_agg(jsonb_build_object('_id', s.segment_id, 'speakerId', 'speaker_' || (s.ord % 2), 'start', s.start, 'end', s.start + 5, 'text', s.text,
                   'words', (select jsonb_agg(jsonb_build_object('_id', s.segment_id || '-' || w.i, 'text', w.word, 'start', s.start, 'end', s.start + 5))
                             from string_to_table(s.text, ' ') with ordinality w(word, i))) order by s.ord)
                  from transcription.search_segments s where s.file_id = t.file_id)
    where t.file_id = $1`,
    [one!.file_id],
  );
  const ctx = stack.running.contexts.get('transcription')!;
  const reindexes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await ctx.transact((tx) => reindexSegments(tx, String(one!.file_id)));
    reindexes.push(performance.now() - t0);
  }
  const reindex = stats(reindexes);

  console.log(
    `Machine: ${availableParallelism()} CPUs, load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; PostgreSQL ${(await q('show server_version'))[0]!.server_version}`,
  );
  console.log(
    `Data: ${FILES} transcripts × ${SEGMENTS} segments = ${size!.segments} rows, ${Number(size!.words).toLocaleString('en')} words, search tables ${size!.size}; generated and indexed in ${loadSeconds.toFixed(0)} s`,
  );
  console.log(
    `${RUNS} queries per shape after one warm-up (${all.length} in all), through GET /api/search, 20 recordings a page:\n`,
  );
  console.log('| query | median | p95 | max | recordings / page |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${ms(r.median)} | ${ms(r.p95)} | ${ms(r.max)} | ${r.recordings} |`);
  const overall = stats(all);
  console.log(
    `| **all ${all.length} queries** | **${ms(overall.median)}** | **${ms(overall.p95)}** | ${ms(overall.max)} | |`,
  );
  console.log(
    `\nRe-indexing one recording of ${SEGMENTS} passages (what every transcript write adds to its transaction): median ${ms(reindex.median)}, p95 ${ms(reindex.p95)}`,
  );
  if (process.env.BENCH_KEEP) {
    // For EXPLAIN ANALYZE by hand: the database stays (drop it yourself).
    console.log(`Kept database ${String((await q('select current_database() as name'))[0]!.name)}`);
    process.exit(0);
  }
} finally {
  await stack.close();
}
