// `npm start`: builds the web app and the compiled servers when missing or older than their sources,
// then runs the all-in-one process (gateway + every service + embedded PostgreSQL + in-process event
// bus) from its compiled JavaScript.
//
// The builds run as child processes that end before the server starts (esbuild keeps a service
// process of its own while loaded), and the server then runs in this very process: no transpiler and
// no second Node process in the tree, and signals reach the server without a parent relaying them.
//
// The `start` script gives node two memory flags (measured in docs/performance.md, "Cold start and
// memory"): `--max-semi-space-size=4` caps V8's young generation at 4 MB a half instead of 16, which
// an idle console never needs (about 30 MB less RSS); `--liftoff-only` keeps PGlite's WebAssembly
// PostgreSQL on V8's baseline compiler, whose optimised second tier held about 60 MB of memory for
// a few per cent of query speed.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServersBuilt } from './build.mjs';
import { ensureWebBuilt, root } from './web-build.mjs';

const built = ensureWebBuilt() || ensureServersBuilt();
if (built !== 0) process.exit(built);

// What `node --enable-source-maps` does: stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(join(root, 'gateway', 'dist', 'all-in-one.js')).href);
