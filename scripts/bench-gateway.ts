// `npm run bench:gateway`: how close Earshot's request path comes to a minimal app doing the same
// work. Measures GET /api/users/profile (a signed-in USER, bearer token) with autocannon, at 20 and
// then 200 connections (BENCH_CONNECTIONS), 10 s each (BENCH_DURATION_S) after a 2 s warm-up, taken
// in 3 slices (BENCH_ROUNDS) alternating between the setups, on:
//   0. the reference: a minimal Fastify + pg + jose app written below, not the product — verify the
//      EdDSA bearer token, read the user's row from PostgreSQL, answer it as JSON;
//   1. the all-in-one app: gateway layer (helmet, rate limits, session guard) + services in-process;
//   2. the auth service alone (its own Fastify app, same database and keys);
//   3. distributed mode: the gateway process (src/main.ts, its own process) proxying over HTTP to (2).
// Every figure is also given as a ratio to the reference measured in the same run, which is what to
// compare on a shared machine. Production mode, logs at warn. BENCH_SETUPS=reference,all-in-one
// runs only those; BENCH_CPU_PROFILE=<file> writes a V8 CPU profile of this process (where the
// in-process setups run) covering the measured runs only, not the start-up: summarise it with
// scripts/cpu-profile-summary.ts.
// autocannon runs in its own process so the load generator does not share the servers' event loop.
// Everything listens on 127.0.0.1 only. With DATABASE_URL set, a throwaway database on that
// PostgreSQL server is used (and dropped); otherwise embedded PGlite, and no reference.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import pg from 'pg';
import { authService } from '@earshot/auth-service';
import {
  MemoryBus,
  authGuard,
  buildServer,
  createLogger,
  loadSheddingFrom,
  mountServices,
  registerProbes,
  type ServiceModule,
} from '@earshot/kit';
import { createAllInOne } from '@earshot/gateway';
import { openThrowawayDatabase } from '@earshot/kit/testing';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTION_RUNS = (process.env.BENCH_CONNECTIONS ?? '20,200').split(',').map(Number);
const SETUPS = process.env.BENCH_SETUPS?.split(',');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PATH = '/api/users/profile';
const POOL_SIZE = 20;

interface Result {
  label: string;
  /** Successful (2xx) answers per second. */
  rps: number;
  min: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Slices of one setup as one run: answers over the whole time, the worst tail, the fastest answer. */
function combine(parts: Result[]): Result {
  const sum = (pick: (r: Result) => number) => parts.reduce((total, r) => total + pick(r), 0);
  return {
    label: parts[0]!.label,
    rps: sum((r) => r.rps) / parts.length,
    min: Math.min(...parts.map((r) => r.min)),
    p50: Math.max(...parts.map((r) => r.p50)),
    p99: Math.max(...parts.map((r) => r.p99)),
    max: Math.max(...parts.map((r) => r.max)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
  };
}

const address = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

/** Runs autocannon's CLI in a child process and reads its JSON summary. */
async function autocannon(
  label: string,
  url: string,
  token: string,
  connections: number,
  duration = DURATION_S,
): Promise<Result> {
  const cli = join(dirname(require.resolve('autocannon/package.json')), 'autocannon.js');
  const args = [
    cli,
    '-c',
    String(connections),
    '-d',
    String(duration),
    '-t',
    '10',
    '-j',
    '-n',
    '-H',
    `authorization=Bearer ${token}`,
    url,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`autocannon exited with ${code}`))));
  });
  const json = JSON.parse(output) as {
    '2xx': number;
    duration: number;
    latency: { min: number; p50: number; p99: number; max: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  // Refused requests are answered fast: counting them would flatter a server that sheds.
  return {
    label,
    rps: json['2xx'] / json.duration,
    min: json.latency.min,
    p50: json.latency.p50,
    p99: json.latency.p99,
    max: json.latency.max,
    non2xx: json.non2xx,
    errors: json.errors,
    timeouts: json.timeouts,
  };
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

/**
 * The yardstick: what a hand-written service needs for the same answer. The same checks of the
 * token (signature with the published public key, issuer, audience, algorithm, expiry), the same
 * row, the same fields; no logging, no security headers, no rate limit, no schema.
 */
async function referenceApp(databaseUrl: string, jwks: JSONWebKeySet): Promise<FastifyInstance> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  // As the product's pool does: a connection the server ends must not end the benchmark.
  pool.on('error', () => undefined);
  const keys = createLocalJWKSet(jwks);
  const app = Fastify({ logger: false });
  app.addHook('onClose', async () => pool.end());
  app.get(PATH, async (request, reply) => {
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    if (scheme !== 'Bearer' || !token) return reply.code(401).send({ message: 'Sign in' });
    let sub: string | undefined;
    try {
      ({
        payload: { sub },
      } = await jwtVerify(token, keys, { issuer: 'earshot-auth', audience: 'earshot-api', algorithms: ['EdDSA'] }));
    } catch {
      return reply.code(401).send({ message: 'Sign in' });
    }
    const { rows } = await pool.query(
      `select id, company_id, email, first_name, last_name, avatar, role, status, two_step_enabled, language, monthly_credits,
              last_sign_in_at, created_at, updated_at from auth.users where id = $1`,
      [sub],
    );
    const user = rows[0] as Record<string, unknown> | undefined;
    if (!user) return reply.code(404).send({ message: 'Not found' });
    return {
      _id: user.id,
      firstName: user.first_name,
      lastName: user.last_name,
      email: user.email,
      avatar: user.avatar,
      companyId: user.company_id,
      roles: { role: { code: user.role } },
      language: user.language,
      monthlyCredits: user.monthly_credits === null ? null : Number(user.monthly_credits),
      role: user.role,
      status: user.status,
      twoStepEnabled: user.two_step_enabled,
      lastSignInAt: (user.last_sign_in_at as Date | null)?.toISOString() ?? null,
      createdAt: (user.created_at as Date).toISOString(),
      updatedAt: (user.updated_at as Date).toISOString(),
    };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

const dataDir = mkdtempSync(join(tmpdir(), 'earshot-bench-'));
const password = `bench-${randomBytes(6).toString('hex')}`;
const jwtSecret = randomBytes(48).toString('base64url');
// Limits high enough that the benchmark measures the work, not the 429s; the limiter still runs.
const limits = { RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'warn' };

const databaseUrl = process.env.DATABASE_URL;
const database = databaseUrl ? await openThrowawayDatabase(databaseUrl, 'earshot_bench', POOL_SIZE) : undefined;
// A clean environment: a temporary DATA_DIR, whatever the shell has set.
const earshot = await createAllInOne({
  database,
  env: {
    ...limits,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    DEMO_PASSWORD: password,
    JWT_SECRET: jwtSecret,
    ADMIN_PASSWORD: `admin-${password}`,
  },
});
const wanted = (setup: string) => !SETUPS || SETUPS.includes(setup);
let reference: FastifyInstance | undefined;
let service: FastifyInstance | undefined;
let gateway: ChildProcess | undefined;
try {
  await earshot.app.listen({ host: '127.0.0.1', port: 0 });
  const runs: [key: string, label: string, base: string][] = [];
  const allInOne = address(earshot.app);

  const login = await fetch(`${allInOne}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'user@acme.test', password, domain: 'acme' }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const token = login.headers
    .getSetCookie()
    .map((c) => /^earshot_at=([^;]+)/.exec(c)?.[1])
    .find(Boolean);
  if (!token) throw new Error('sign-in set no access token cookie');

  if (database && wanted('reference')) {
    // The throwaway database's URL, as the pool opened it.
    const [current] = await database.query<{ name: string }>('select current_database() as name');
    const url = new URL(databaseUrl!);
    url.pathname = `/${current!.name}`;
    reference = await referenceApp(url.toString(), earshot.signer.jwks());
    runs.push(['reference', 'reference (Fastify + pg + jose)', address(reference)]);
  }
  if (wanted('all-in-one')) runs.push(['all-in-one', 'all-in-one (services in-process)', allInOne]);

  if (wanted('service') || wanted('distributed')) {
    // The auth service on its own, as `npm run start -w services/auth` runs it, over the same database.
    const logger = createLogger('warn', 'auth');
    service = buildServer({
      logLevel: 'warn',
      logger,
      name: 'auth',
      trustProxy: true,
      loadShedding: loadSheddingFrom(earshot.config),
    });
    await service.register(authGuard, { tokens: earshot.tokens });
    registerProbes(service, earshot.database);
    await mountServices(service, [authService as ServiceModule], {
      config: earshot.config,
      database: earshot.database,
      bus: new MemoryBus(),
      logger,
      tokens: earshot.tokens,
    });
    await service.listen({ host: '127.0.0.1', port: 0 });
    if (wanted('service')) runs.push(['service', 'auth service alone', address(service)]);
  }
  if (wanted('distributed')) {
    // The distributed gateway in its own process, proxying to the service above.
    const gatewayPort = 20000 + Math.floor(Math.random() * 20000);
    // With BENCH_CPU_PROFILE, the gateway process writes its own profile (start-up included) beside it when it exits.
    const profiling = process.env.BENCH_CPU_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${dirname(process.env.BENCH_CPU_PROFILE)}`]
      : [];
    gateway = spawn(process.execPath, [...profiling, '--import', 'tsx', join(root, 'gateway', 'src', 'main.ts')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH,
        ...limits,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(gatewayPort),
        JWT_SECRET: jwtSecret,
        AUTH_SERVICE_URL: address(service!),
      },
    });
    const distributed = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${distributed}/api/health`, gateway);
    runs.push(['distributed', 'distributed gateway -> auth over HTTP', distributed]);
  }

  for (const [, , base] of runs) {
    const check = await fetch(`${base}${PATH}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await check.json()) as { email?: string };
    if (check.status !== 200 || body.email !== 'user@acme.test')
      throw new Error(`${base}${PATH} answered ${check.status}`);
  }

  const profileFile = process.env.BENCH_CPU_PROFILE;
  const profiler = profileFile ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const db = database ? 'PostgreSQL' : 'embedded PGlite';
  const ratios: string[] = [];
  for (const connections of CONNECTION_RUNS) {
    console.log(
      `\nGET ${PATH} as user@acme.test (bearer), ${db}, ${connections} connections, ${DURATION_S} s each after a 2 s warm-up, in ${ROUNDS} alternating slices`,
    );
    for (const [, label, base] of runs) await autocannon(label, `${base}${PATH}`, token, connections, 2);
    // The machine's other load drifts: slices taken in turn (the order rotating) expose every setup to it alike.
    const slices = new Map<string, Result[]>(runs.map(([key]) => [key, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [key, label, base] of [...runs.slice(round % runs.length), ...runs.slice(0, round % runs.length)]) {
        slices.get(key)!.push(await autocannon(label, `${base}${PATH}`, token, connections, DURATION_S / ROUNDS));
      }
    }
    const results = new Map([...slices].map(([key, parts]) => [key, combine(parts)]));
    const yardstick = results.get('reference') ?? [...results.values()][0]!;
    console.table(
      [...results.values()].map((r) => ({
        setup: r.label,
        '2xx/s': Math.round(r.rps),
        'vs reference': `${(r.rps / yardstick.rps).toFixed(2)}x`,
        // The fastest answer: what the load-shedding rule compares with its target (docs/performance.md, "Load shedding").
        'min ms': r.min,
        'p50 ms (worst slice)': r.p50,
        'p99 ms (worst slice)': r.p99,
        'max ms': r.max,
        // Refused: the 503s of load shedding (or any other non-2xx answer).
        'refused (non-2xx)': r.non2xx,
        'timeouts (10 s)': r.timeouts,
        errors: r.errors - r.timeouts,
      })),
    );
    const allInOneResult = results.get('all-in-one');
    const distributedResult = results.get('distributed');
    if (allInOneResult && results.has('reference'))
      ratios.push(
        `${connections} connections: all-in-one ${(allInOneResult.rps / yardstick.rps).toFixed(2)}x the reference`,
      );
    if (allInOneResult && distributedResult)
      ratios.push(
        `${connections} connections: distributed ${(distributedResult.rps / allInOneResult.rps).toFixed(2)}x the all-in-one`,
      );
  }
  if (ratios.length) console.log(`\n${ratios.join('\n')}`);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(profileFile!, JSON.stringify(profile));
    profiler.disconnect();
    console.log(`CPU profile of the measured runs: ${profileFile}`);
  }
} finally {
  const exited =
    gateway && gateway.exitCode === null ? new Promise((resolve) => gateway!.once('exit', resolve)) : undefined;
  gateway?.kill('SIGTERM');
  await exited;
  await reference?.close();
  await service?.close();
  await earshot.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
