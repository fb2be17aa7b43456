// `npm test`: every jest project (server suites on PGlite, and on PostgreSQL when DATABASE_URL is
// set; web unit tests; browser tests in Debian's Chromium). Extra arguments go to jest.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ensureWebBuilt } from './web-build.mjs';

const require = createRequire(import.meta.url);
const jest = join(dirname(require.resolve('jest/package.json')), 'bin', 'jest.js');
const args = process.argv.slice(2);
// The browser suites each start `npm start`; build the console once, before they race to.
if (!args.includes('--selectProjects') || args.includes('browser')) {
  const built = ensureWebBuilt();
  if (built !== 0) process.exit(built);
}
const child = spawn(process.execPath, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', jest, ...args], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
child.on('exit', (code) => process.exit(code ?? 1));
