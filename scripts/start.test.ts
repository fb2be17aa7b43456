import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm start` for real, the way a person runs it: through npm and its shell. The server inherits
// the output pipe, so the pipe ends only when the server process itself has exited.
const root = join(import.meta.dirname, '..');

test('the banner comes before the first log line, and SIGTERM to npm start stops the server', async () => {
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

    child.kill('SIGTERM');
    await ended;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
