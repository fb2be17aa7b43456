// `npm start`: builds the web app and the compiled servers when missing or older than their sources,
// then runs the all-in-one process (gateway + every service + embedded PostgreSQL + in-process event
// bus) from its compiled JavaScript.
//
// The builds run as child processes that end before the server starts (esbuild keeps a service
// process of its own while loaded), and the server then runs in this very process: no transpiler and
// no second Node process in the tree, and signals reach the server without a parent relaying them.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServersBuilt } from './build.mjs';
import { ensureWebBuilt, root } from './web-build.mjs';

const built = ensureWebBuilt() || ensureServersBuilt();
if (built !== 0) process.exit(built);

// What `node --enable-source-maps` does: stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(join(root, 'gateway', 'dist', 'all-in-one.js')).href);
