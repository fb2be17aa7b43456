import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, truncate } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** Polls until `probe` is true; a deadline is a safety net, never a timing assertion. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  limitMs = 60_000,
  failure: () => string | null = () => null,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const reason = failure();
    if (reason) throw new Error(`${reason} while waiting for ${what}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `n` ports free on loopback, all different: each is held by a listening socket until all are
 * found, then released for the processes to take. (One at a time, the kernel could hand out the
 * same port twice, and the second process to start failed with EADDRINUSE.)
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export interface ProcessSpec {
  /** Name in the step output and of its log file (e.g. `chat-2`). */
  name: string;
  /** The workspace folder whose entrypoint runs (e.g. services/chat). */
  cwd: string;
  /** The compiled entrypoint compose runs (`dist/main.js`), relative to `cwd`. */
  entry: string;
  env: Record<string, string>;
  /** Where it answers /ready (or /api/health for the gateway). */
  readyUrl: string;
}

export interface Started {
  spec: ProcessSpec;
  child: ChildProcess;
  /** Started at, for the figures. */
  startedAt: number;
  readyMs: number;
}

/**
 * Every process the suite starts, by pid. Each runs the compiled entrypoint compose runs
 * (`node --enable-source-maps dist/main.js`) in one process whose pid is the service: npm would put a
 * parent in between, and a kill -9 of the parent leaves the service running.
 */
export class Processes {
  private readonly running = new Map<string, Started>();
  private readonly logs: WriteStream[] = [];

  constructor(
    private readonly root: string,
    private readonly logDir: string,
  ) {}

  /**
   * Starts a process and waits until it is ready. The machine's PostgreSQL is shared (max_connections):
   * a process that died because the server was full of other clients (53300) is started again, twice
   * at most; any other early exit fails at once.
   */
  async start(spec: ProcessSpec, limitMs = 90_000, attempts = 3): Promise<Started> {
    try {
      return await this.startOnce(spec, limitMs);
    } catch (error) {
      const full = (await readFile(join(this.logDir, `${spec.name}.log`), 'utf8').catch(() => '')).includes('53300');
      if (attempts <= 1 || !full || this.running.get(spec.name)?.child.exitCode === null) throw error;
      process.stdout.write(`    ${spec.name}: the database server had no free connection, starting it again\n`);
      this.running.delete(spec.name);
      await truncate(join(this.logDir, `${spec.name}.log`));
      return this.start(spec, limitMs, attempts - 1);
    }
  }

  private async startOnce(spec: ProcessSpec, limitMs: number): Promise<Started> {
    const log = createWriteStream(join(this.logDir, `${spec.name}.log`), { flags: 'a' });
    this.logs.push(log);
    const startedAt = Date.now();
    const child = spawn(process.execPath, ['--enable-source-maps', spec.entry], {
      cwd: join(this.root, spec.cwd),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    const started: Started = { spec, child, startedAt, readyMs: 0 };
    this.running.set(spec.name, started);
    const died = () =>
      child.exitCode !== null || child.signalCode !== null
        ? `${spec.name} exited (${child.exitCode ?? child.signalCode}; see ${log.path})`
        : null;
    await waitFor(
      `${spec.name} to be ready`,
      async () => {
        const answer = await fetch(spec.readyUrl, { signal: AbortSignal.timeout(2000) });
        await answer.body?.cancel();
        return answer.ok;
      },
      limitMs,
      died,
    );
    started.readyMs = Date.now() - startedAt;
    return started;
  }

  pid(name: string): number {
    const pid = this.running.get(name)?.child.pid;
    if (!pid) throw new Error(`${name} is not running`);
    return pid;
  }

  /** kill -9: no goodbye to Kafka, no transaction finished, no lease given back. */
  async kill9(name: string): Promise<void> {
    const started = this.running.get(name);
    if (!started) throw new Error(`${name} is not running`);
    await this.signal(started, 'SIGKILL');
    this.running.delete(name);
  }

  /**
   * SIGTERM, as a scale-in or a rollout sends it, then waits up to `limitMs` for the process to end
   * on its own (no SIGKILL): its exit code, or null when it was still running at the limit.
   */
  async terminate(name: string, limitMs: number): Promise<number | null> {
    const started = this.running.get(name);
    if (!started) throw new Error(`${name} is not running`);
    const ended = this.exited(started.child, limitMs);
    process.kill(started.child.pid!, 'SIGTERM');
    if (!(await ended)) return null;
    this.running.delete(name);
    return started.child.exitCode;
  }

  async restart(name: string, spec: ProcessSpec): Promise<Started> {
    if (this.running.has(name)) throw new Error(`${name} is still running`);
    return this.start(spec);
  }

  /** Ends every process still running, by pid: SIGTERM, then SIGKILL for any that lingers. */
  async stopAll(): Promise<void> {
    const all = [...this.running.values()].reverse();
    this.running.clear();
    await Promise.all(
      all.map(async (started) => {
        const ended = this.exited(started.child, 5000);
        try {
          process.kill(started.child.pid!, 'SIGTERM');
        } catch {
          return;
        }
        if (!(await ended)) await this.signal(started, 'SIGKILL');
      }),
    );
    for (const log of this.logs) log.end();
  }

  private async signal(started: Started, signal: NodeJS.Signals): Promise<void> {
    const ended = this.exited(started.child, 10_000);
    try {
      process.kill(started.child.pid!, signal);
    } catch {
      return;
    }
    if (!(await ended)) throw new Error(`${started.spec.name} (pid ${started.child.pid}) did not end on ${signal}`);
  }

  private exited(child: ChildProcess, limitMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
      const timer = setTimeout(() => resolve(false), limitMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
