/**
 * `npx tsx scripts/bench-retention.ts`: figures for docs/performance.md ("Retention").
 * In a throwaway database on the PostgreSQL server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end:
 * - audit: BENCH_AUDIT_ENTRIES (default 200,000) entries of one company from 2020, generated with
 *   SQL and sealed into its chain, cut by the audit retention (auditDays 365), then the kept chain
 *   verified;
 * - recordings: BENCH_RECORDINGS (default 2,000) file rows of one company uploaded in 2020 (their
 *   objects absent: removing a missing object is a no-op), removed by the recordings retention
 *   (recordingsDays 30), each with its file.deleted in the outbox.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

process.env.EARSHOT_TEST_DB = 'postgres';
const URL_OF_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const { createTestStack, openThrowawayDatabase, serveUnmeteredCredits } = await import('@earshot/kit/testing');
const { createStorage } = await import('@earshot/kit');
const { auditService } = await import('@earshot/audit-service');
const { fileService } = await import('@earshot/file-service');
const { AuditLog } = await import('../services/audit/src/services/audit');
const { auditRetention } = await import('../services/audit/src/services/retention');
const { recordingRetention } = await import('../services/file/src/services/retention');

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 200_000);
const RECORDINGS = Number(process.env.BENCH_RECORDINGS ?? 2_000);

const database = await openThrowawayDatabase(URL_OF_SERVER, 'earshot_bench_retention', 4);
const stack = await createTestStack(
  [fileService, auditService],
  { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  { database },
);
serveUnmeteredCredits(stack.database);
const q = (text: string, params: unknown[] = []) => database.query<Record<string, unknown>>(text, params);
const seconds = (from: number) => (performance.now() - from) / 1000;

try {
  const company = crypto.randomUUID();
  await q(
    `insert into audit.entries (id, occurred_at, type, version, company_id, actor, actor_id, target_type, target_id, data)
     select gen_random_uuid(), date_trunc('milliseconds', timestamptz '2020-01-01T00:00:00Z' + make_interval(secs => g)),
            'user.signed_in', 1, $1, jsonb_build_object('type', 'user', 'id', 'user-' || (g % 1000)), 'user-' || (g % 1000), 'user', 'user-' || (g % 1000),
            jsonb_build_object('id', 'user-' || (g % 1000), 'method', 'password')
     from generate_series(1, $2::int) as g`,
    [company, ENTRIES],
  );
  const ctx = stack.running.contexts.get('audit')!;
  const audit = new AuditLog(ctx);
  await audit.chain.sealOldEntries((fn) => ctx.transact((tx) => fn(tx)));
  await q(`insert into audit.retention_policies (company_id, audit_days) values ($1, 365)`, [company]);
  let started = performance.now();
  const cut = await auditRetention(ctx).run(new Date());
  const pruned = seconds(started);
  if (cut[0]?.removed.entries !== ENTRIES - 1)
    throw new Error(`expected ${ENTRIES - 1} entries cut, got ${JSON.stringify(cut)}`);
  const state = await audit.chain.verifyChain(company);
  if (state.brokenAt) throw new Error(`the kept chain does not verify: ${JSON.stringify(state)}`);

  const fileCompany = crypto.randomUUID();
  await q(
    `insert into file.files (id, company_id, storage_key, filename, original_name, mime_type, size, status, transcription_status, uploaded_at)
     select id, $1::uuid, $1::text || '/' || id, id::text, 'call.wav', 'audio/wav', 1000, 'completed', 'completed', timestamptz '2020-01-01T00:00:00Z' + make_interval(secs => g)
     from (select gen_random_uuid() as id, g from generate_series(1, $2::int) as g) as rows`,
    [fileCompany, RECORDINGS],
  );
  await q(`insert into file.retention_policies (company_id, recordings_days) values ($1, 30)`, [fileCompany]);
  const fileCtx = stack.running.contexts.get('file')!;
  started = performance.now();
  const removed = await recordingRetention(fileCtx as never, createStorage(fileCtx.config as never)).run(new Date());
  const files = seconds(started);
  if (removed[0]?.removed.recordings !== RECORDINGS)
    throw new Error(`expected ${RECORDINGS} recordings removed, got ${JSON.stringify(removed)}`);

  console.log(
    JSON.stringify({
      load: loadavg()[0]!.toFixed(1),
      audit: { entries: ENTRIES, cutSeconds: +pruned.toFixed(1), perSecond: Math.round((ENTRIES - 1) / pruned) },
      recordings: { files: RECORDINGS, seconds: +files.toFixed(1), perSecond: Math.round(RECORDINGS / files) },
    }),
  );
} finally {
  await stack.close();
}
