// `npm run bench:tracing`: what tracing costs on the request path. All-in-one processes as
// `npm start` runs them (compiled, production mode, logs at warn, no web build), alike but for the
// OpenTelemetry settings: one with no OTEL_EXPORTER_OTLP_ENDPOINT (nothing loaded), one tracing every
// request (http, pg, the bus) and exporting OTLP/HTTP protobuf to a minimal collector in this
// process, one sampling 10% of traces (OTEL_TRACES_SAMPLER=parentbased_traceidratio, what a busy
// deployment might run) and, on a Node that has it, one tracing every request with
// --experimental-async-context-frame. Load: GET /api/users/profile as a signed-in USER (bearer
// token) with autocannon, at each of BENCH_CONNECTIONS (default 20,100), BENCH_DURATION_S (default
// 20) per setup after a 2 s warm-up each, in BENCH_ROUNDS (default 10) slices taken in turn. Figures
// are answers per second and the server's CPU time per answer (from /proc), each setup's as the
// median of its rounds, and the ratios to tracing off as the median of each round's ratio to the
// tracing-off slice of the same round (goal: at most 1.1x), with the load average before and after:
// the machine's other load drifts over seconds and moves both. With DATABASE_URL each process gets a
// throwaway database on that server (so SQL is traced too); otherwise each has its own embedded
// PGlite. BENCH_CPU_PROFILE_DIR=<dir> writes each server's V8 CPU profile under <dir>/<setup>
// (summarise with scripts/cpu-profile-summary.ts). BENCH_REFERENCE=true adds two setups that split
// the cost of a request the sampler leaves out: tracing on with no request sampled
// (parentbased_always_off), and tracing off in a process that entered an AsyncLocalStorage (what
// the context manager's own storage costs every await on a Node that keeps it in promise hooks).
// Everything listens on 127.0.0.1 only.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '@earshot/kit';
import { openThrowawayDatabase } from '@earshot/kit/testing';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
const CONNECTION_RUNS = (process.env.BENCH_CONNECTIONS ?? '20,100').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PATH = '/api/users/profile';
const PASSWORD = 'bench-tracing-demo-password';

interface AutocannonResult {
  '2xx': number;
  duration: number;
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<AutocannonResult>;

/** A collector that takes every export and answers success, doing as little as it can. */
async function startSink(): Promise<{ endpoint: string; exports: () => number; close: () => void }> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => count,
    close: () => server.close(),
  };
}

interface Setup {
  label: string;
  child: ChildProcess;
  origin: string;
  token: string;
  dataDir: string;
  database?: Database;
}

async function startSetup(label: string, extra: Record<string, string>): Promise<Setup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-bench-tracing-'));
  const database = process.env.DATABASE_URL
    ? await openThrowawayDatabase(process.env.DATABASE_URL, 'earshot_bench_tracing', 1)
    : undefined;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    WEB_DIST: dataDir,
    SKIP_WEB_BUILD: 'true',
    SEED_DEMO: 'true',
    DEMO_PASSWORD: PASSWORD,
    ADMIN_PASSWORD: 'bench-tracing-admin-password',
    RATE_LIMIT_MAX: '100000000',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
    ...extra,
  };
  // Where each setup's time goes: a V8 CPU profile per process, written when it stops.
  const profiling = process.env.BENCH_CPU_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_CPU_PROFILE_DIR, label.replace(/\W+/g, '-'))}`]
    : [];
  if (database) {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${(await database.query<{ name: string }>('select current_database() as name'))[0]!.name}`;
    env.DATABASE_URL = url.toString();
  }
  // `npm start`'s own script: the compiled all-in-one, in its process, without the web build.
  const child = spawn(process.execPath, [...profiling, join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let banner = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const match = /Earshot is running at http:\/\/localhost:(\d+)/.exec(banner);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`${label}: the all-in-one exited (${code})`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'user@acme.test', password: PASSWORD }),
  });
  const token = login.headers
    .getSetCookie()
    .map((c) => /^earshot_at=([^;]+)/.exec(c)?.[1])
    .find(Boolean);
  if (login.status !== 200 || !token) throw new Error(`${label}: sign-in failed (${login.status})`);
  const check = await fetch(`${origin}${PATH}`, { headers: { authorization: `Bearer ${token}` } });
  if (check.status !== 200) throw new Error(`${label}: ${PATH} answered ${check.status}`);
  return { label, child, origin, token, dataDir, database };
}

async function stopSetup(setup: Setup): Promise<void> {
  if (setup.child.exitCode === null) {
    const exited = new Promise((resolve) => setup.child.once('exit', resolve));
    setup.child.kill('SIGTERM');
    await exited;
  }
  await setup.database?.close();
  rmSync(setup.dataDir, { recursive: true, force: true });
}

const load = (setup: Setup, connections: number, duration: number) =>
  autocannon({
    url: `${setup.origin}${PATH}`,
    connections,
    duration,
    headers: { authorization: `Bearer ${setup.token}` },
  });

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

interface Slice {
  result: AutocannonResult;
  /** The server's CPU ms over the slice. */
  cpu: number;
}

/** Fewer answers than this in a slice, and the round is left out of the ratios. */
const MIN_ANSWERS = 20;
const rate = (part: Slice) => part.result['2xx'] / part.result.duration;
const cpuPerAnswer = (part: Slice) => (part.cpu * 1000) / part.result['2xx'];
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function slice(setup: Setup, connections: number, duration: number): Promise<Slice> {
  const before = cpuMs(setup.child.pid!);
  const result = await load(setup, connections, duration);
  return { result, cpu: cpuMs(setup.child.pid!) - before };
}

/** A module that enters an AsyncLocalStorage: Node's async hooks then run for every promise, with nothing traced. */
const ENTER_STORAGE = 'import{AsyncLocalStorage}from\\"node:async_hooks\\";new AsyncLocalStorage().enterWith(0)';

const sink = await startSink();
const setups: Setup[] = [];
try {
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' };
  // One after the other: cold starts at once on two cores would only slow each other.
  setups.push(await startSetup('tracing off', {}));
  setups.push(await startSetup('tracing on', tracing));
  setups.push(
    await startSetup('tracing on, 10% sampled', {
      ...tracing,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    }),
  );
  if (process.env.BENCH_REFERENCE === 'true') {
    setups.push(
      await startSetup('tracing on, no request sampled', {
        ...tracing,
        OTEL_TRACES_SAMPLER: 'parentbased_always_off',
      }),
    );
    setups.push(
      await startSetup('tracing off, AsyncLocalStorage entered', {
        NODE_OPTIONS: `--import "data:text/javascript,${ENTER_STORAGE}"`,
      }),
    );
  }
  // Node 22.7 and later can keep AsyncLocalStorage (the context manager's) in V8's async context
  // frames instead of promise hooks, which slow every await of the process once set.
  if (process.allowedNodeEnvironmentFlags.has('--experimental-async-context-frame'))
    setups.push(
      await startSetup('tracing on, async context frame', {
        ...tracing,
        NODE_OPTIONS: '--experimental-async-context-frame',
      }),
    );
  const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
  const lines: string[] = [];
  for (const connections of CONNECTION_RUNS) {
    for (const setup of setups) await load(setup, connections, 2);
    const loadBefore = loadavg()[0]!;
    const slices = new Map<string, Slice[]>(setups.map((s) => [s.label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // The order rotates, so no setup always follows the same one.
      const order = [...setups.slice(round % setups.length), ...setups.slice(0, round % setups.length)];
      for (const setup of order) slices.get(setup.label)!.push(await slice(setup, connections, DURATION_S / ROUNDS));
    }
    const loadAfter = loadavg()[0]!;
    const off = slices.get(setups[0]!.label)!;
    const rows = [...slices].map(([label, parts]) => {
      // Each round's ratio against tracing off in the same round: the machine's other load drifts
      // over seconds, so slices taken together see alike, and the median drops the rounds it hit one side of.
      // A round where either slice got (next to) no answers says nothing about the cost per answer.
      const ratios = parts
        .map((p, round) => ({ p, off: off[round]! }))
        .filter(({ p, off }) => p.result['2xx'] >= MIN_ANSWERS && off.result['2xx'] >= MIN_ANSWERS)
        .map(({ p, off }) => ({ answers: rate(off) / rate(p), cpu: cpuPerAnswer(p) / cpuPerAnswer(off) }));
      return {
        setup: label,
        '2xx/s (median)': Math.round(median(parts.map(rate))),
        'CPU µs/answer (median)': Math.round(
          median(parts.filter((p) => p.result['2xx'] >= MIN_ANSWERS).map(cpuPerAnswer)),
        ),
        'fewer answers/s (median ratio)': median(ratios.map((r) => r.answers)).toFixed(2),
        'CPU/answer (median ratio)': median(ratios.map((r) => r.cpu)).toFixed(2),
        'rounds counted': ratios.length,
        'CPU ratio range': `${Math.min(...ratios.map((r) => r.cpu)).toFixed(2)}–${Math.max(...ratios.map((r) => r.cpu)).toFixed(2)}`,
        'p99 ms (worst slice)': Math.max(...parts.map((p) => p.result.latency.p99)),
        'non-2xx': parts.reduce((sum, p) => sum + p.result.non2xx, 0),
        errors: parts.reduce((sum, p) => sum + p.result.errors, 0),
      };
    });
    console.log(
      `\nGET ${PATH} (bearer), ${db}, ${connections} connections, ${DURATION_S} s per setup in ${ROUNDS} rounds, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    );
    console.table(rows);
    for (const row of rows.slice(1))
      lines.push(
        `${connections} connections, ${row.setup}: ${row['fewer answers/s (median ratio)']}x fewer answers/s, ${row['CPU/answer (median ratio)']}x the CPU per answer of tracing off (medians of ${row['rounds counted']} rounds; goal <= 1.10x)`,
      );
  }
  console.log(`\n${lines.join('\n')}\nOTLP exports received by the collector: ${sink.exports()}`);
} finally {
  for (const setup of setups) await stopSetup(setup);
  sink.close();
}
