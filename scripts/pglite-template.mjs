// A fresh PGlite data directory, made once per installed PGlite version when the servers are built:
// a process opening a new embedded data directory copies it (packages/kit/src/db/database.ts, which
// finds it by the same name) instead of running initdb, several seconds of CPU on a first start.
//
// Made in a child process of its own: PGlite's WebAssembly memory stays with the process that ran
// initdb, and `npm start` goes on to run the server in its own process.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The template's folder: node_modules' cache folder, beside the installed PGlite, by its version. */
function templatePath() {
  const pglite = dirname(
    dirname(createRequire(join(root, 'packages', 'kit', 'package.json')).resolve('@electric-sql/pglite')),
  );
  const { version } = JSON.parse(readFileSync(join(pglite, 'package.json'), 'utf8'));
  return join(pglite, '..', '..', '.cache', 'earshot', `pglite-${version}`);
}

/** Makes the template when missing, in a child process. Returns its exit status (0: nothing to do). */
export function ensurePgliteTemplate() {
  if (existsSync(join(templatePath(), 'PG_VERSION'))) return 0;
  console.log('Preparing the embedded database template (once per PGlite version)...');
  return spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

async function makeTemplate() {
  const template = templatePath();
  if (existsSync(join(template, 'PG_VERSION'))) return;
  // The kit's dependency, not the root's: from here node finds the same hoisted copy templatePath names.
  // eslint-disable-next-line import-x/no-extraneous-dependencies
  const { PGlite } = await import('@electric-sql/pglite');
  // Made beside it and renamed into place: a server starting meanwhile finds a whole template or none.
  const making = `${template}.${process.pid}`;
  mkdirSync(making, { recursive: true });
  const database = new PGlite(making);
  await database.waitReady;
  // Closed cleanly (a shutdown checkpoint), as a copy must be to open without recovery.
  await database.close();
  try {
    renameSync(making, template);
  } catch (error) {
    rmSync(making, { recursive: true, force: true });
    // Another build made it meanwhile.
    if (!existsSync(join(template, 'PG_VERSION'))) throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await makeTemplate();
