/**
 * `npm run bench:queue`: the cost of one fair claim of the transcription queue (figures for
 * docs/performance.md). A throwaway database (PostgreSQL when DATABASE_URL names a server, else
 * PGlite) holds BENCH_JOBS jobs (default 200,000) of BENCH_COMPANIES companies (default 50), one in
 * ten pending, the rest completed, as a platform's history looks; BENCH_CLAIMS claims (default 500)
 * are timed, each in a transaction rolled back so every claim sees the same queue. The plan is
 * printed with the scans it uses: the claim must never read the queue whole (no sequential scan
 * of the jobs table), whatever its length.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { kitMigrations, migrate, openDatabase, type Database } from '@earshot/kit';
import { openThrowawayDatabase } from '@earshot/kit/testing';
import { migrations } from '../services/transcription/src/db/migrations';
import { claim, claimStatement } from '../services/transcription/src/repositories/jobs';
import { ms, stats } from './bench-stats';

const JOBS = Number(process.env.BENCH_JOBS ?? 200_000);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 50);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 500);
const CAP = 2;

class Rollback extends Error {}

async function seed(database: Database): Promise<void> {
  const companies = Array.from({ length: COMPANIES }, () => randomUUID());
  await database.query(`create temporary table bench_companies (n int primary key, id uuid not null)`);
  for (const [n, id] of companies.entries())
    await database.query('insert into bench_companies values ($1, $2)', [n, id]);
  await database.query(
    `insert into transcription.transcripts (id, file_id, company_id, storage_key, filename, original_name, mime_type, size, uploaded_at)
     select gen_random_uuid(), gen_random_uuid(), c.id, 'k', 'f.wav', 'f.wav', 'audio/wav', 1, now()
     from generate_series(1, $1) as g(i)
     join bench_companies c on c.n = g.i % $2`,
    [JOBS, COMPANIES],
  );
  // Every tenth job pending (due since a moment spread over the last day), the others completed.
  await database.query(
    `insert into transcription.jobs (file_id, company_id, status, next_attempt_at)
     select file_id, company_id, case when row_number() over () % 10 = 0 then 'pending' else 'completed' end,
            now() - random() * interval '1 day'
     from transcription.transcripts`,
  );
  await database.query('analyze transcription.jobs');
}

/** The scan nodes of the claim's plan, e.g. "Index Only Scan jobs_company_due_idx". */
async function scans(database: Database): Promise<string[]> {
  const found: string[] = [];
  const explained = (await database.db.execute(
    sql`explain (format json) ${claimStatement('bench', 60_000, CAP)}`,
  )) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
  const walk = (node: Record<string, unknown>) => {
    const type = node['Node Type'] as string;
    if (type.includes('Scan') && node['Relation Name'])
      found.push(`${type} ${(node['Index Name'] as string | undefined) ?? (node['Relation Name'] as string)}`);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  const root = explained.rows[0]!['QUERY PLAN'];
  walk((Array.isArray(root) ? root[0] : JSON.parse(root as string)[0]).Plan);
  return found;
}

async function bench(backend: string, database: Database): Promise<void> {
  await migrate(database, 'transcription', [...kitMigrations, ...migrations]);
  const seeded = performance.now();
  await seed(database);
  console.log(`${backend}: ${JOBS} jobs of ${COMPANIES} companies seeded in ${ms(performance.now() - seeded)}`);
  const plan = await scans(database);
  console.log(`  plan scans: ${[...new Set(plan)].join(', ')}`);
  if (plan.some((s) => s.startsWith('Seq Scan jobs'))) console.log('  WARNING: the claim reads the jobs table whole');
  const samples: number[] = [];
  for (let i = 0; i < CLAIMS; i++) {
    const started = performance.now();
    await database.db
      .transaction(async (tx) => {
        if (!(await claim(tx, 'bench', 60_000, CAP))) throw new Error('nothing claimed');
        samples.push(performance.now() - started);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
  }
  const s = stats(samples);
  console.log(`  claim: median ${ms(s.median)}, p95 ${ms(s.p95)}, max ${ms(s.max)} (${CLAIMS} claims)`);
}

const url = process.env.DATABASE_URL;
const database = url ? await openThrowawayDatabase(url, 'earshot_bench_queue', 2) : await openDatabase({});
try {
  await bench(url ? 'PostgreSQL' : 'PGlite', database);
} finally {
  await database.close();
}
