// `npm test`: type checks, then every jest project (server suites on PGlite, and on PostgreSQL when
// DATABASE_URL is set; web unit tests; browser tests in Debian's Chromium). Extra arguments go to
// jest.
//
// swc strips types without checking them, so tsc runs first over the root project and the web
// project (tests included) and a type error fails the run. A run narrowed to some test files
// (`npm test -- web/src/lib`: path patterns before any option) skips them, and so does
// SKIP_TYPECHECK=true: a targeted run checks a file, not the project.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { root, ensureWebBuilt } from './web-build.mjs';
import { ensureServersBuilt } from './build.mjs';

const require = createRequire(import.meta.url);
const jest = join(dirname(require.resolve('jest/package.json')), 'bin', 'jest.js');
const tsc = require.resolve('typescript/bin/tsc');
const args = process.argv.slice(2);

function run(command, commandArgs, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [command, ...commandArgs], { cwd: root, ...options });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function typecheck() {
  const started = Date.now();
  const projects = ['tsconfig.json', 'web/tsconfig.json'];
  const results = await Promise.all(projects.map((project) => run(tsc, ['-p', project, '--noEmit'])));
  const failed = results.filter((result) => result.code !== 0);
  for (const result of failed) process.stderr.write(result.output);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`Type check (tsc: ${projects.join(', ')}): ${failed.length ? 'FAILED' : 'passed'} in ${seconds} s`);
  return failed.length === 0;
}

const narrowed = args.length > 0 && !args[0].startsWith('-');
if (!narrowed && process.env.SKIP_TYPECHECK !== 'true' && !(await typecheck())) process.exit(1);

// The browser suites each start `npm start`; build the console once, before they race to. The
// compiled servers too, whatever the projects: server suites start them as well (scripts/*.test.ts).
if (!args.includes('--selectProjects') || args.includes('browser')) {
  const built = ensureWebBuilt();
  if (built !== 0) process.exit(built);
}
const serversBuilt = ensureServersBuilt();
if (serversBuilt !== 0) process.exit(serversBuilt);
const child = spawn(
  process.execPath,
  ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', jest, ...args],
  {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test' },
  },
);
child.on('exit', (code) => process.exit(code ?? 1));
