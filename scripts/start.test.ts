import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm start` for real, the way a person runs it: through npm and its shell. The server inherits
// the output pipe, so the pipe ends only when the server process itself has exited.
const root = join(import.meta.dirname, '..');

/** Every process under `pid` (itself included), with its command line, from /proc's parent links. */
function processTree(pid: number): { pid: number; command: string }[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // Ended while being read.
    }
  }
  const tree: { pid: number; command: string }[] = [];
  const visit = (p: number) => {
    const command = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    tree.push({ pid: p, command });
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

test('the banner comes before the first log line, the compiled server runs without a transpiler and logs one line per request, and SIGTERM to npm start stops the server', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-start-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SKIP_WEB_BUILD: 'true',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    ADMIN_PASSWORD: 'start-test-admin-password',
    DEMO_PASSWORD: 'start-test-demo-password',
  };
  // The embedded database, whatever the test project: this must never touch a shared server.
  delete env.DATABASE_URL;
  delete env.KAFKA_BROKERS;
  const child = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ended = new Promise<void>((resolve) => child.stdout.on('end', resolve));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // The banner, then the log lines it held back (fastify's own "Server listening" among them).
        if (output.includes('Sign in as the platform administrator') && /"msg":"Server listening/.test(output))
          resolve();
      });
      child.on('exit', () => reject(new Error(`npm start exited before its banner:\n${output}`)));
    });
    const outputLines = output.split('\n');
    const banner = outputLines.findIndex((line) => line.startsWith('Earshot is running at'));
    const firstLog = outputLines.findIndex((line) => line.startsWith('{'));
    expect(banner).toBeGreaterThanOrEqual(0);
    expect(firstLog).toBeGreaterThan(banner);

    // Production runs the compiled server with plain node, in the process npm's script execs: no
    // transpiler (tsx, esbuild's service, swc) anywhere in the tree, and no second node process.
    const tree = processTree(child.pid!);
    expect(tree.filter((p) => /tsx|esbuild|swc/.test(p.command))).toEqual([]);
    const nodes = tree.filter((p) => /^\S*node /.test(p.command));
    expect(nodes).toHaveLength(1);
    expect(nodes[0]!.command).toMatch(/^\S*node (--[\w=-]+ )*\S*scripts\/start\.mjs$/);

    // One JSON line per request, none for the probes, each with a trace id.
    const port = /Earshot is running at http:\/\/localhost:(\d+)/.exec(output)![1];
    for (const path of ['/api/health', '/api/ready', '/api/health', '/api/auth/me'])
      await (await fetch(`http://127.0.0.1:${port}${path}`)).body?.cancel();
    const requestLines = () =>
      output
        .split('\n')
        .filter((line) => line.includes('"req":'))
        .map((line) => JSON.parse(line) as { req: { url: string }; traceId?: string; reqId: string });
    await new Promise<void>((resolve) => {
      const check = () => (requestLines().some((line) => line.req.url === '/api/auth/me') ? resolve() : undefined);
      child.stdout.on('data', check);
      check();
    });
    const lines = requestLines();
    expect(lines.filter((line) => /\/api\/(health|ready)/.test(line.req.url))).toEqual([]);
    const me = lines.filter((line) => line.req.url === '/api/auth/me');
    expect(me).toHaveLength(1);
    expect(me[0]!.traceId).toBe(me[0]!.reqId);

    child.kill('SIGTERM');
    await ended;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
