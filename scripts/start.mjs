// `npm start`: builds the web app when it is missing or older than its sources, then runs the
// all-in-one process (gateway + every service + embedded PostgreSQL + in-process event bus).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function webIsStale() {
  const built = join(web, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json']
    .map((p) => join(web, p))
    .filter(existsSync)
    .map((p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs));
  return Math.max(0, ...sources) > statSync(built).mtimeMs;
}

if (existsSync(join(web, 'vite.config.ts')) && process.env.SKIP_WEB_BUILD !== 'true' && webIsStale()) {
  console.log('Building the web console (web/dist is missing or stale)...');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway', 'src', 'all-in-one.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
