/**
 * `npm run bench:analytics`: figures for docs/performance.md ("Dashboards") and the prompt service's
 * ("Dashboards"). BENCH_CALLS (default 100,000) calls of one company over the last year are written
 * straight into the dashboards' read model (prompt.dashboard_calls, with 40 agents, 2,000 clients,
 * 25 tags, stereo talk figures and scorecard answers; the day, agent, tag and client-month sums the projection keeps
 * with each call are made from them in one pass), in a throwaway database on the PostgreSQL
 * server of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped at the end.
 * Then GET /api/dashboards/analytics (and /scorecards, /calls) is timed through the service's
 * route (HTTP inject: the guard, zod, the scope, every query of the answer and its serialisation),
 * BENCH_RUNS (default 30) times per shape after two warm-ups: median and p95.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ms, stats } from './bench-stats';

process.env.EARSHOT_TEST_DB = 'postgres';
const URL_OF_SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const { createTestStack, openThrowawayDatabase } = await import('@earshot/kit/testing');
const { promptService } = await import('@earshot/prompt-service');

const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const AGENTS = 40;
const CLIENTS = 2_000;
const TAGS = 25;
/** Agents' user ids: uuids numbered in SQL (`n` an integer expression) and here. */
const agentId = (n: string) => `('00000000-0000-4000-9000-' || lpad((${n})::text, 12, '0'))`;
const AGENT_7 = '00000000-0000-4000-9000-000000000007';

const database = await openThrowawayDatabase(URL_OF_SERVER, 'earshot_bench_analytics', 4);
const stack = await createTestStack([promptService], { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' }, { database });
const q = (text: string, params: unknown[] = []) => database.query<Record<string, unknown>>(text, params);

try {
  const company = crypto.randomUUID();
  const promptId = crypto.randomUUID();
  const started = performance.now();
  await q(
    `insert into prompt.dashboard_members (user_id, company_id, name)
    select ${agentId('g')}, $1::uuid, 'Agent ' || g from generate_series(1, $2::int) g`,
    [company, AGENTS],
  );
  await q(
    `insert into prompt.clients (id, company_id, name, updated_at)
    select ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, $1::uuid, 'Client ' || g, now() from generate_series(1, $2::int) g`,
    [company, CLIENTS],
  );
  // One year back from today; a call in ten without a client, one in three with a tag or two; 80% stereo.
  await q(
    `insert into prompt.dashboard_calls (file_id, company_id, file_name, at, day, seconds, uploaded_by, agent_id, client_id, tags,
      agent_talk, customer_talk, talk, silence, "overlaps", words)
    select gen_random_uuid(), $1::uuid, 'call-' || g || '.wav', t, (t at time zone 'UTC')::date, d, ${agentId('a')}, ${agentId('a')},
      case when g % 10 = 0 then null else ('00000000-0000-4000-8000-' || lpad((1 + g % $3::int)::text, 12, '0'))::uuid end,
      case when g % 3 = 0 then array['tag-' || (g % $4::int), 'tag-' || ((g * 7) % $4::int)] else '{}'::text[] end,
      case when g % 5 = 0 then null else d * 0.4 end, case when g % 5 = 0 then null else d * 0.35 end,
      d * 0.75, d * 0.25, g % 4, (d * 2.3)::int
    from (select g, now() - random() * interval '365 days' as t, 60 + random() * 900 as d, 1 + g % $5::int as a
          from generate_series(1, $2::int) g) s`,
    [company, CALLS, CLIENTS, TAGS, AGENTS],
  );
  // The sums the projection keeps with each call (services/prompt/src/repositories/dashboards.ts), made here in one pass.
  await q(`insert into prompt.dashboard_days select company_id, day, count(*), sum(seconds),
      count(agent_talk), coalesce(sum(agent_talk / (agent_talk + customer_talk)), 0), coalesce(sum(customer_talk / (agent_talk + customer_talk)), 0),
      count(silence), coalesce(sum(silence / seconds), 0), count(talk), coalesce(sum("overlaps"), 0), coalesce(sum(words), 0), coalesce(sum(talk), 0)
    from prompt.dashboard_calls group by company_id, day`);
  await q(`insert into prompt.dashboard_agent_days select company_id, day, agent_id, count(*), sum(seconds),
      count(agent_talk), coalesce(sum(agent_talk / (agent_talk + customer_talk)), 0), coalesce(sum(words), 0), coalesce(sum(talk), 0)
    from prompt.dashboard_calls group by company_id, day, agent_id`);
  await q(`insert into prompt.dashboard_client_months select company_id, date_trunc('month', day)::date, client_id, count(*), sum(seconds), max(at)
    from prompt.dashboard_calls where client_id is not null group by 1, 2, 3`);
  await q(`insert into prompt.dashboard_tag_days select company_id, day, tag, count(*), sum(seconds)
    from prompt.dashboard_calls, unnest(tags) tag group by company_id, day, tag`);
  // A completed run per call is what the scorecards read; the answers need a run to belong to.
  await q(
    `insert into prompt.analysis_runs (id, company_id, file_id, prompt_id, prompt_version, status, result, finished_at)
    select gen_random_uuid(), company_id, file_id, $1::uuid, 1, 'completed', '{}'::jsonb, at from prompt.dashboard_calls`,
    [promptId],
  );
  await q(`insert into prompt.dashboard_scores (file_id, prompt_id, field, run_id, company_id, day, client_id, finished_at, int_value)
    select r.file_id, r.prompt_id, 'score', r.id, r.company_id, c.day, c.client_id, r.finished_at, (abs(hashtext(r.file_id::text)) % 10) + 1
    from prompt.analysis_runs r join prompt.dashboard_calls c using (file_id)`);
  await q('vacuum analyze prompt.dashboard_calls');
  await q('vacuum analyze prompt.dashboard_scores');
  for (const table of ['dashboard_days', 'dashboard_agent_days', 'dashboard_tag_days', 'dashboard_client_months'])
    await q(`vacuum analyze prompt.${table}`);
  const loadSeconds = (performance.now() - started) / 1000;

  const admin = await stack.tokenFor('ADMIN', company);
  const today = new Date();
  const to = today.toISOString().slice(0, 10);
  const from = new Date(today.getTime() - 364 * 86_400_000).toISOString().slice(0, 10);
  // The scorecards route checks the prompt against the company's: a global prompt with an integer field.
  await q(
    `insert into prompt.prompts (id, name, description, prompt, type, expected_format, scope, is_global, companies, users, version)
    values ($1, 'Bench', '', 'x', 'custom', '[{"name":"score","type":"integer","range":"1-10","description":"s"}]'::jsonb, 'global', true, '{}', '{}', 1)`,
    [promptId],
  );

  const shapes = [
    { name: 'analytics, one year by week', url: `/api/dashboards/analytics?from=${from}&to=${to}&groupBy=week` },
    { name: 'analytics, one year by day', url: `/api/dashboards/analytics?from=${from}&to=${to}&groupBy=day` },
    { name: 'analytics, one year by month', url: `/api/dashboards/analytics?from=${from}&to=${to}&groupBy=month` },
    {
      name: 'analytics, one year by week, one agent',
      url: `/api/dashboards/analytics?from=${from}&to=${to}&groupBy=week&agentId=${AGENT_7}`,
    },
    {
      name: 'analytics, one year by week, one tag',
      url: `/api/dashboards/analytics?from=${from}&to=${to}&groupBy=week&tag=tag-3`,
    },
    { name: 'analytics, last 90 days (the default) by week', url: '/api/dashboards/analytics?groupBy=week' },
    {
      name: 'scorecards, one year by week (integer field)',
      url: `/api/dashboards/scorecards?from=${from}&to=${to}&groupBy=week&promptId=${promptId}&field=score`,
    },
    {
      name: 'the calls behind a point (50 of one month)',
      url: `/api/dashboards/calls?from=${to.slice(0, 8)}01&to=${to}`,
    },
    {
      name: `CRM: ${CLIENTS.toLocaleString('en')} clients with a six-month trend`,
      url: `/api/dashboards/crm?promptId=${promptId}&field=score`,
    },
  ];
  const rows: { name: string; median: number; p95: number; max: number }[] = [];
  for (const shape of shapes) {
    const times: number[] = [];
    for (let i = 0; i < RUNS + 2; i++) {
      const t0 = performance.now();
      const res = await stack.as(admin, { method: 'GET', url: shape.url });
      const elapsed = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${shape.url}: ${res.statusCode} ${res.body}`);
      if (i >= 2) times.push(elapsed);
    }
    const s = stats(times);
    rows.push({ name: shape.name, median: s.median, p95: s.p95, max: s.max });
  }
  const [size] = await q(
    `select count(*)::int as calls, pg_size_pretty(pg_total_relation_size('prompt.dashboard_calls')) as size from prompt.dashboard_calls`,
  );

  console.log(
    `Measured ${new Date().toISOString().slice(0, 16)} UTC. Machine: ${availableParallelism()} CPUs, load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; PostgreSQL ${(await q('show server_version'))[0]!.server_version}`,
  );
  console.log(
    `Data: ${size!.calls} calls of one company over one year (${AGENTS} agents, ${CLIENTS} clients, ${TAGS} tags), dashboard_calls ${size!.size} with its indexes; generated in ${loadSeconds.toFixed(0)} s`,
  );
  console.log(
    `${RUNS} requests per shape after two warm-ups, through the HTTP route (inject), as the company's ADMIN:\n`,
  );
  console.log('| request | median | p95 | max |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${ms(r.median)} | ${ms(r.p95)} | ${ms(r.max)} |`);
  if (process.env.BENCH_KEEP) {
    // For EXPLAIN ANALYZE by hand: the database stays (drop it yourself).
    console.log(`Kept database ${String((await q('select current_database() as name'))[0]!.name)}, company ${company}`);
    process.exit(0);
  }
} finally {
  await stack.close();
}
