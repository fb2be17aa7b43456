// `npm run backup`, `restore`, `audit`, `events`, `keys`, `models`, `rotate-signing-key`: runs the
// operator command compiled by `npm run build` (dist/scripts/<name>.js), building it first when it
// is missing or stale (a fresh clone), in this process with plain node, as `npm start` runs the server.
// A production image has no npm wrapper to go through: `node dist/scripts/<name>.js …` is the same.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commands, ensureServersBuilt, root } from './build.mjs';

const [name, ...args] = process.argv.slice(2);
const command = commands().find((c) => c.output === join('dist', 'scripts', `${name}.js`));
if (!command) {
  console.error(
    `usage: node scripts/command.mjs <${commands()
      .map((c) => c.output.replace(/^dist\/scripts\/|\.js$/g, ''))
      .join('|')}> [arguments]`,
  );
  process.exit(2);
}
const built = ensureServersBuilt();
if (built !== 0) process.exit(built);

const file = join(root, command.output);
// The compiled command runs its main when it is the script node was started with.
process.argv = [process.argv[0], file, ...args];
process.setSourceMapsEnabled(true);
await import(pathToFileURL(file).href);
