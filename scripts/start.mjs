// `npm start`: builds the web app and the compiled servers when missing or older than their sources,
// and the embedded database's template when missing (scripts/pglite-template.mjs), then runs the
// all-in-one process (gateway + every service + embedded PostgreSQL + in-process event bus) from its
// compiled JavaScript.
//
// The builds run as child processes that end before the server starts (esbuild keeps a service
// process of its own while loaded), and the server then runs in this very process: no transpiler and
// no second Node process in the tree, and signals reach the server without a parent relaying them.
//
// The `start` script sets memory for node (measured in docs/performance.md, "Cold start and
// memory"): `--liftoff-only` keeps PGlite's WebAssembly PostgreSQL on V8's baseline compiler, whose
// optimised second tier held about 60 MB of memory for a few per cent of query speed; a fixed malloc
// threshold of 128 KB returns each argon2 hash's 19 MB at once (glibc otherwise keeps it). The
// services' `--max-semi-space-size=4` is left out here: on an empty data directory the migrations
// and the demo seed then spent twice the CPU time in young-generation collections.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServersBuilt } from './build.mjs';
import { ensurePgliteTemplate } from './pglite-template.mjs';
import { ensureWebBuilt, root } from './web-build.mjs';

const built = ensureWebBuilt() || ensureServersBuilt() || ensurePgliteTemplate();
if (built !== 0) process.exit(built);

// What `node --enable-source-maps` does: stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(join(root, 'gateway', 'dist', 'all-in-one.js')).href);
