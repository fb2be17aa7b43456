// Builds web/dist when it is missing or older than its sources. `npm start` calls it before the
// server starts, and `npm test` calls it once before jest so that browser suites starting servers
// side by side never build into the same folder at the same time.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
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
  // The console bundles the contracts' zod-free constants too.
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json', '../packages/contracts/src']
    .map((p) => join(web, p))
    .filter(existsSync)
    .map((p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs));
  return Math.max(0, ...sources) > statSync(built).mtimeMs;
}

/** Returns the build's exit status (0 when nothing needed building). */
export function ensureWebBuilt() {
  if (!existsSync(join(web, 'vite.config.ts')) || process.env.SKIP_WEB_BUILD === 'true' || !webIsStale()) return 0;
  console.log('Building the web console (web/dist is missing or stale)...');
  return spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' }).status ?? 1;
}
