// `npm start`: builds the web app when it is missing or older than its sources, then runs the
// all-in-one process (gateway + every service + embedded PostgreSQL + in-process event bus).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureWebBuilt, root } from './web-build.mjs';

const built = ensureWebBuilt();
if (built !== 0) process.exit(built);

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway', 'src', 'all-in-one.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
