// `npm run bench:startup [-- --root DIR] [-- --skip-services]`: cold start and idle memory.
//
// All-in-one: `npm start` as a person runs it, on an empty data directory (migrations and the demo
// seed) and again on the same directory (a restart), timed until /api/health answers; then the RSS
// of the whole process tree (npm, its shell, every node process under it) 30 s later, no traffic.
// Separate services: each process with the command docker-compose.yml gives it and compose's
// environment (scripts/distributed/system.ts, on this machine's PostgreSQL, a Kafka mock, s3rver),
// started one after another and timed until /health answers (alive: listening, schema migrated)
// and until /ready answers (joined its Kafka consumer groups, which the broker holds for its
// rebalance delay; the gateway: /api/health for both); then each process tree's RSS once the last
// started 30 s ago.
//
// `--root DIR` measures another checkout with this script (e.g. `/work/main`, before a change):
// its `npm start` and its compose commands, so before and after run the same way on the same machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { freePorts, waitFor } from './distributed/processes';
import { System, type ProcessName } from './distributed/system';

const IDLE_MS = 30_000;
const args = process.argv.slice(2);
const here = resolve(import.meta.dirname, '..');
const rootIndex = args.indexOf('--root');
const root = rootIndex >= 0 ? resolve(args[rootIndex + 1]!) : here;
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The pids of a process and everything under it, from /proc's parent links. */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // The process ended while being read.
    }
  }
  const all: number[] = [];
  const visit = (p: number) => {
    all.push(p);
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return all;
}

interface TreeMemory {
  mb: number;
  processes: string[];
}

function treeMemory(pid: number): TreeMemory {
  let kb = 0;
  const processes: string[] = [];
  for (const p of tree(pid)) {
    try {
      const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      const command = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      kb += rss;
      processes.push(`${Math.round(rss / 1024)} MB  ${command.slice(0, 110)}`);
    } catch {
      // Ended meanwhile.
    }
  }
  return { mb: Math.round(kb / 1024), processes };
}

async function answers(url: string): Promise<boolean> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await answer.body?.cancel();
  return answer.ok;
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    process.kill(-child.pid!, 'SIGTERM');
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function startTimed(command: string[], env: NodeJS.ProcessEnv, url: string, cwd = root, readyUrl = url) {
  const startedAt = Date.now();
  // Its own process group, so that stopping it ends everything it started.
  const child = spawn(command[0]!, command.slice(1), { cwd, env, detached: true, stdio: 'ignore' });
  const died = () => (child.exitCode !== null ? `${command.join(' ')} exited with ${child.exitCode}` : null);
  await waitFor(`${url} to answer`, () => answers(url), 180_000, died);
  const aliveMs = Date.now() - startedAt;
  if (readyUrl !== url) await waitFor(`${readyUrl} to answer`, () => answers(readyUrl), 180_000, died);
  return { child, startedAt, aliveMs, readyMs: Date.now() - startedAt };
}

async function allInOne(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-bench-startup-'));
  const [port] = await freePorts(1);
  const { DATABASE_URL: _db, KAFKA_BROKERS: _kafka, STORAGE_DRIVER: _storage, ...inherited } = process.env;
  const env = {
    ...inherited,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'bench-startup-admin-password',
    DEMO_PASSWORD: 'bench-startup-demo-password',
  };
  const url = `http://127.0.0.1:${port}/api/health`;
  try {
    // A first run builds whatever is missing (web app, servers) outside the figures.
    const warm = await startTimed(['npm', 'start'], env, url);
    await stopGroup(warm.child);
    rmSync(dataDir, { recursive: true, force: true });
    const first = await startTimed(['npm', 'start'], env, url);
    await stopGroup(first.child);
    const restart = await startTimed(['npm', 'start'], env, url);
    await new Promise((r) => setTimeout(r, Math.max(0, restart.startedAt + IDLE_MS - Date.now())));
    const memory = treeMemory(restart.child.pid!);
    await stopGroup(restart.child);
    console.log(`All-in-one (npm start, ${root}):`);
    console.log(`  cold start, empty data directory: ${seconds(first.readyMs)}`);
    console.log(`  cold start, restart:              ${seconds(restart.readyMs)}`);
    console.log(`  idle RSS of the process tree 30 s after start: ${memory.mb} MB`);
    for (const line of memory.processes) console.log(`    ${line}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Every Earshot process docker-compose.yml runs in the measured checkout, with its command. */
function composeProcesses(): { name: ProcessName; command: string[] }[] {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string; command?: string[] }>;
  };
  return Object.entries(compose.services)
    .filter(([, service]) => service.image?.startsWith('earshot/') && service.command)
    .map(([name, service]) => ({
      name: (name === 'chat' ? 'chat-1' : name) as ProcessName,
      command: service.command!,
    }));
}

async function separateServices(): Promise<void> {
  const system = new System({ root, databaseUrl, redisUrl });
  const started: { name: ProcessName; child: ChildProcess; startedAt: number; aliveMs: number; readyMs: number }[] = [];
  try {
    await system.startInfrastructure();
    for (const { name, command } of composeProcesses()) {
      const spec = system.spec(name);
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...spec.env };
      const healthUrl = spec.readyUrl.replace(/\/ready$/, '/health');
      started.push({ name, ...(await startTimed(command, env, healthUrl, root, spec.readyUrl)) });
    }
    const last = started[started.length - 1]!;
    await new Promise((r) => setTimeout(r, Math.max(0, last.startedAt + IDLE_MS - Date.now())));
    console.log(`Separate services (compose's commands, ${root}):`);
    console.log('  process                 alive in   ready in   idle RSS (tree)');
    for (const s of started) {
      const memory = treeMemory(s.child.pid!);
      console.log(
        `  ${s.name.padEnd(22)}  ${seconds(s.aliveMs).padStart(7)}   ${seconds(s.readyMs).padStart(7)}   ${String(memory.mb).padStart(4)} MB`,
      );
    }
    console.log(
      `  command, e.g.: ${composeProcesses()
        .find((p) => p.name === 'auth')
        ?.command.join(' ')}`,
    );
  } finally {
    await Promise.all(started.map((s) => stopGroup(s.child)));
    await system.stop();
  }
}

await allInOne();
if (!args.includes('--skip-services')) await separateServices();
process.exit(0);
