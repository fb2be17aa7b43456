// The browser suites' server: the real all-in-one (`node scripts/start.mjs`) on a free port with a
// throw-away data folder and known demo passwords. No jest imports: the browser project's global
// setup (./global-setup.ts) starts it too.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const ADMIN_PASSWORD = 'Platform-admin-pass-1';
export const DEMO_PASSWORD = 'Demo-user-pass-1';

/**
 * Set by the browser project's global setup when DATABASE_URL names a PostgreSQL server: the
 * database and data folder a first start left (migrated, demo seeded), which each suite copies.
 */
export const TEMPLATE_DATABASE = 'E2E_TEMPLATE_DATABASE';
export const TEMPLATE_DATA_DIR = 'E2E_TEMPLATE_DATA_DIR';

export interface RunningServer {
  port: number;
  origin: string;
  logFile: string;
  stop: () => Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Polls until `probe` is true; fails at once when `failure()` names a reason, or after `limitMs`
 * (a safety net, not a timing assertion).
 */
export async function waitFor(
  probe: () => Promise<boolean>,
  what: string,
  failure: () => string | null = () => null,
  limitMs = 240_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const reason = failure();
    if (reason) throw new Error(`${reason} while waiting for ${what}`);
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Gave up waiting for ${what}`);
}

/** A database on the PostgreSQL server at `serverUrl` (a copy of `template` if given): its URL and how to drop it. */
export async function createDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const asAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await asAdmin(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => asAdmin(`drop database if exists ${name} with (force)`) };
}

/**
 * Each suite's server has its own database: inheriting DATABASE_URL made every browser run share
 * (and see the leftovers of) one real database. Kafka and S3 stay the embedded defaults.
 */
function withoutSharedServices(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _database, KAFKA_BROKERS: _kafka, STORAGE_DRIVER: _storage, ...rest } = env;
  return rest;
}

/**
 * Starts the server on `dataDir` and waits until it answers; `stop()` ends it and then runs
 * `cleanUp`. `env` adds or overrides server settings (e.g. AI_ALLOW_PRIVATE_URLS=true for a local
 * test provider, DATABASE_URL for a suite's own database).
 */
export async function runServer(
  dataDir: string,
  env: Record<string, string>,
  cleanUp: () => Promise<void>,
): Promise<RunningServer> {
  const logFile = join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  // Port 0 on the dual-stack wildcard: the kernel picks a port nobody holds on IPv4 or IPv6, and
  // the server's own banner says which. Probing for a free port first raced with other suites
  // (and with left-over servers on ::1), and the tests then drove someone else's server.
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    detached: true, // its own process group, so stop() ends the server and anything it started
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...withoutSharedServices(process.env),
      NODE_ENV: 'production',
      HOST: '::',
      PORT: '0',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      DEMO_PASSWORD,
      SEED_DEMO: 'true',
      // Every test signs in afresh, and every page, chunk and call of a suite comes from one address
      // (a suite drawing 16 dashboards passed 1,200 requests a minute): the limits are tested by the
      // gateway's own suites.
      SIGN_IN_RATE_LIMIT_MAX: '1000',
      RATE_LIMIT_MAX: '100000',
      // Four browser suites share two busy cores: shedding would refuse their requests at random.
      // Load shedding has its own deterministic tests (packages/kit/test/load-shedding.test.ts).
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
      ...env,
    },
  });
  let banner = '';
  let port = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (port) return;
    banner += chunk.toString();
    const match = /Earshot is running at http:\/\/localhost:(\d+)/.exec(banner);
    if (match) port = Number(match[1]);
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await exited(child);
    }
    log.end();
    await cleanUp();
  };
  try {
    const died = () =>
      child.exitCode !== null || child.signalCode !== null
        ? `The server exited (${child.exitCode ?? child.signalCode})`
        : null;
    // The all-in-one server seeds the demo company and accounts before it prints its banner.
    await waitFor(
      async () => port > 0 && (await fetch(`http://localhost:${port}/api/health`)).ok,
      'the server to start',
      died,
    );
  } catch (error) {
    const keep = join(tmpdir(), `earshot-e2e-server-${Date.now()}.log`);
    await copyFile(logFile, keep).catch(() => undefined);
    await stop();
    throw new Error(`${(error as Error).message} (server log kept at ${keep})`, { cause: error });
  }
  return { port, origin: `http://localhost:${port}`, logFile, stop };
}

/**
 * A suite's server. On the embedded database (PGlite) by default; where the global setup made a
 * template on the PostgreSQL server, on a copy of it instead, which skips the migrations and the
 * demo seed every start would otherwise repeat.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  // E2E_ORIGIN points the tests at a server that is already running (for debugging).
  if (process.env.E2E_ORIGIN) {
    const origin = process.env.E2E_ORIGIN;
    return { port: Number(new URL(origin).port), origin, logFile: '', stop: async () => undefined };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'earshot-e2e-'));
  const template = process.env[TEMPLATE_DATABASE];
  const serverUrl = process.env.DATABASE_URL;
  if (!template || !serverUrl) return runServer(dataDir, env, () => rm(dataDir, { recursive: true, force: true }));
  // The template's secrets and signing keys belong with its data: the same files, copied.
  await cp(process.env[TEMPLATE_DATA_DIR]!, dataDir, { recursive: true, filter: (from) => !from.endsWith('.log') });
  const database = await createDatabase(serverUrl, 'earshot_e2e', template);
  return runServer(dataDir, { DATABASE_URL: database.url, ...env }, async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
}
