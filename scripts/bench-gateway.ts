// `npm run bench:gateway`: what the gateway adds to a request. Measures GET /api/users/profile
// (a signed-in USER, bearer token) with autocannon, 20 and then 200 connections for 10 s each, on:
//   1. the all-in-one app: gateway layer (helmet, rate limits, session guard) + services in-process;
//   2. the auth service alone (its own Fastify app, same database and secret): the baseline;
//   3. distributed mode: the gateway process (src/main.ts, its own process) proxying over HTTP to (2).
// autocannon runs in its own process so the load generator does not share the servers' event loop.
// Everything listens on 127.0.0.1 only. Figures depend on the machine: compare the ratios.
// With DATABASE_URL set, a throwaway database on that PostgreSQL server is used (and dropped);
// otherwise embedded PGlite. At 200 connections a saturated server sheds (503 + Retry-After).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { authService } from '@earshot/auth-service';
import { MemoryBus, authGuard, buildServer, createLogger, loadSheddingFrom, mountServices, registerProbes, type ServiceModule } from '@earshot/kit';
import { createAllInOne } from '@earshot/gateway';
import { openThrowawayDatabase } from '@earshot/kit/testing';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTION_RUNS = (process.env.BENCH_CONNECTIONS ?? '20,200').split(',').map(Number);
const PATH = '/api/users/profile';

interface Result {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const address = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

/** Runs autocannon's CLI in a child process and reads its JSON summary. */
async function autocannon(label: string, url: string, token: string, connections: number, duration = DURATION_S): Promise<Result> {
  const cli = join(dirname(require.resolve('autocannon/package.json')), 'autocannon.js');
  const args = [cli, '-c', String(connections), '-d', String(duration), '-t', '10', '-j', '-n', '-H', `authorization=Bearer ${token}`, url];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`autocannon exited with ${code}`))));
  });
  const json = JSON.parse(output) as {
    requests: { average: number };
    latency: { p50: number; p99: number; max: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return { label, rps: json.requests.average, p50: json.latency.p50, p99: json.latency.p99, max: json.latency.max, non2xx: json.non2xx, errors: json.errors, timeouts: json.timeouts };
}

async function waitFor(url: string, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the gateway process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer in time`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'earshot-bench-'));
const password = `bench-${randomBytes(6).toString('hex')}`;
const jwtSecret = randomBytes(48).toString('base64url');
// Limits high enough that the benchmark measures the work, not the 429s; the limiter still runs.
const limits = { RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'silent' };

const database = process.env.DATABASE_URL ? await openThrowawayDatabase(process.env.DATABASE_URL, 'earshot_bench', 20) : undefined;
// A clean environment: a temporary DATA_DIR, whatever the shell has set.
const earshot = await createAllInOne({
  database,
  env: { ...limits, NODE_ENV: 'production', DATA_DIR: dataDir, SEED_DEMO: 'true', DEMO_PASSWORD: password, JWT_SECRET: jwtSecret, ADMIN_PASSWORD: `admin-${password}` },
});
let service: FastifyInstance | undefined;
let gateway: ChildProcess | undefined;
try {
  await earshot.app.listen({ host: '127.0.0.1', port: 0 });
  const allInOne = address(earshot.app);

  const login = await fetch(`${allInOne}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'user@acme.test', password, domain: 'acme' }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const token = login.headers.getSetCookie().map((c) => /^earshot_at=([^;]+)/.exec(c)?.[1]).find(Boolean);
  if (!token) throw new Error('sign-in set no access token cookie');

  // The auth service on its own, as `npm run start -w services/auth` runs it, over the same database.
  service = buildServer({ logLevel: 'silent', name: 'auth', trustProxy: true, loadShedding: loadSheddingFrom(earshot.config) });
  await service.register(authGuard, { tokens: earshot.tokens });
  registerProbes(service, earshot.database);
  await mountServices(service, [authService as ServiceModule], {
    config: earshot.config,
    database: earshot.database,
    bus: new MemoryBus(),
    logger: createLogger('silent'),
    tokens: earshot.tokens,
  });
  await service.listen({ host: '127.0.0.1', port: 0 });
  const direct = address(service);

  // The distributed gateway in its own process, proxying to the service above.
  const gatewayPort = 20000 + Math.floor(Math.random() * 20000);
  gateway = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway', 'src', 'main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH, ...limits, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(gatewayPort), JWT_SECRET: jwtSecret, AUTH_SERVICE_URL: direct },
  });
  const distributed = `http://127.0.0.1:${gatewayPort}`;
  await waitFor(`${distributed}/api/health`, gateway);

  for (const base of [allInOne, direct, distributed]) {
    const check = await fetch(`${base}${PATH}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await check.json()) as { email?: string };
    if (check.status !== 200 || body.email !== 'user@acme.test') throw new Error(`${base}${PATH} answered ${check.status}`);
  }

  const runs: [string, string][] = [
    ['all-in-one gateway (in-process services)', allInOne],
    ['auth service alone (baseline)', direct],
    ['distributed gateway -> auth over HTTP', distributed],
  ];
  const db = database ? 'PostgreSQL' : 'embedded PGlite';
  for (const connections of CONNECTION_RUNS) {
    console.log(`\nGET ${PATH} as user@acme.test (bearer), ${db}, ${connections} connections, ${DURATION_S} s each, after a 2 s warm-up`);
    const results: Result[] = [];
    for (const [label, base] of runs) {
      await autocannon(label, `${base}${PATH}`, token, connections, 2);
      results.push(await autocannon(label, `${base}${PATH}`, token, connections));
    }
    const baseline = results[1]!;
    console.table(results.map((r) => ({
      setup: r.label,
      'requests/s': Math.round(r.rps),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'max ms': r.max,
      'throughput vs service': `${(r.rps / baseline.rps).toFixed(2)}x`,
      'p99 vs service': `${(r.p99 / baseline.p99).toFixed(2)}x`,
      // At 200 connections, non-2xx are the 503s of load shedding.
      'non-2xx': r.non2xx,
      'timeouts (10 s)': r.timeouts,
      errors: r.errors - r.timeouts,
    })));
  }
} finally {
  gateway?.kill('SIGTERM');
  await service?.close();
  await earshot.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
