/**
 * `npm run bench:audit-verify`: figures for the README of services/audit ("Hash chain").
 * BENCH_ENTRIES (default 1,000,000) audit entries of one company are generated with SQL
 * (generate_series: sign-ins and updates with an actor, a target and a small data object, one a
 * second) in a throwaway database on the PostgreSQL server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end. They are written without hashes,
 * as a log from before the chain, so the first figure is the one-time sealing of an existing log;
 * the second is `verify` of that chain (what GET /api/audit/verify and `npm run audit -- verify
 * --company` run): every entry read in chain order, its canonical form rebuilt and hashed. Goal: < 30 s.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

process.env.EARSHOT_TEST_DB = 'postgres';
const URL_OF_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const { createTestStack, openThrowawayDatabase } = await import('@earshot/kit/testing');
const { auditService } = await import('@earshot/audit-service');
const { AuditLog } = await import('../services/audit/src/services/audit');

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);

const database = await openThrowawayDatabase(URL_OF_SERVER, 'earshot_bench_audit', 4);
const stack = await createTestStack([auditService], { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' }, { database });
const q = (text: string, params: unknown[] = []) => database.query<Record<string, unknown>>(text, params);
const seconds = (from: number) => (performance.now() - from) / 1000;

try {
  const company = crypto.randomUUID();
  let started = performance.now();
  await q(
    `insert into audit.entries (id, occurred_at, type, version, company_id, actor, actor_id, target_type, target_id, data)
     select gen_random_uuid(),
            date_trunc('milliseconds', timestamptz '2026-01-01T00:00:00Z' + make_interval(secs => g)),
            case when g % 5 = 0 then 'user.updated' else 'user.signed_in' end, 1, $1,
            jsonb_build_object('type', 'user', 'id', 'user-' || (g % 1000), 'email', 'user' || (g % 1000) || '@bench.test', 'role', 'USER', 'ip', '203.0.113.' || (g % 250)),
            'user-' || (g % 1000), 'user', 'user-' || (g % 1000),
            case when g % 5 = 0
              then jsonb_build_object('id', 'user-' || (g % 1000), 'before', jsonb_build_object('role', 'USER'), 'after', jsonb_build_object('role', 'ADMIN'))
              else jsonb_build_object('id', 'user-' || (g % 1000), 'email', 'user' || (g % 1000) || '@bench.test', 'method', 'password') end
     from generate_series(1, $2::int) as g`,
    [company, ENTRIES],
  );
  await q('analyze audit.entries');
  const generated = seconds(started);
  const { size } = (await q(`select pg_size_pretty(pg_total_relation_size('audit.entries')) as size`))[0] as {
    size: string;
  };

  const ctx = stack.running.contexts.get('audit')!;
  const audit = new AuditLog(ctx);
  started = performance.now();
  await audit.chain.sealOldEntries((fn) => ctx.transact((tx) => fn(tx)));
  const sealed = seconds(started);

  started = performance.now();
  const cpu = process.cpuUsage();
  const state = await audit.chain.verifyChain(company);
  const verified = seconds(started);
  const { user, system } = process.cpuUsage(cpu);
  const nodeCpu = (user + system) / 1e6;
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
  if (state.brokenAt || state.entries !== ENTRIES)
    throw new Error(`the generated chain does not verify: ${JSON.stringify(state)}`);

  console.log(
    `Machine: ${availableParallelism()} CPUs, load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; PostgreSQL ${String((await q('show server_version'))[0]!.server_version)}; Node ${process.version}`,
  );
  console.log(
    `Data: ${ENTRIES.toLocaleString('en')} entries of one company (table and indexes ${size}), generated with SQL in ${generated.toFixed(1)} s`,
  );
  console.log(
    `Sealing them as a log from before the chain (once, at the first start): ${sealed.toFixed(1)} s (${Math.round(ENTRIES / sealed).toLocaleString('en')} entries/s)`,
  );
  console.log(
    `verify of the ${ENTRIES.toLocaleString('en')}-entry chain: ${verified.toFixed(1)} s (${Math.round(ENTRIES / verified).toLocaleString('en')} entries/s, heap ${heapMb.toFixed(0)} MB; Node's own CPU ${nodeCpu.toFixed(1)} s, the rest is PostgreSQL and waiting for a core) — goal < 30 s: ${verified < 30 ? 'met' : 'NOT met'}`,
  );
} finally {
  await stack.close();
}
