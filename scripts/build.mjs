// `npm run build`: compiles every server entrypoint to JavaScript that plain `node` runs, so no
// process in production carries a TypeScript transpiler (tsx held about 200 MB per process, and its
// esbuild service another process beside it).
//
// One esbuild bundle per entrypoint (`src/main.ts`, `src/worker.ts`, `src/all-in-one.ts` of the
// gateway and each service) into that workspace's `dist/`: the @earshot/* packages are bundled (they
// are TypeScript sources), every third-party package stays an import resolved from node_modules, so
// native modules, PGlite's WebAssembly and packages' own files load as they do today.
//
// Threads and child processes are started from plain `.mjs` files next to the code that starts them
// (`new URL('./x.mjs', import.meta.url)`). Bundled, `import.meta.url` is the bundle's, so each such
// file is compiled into the bundle's folder under the same name. A thread entry that only exists to
// load a TypeScript module through tsx (`tsImport('./y.ts', …)`) is replaced by that module compiled.
//
// The operator commands (`npm run backup`, `restore`, `audit`, ...) are compiled the same way into
// `dist/scripts/`: a production image runs them with plain node (`node dist/scripts/backup.js …`),
// and their npm scripts run the compiled file through scripts/command.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY_NAMES = ['main', 'worker', 'all-in-one'];
/** Operator commands: the npm script's name (scripts/command.mjs runs `dist/scripts/<name>.js`) and its source. */
const COMMANDS = {
  audit: 'scripts/audit.ts',
  backup: 'scripts/backup/main.ts',
  events: 'scripts/events.ts',
  keys: 'scripts/keys.ts',
  models: 'scripts/models.ts',
  'rotate-signing-key': 'scripts/rotate-signing-key.ts',
};

/**
 * What a bundle is made of: a newer file in any workspace's `src/` or package.json, or in
 * `scripts/` (the commands' sources), makes it stale.
 */
function sources() {
  const workspaces = [
    'gateway',
    ...['services', 'packages'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(dir, name))),
  ];
  return [
    join(root, 'scripts'),
    ...workspaces.flatMap((workspace) => [join(root, workspace, 'src'), join(root, workspace, 'package.json')]),
  ];
}

/** Workspaces that run as processes, with the entrypoints each has. */
export function entrypoints() {
  const workspaces = ['gateway', ...readdirSync(join(root, 'services')).map((name) => join('services', name))];
  return workspaces.flatMap((workspace) =>
    ENTRY_NAMES.filter((name) => existsSync(join(root, workspace, 'src', `${name}.ts`))).map((name) => ({
      workspace,
      source: join(workspace, 'src', `${name}.ts`),
      output: join(workspace, 'dist', `${name}.js`),
    })),
  );
}

/** The operator commands, compiled into the repository's `dist/scripts/`. */
export function commands() {
  return Object.entries(COMMANDS).map(([name, source]) => ({
    workspace: '.',
    source,
    output: join('dist', 'scripts', `${name}.js`),
  }));
}

const THREAD_ENTRY = /new URL\(\s*'\.\/([\w./-]+\.mjs)'\s*,\s*import\.meta\.url\s*\)/g;
const TSX_IMPORT = /tsImport\(\s*'(\.\/[\w./-]+\.ts)'/;

/** True when a workspace between the importing file and the root keeps its own copy of the package. */
function hasWorkspaceCopy(specifier, importer) {
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  for (let dir = dirname(importer); dir.startsWith(root) && dir !== root; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name))) return true;
  }
  return false;
}

/**
 * Keeps third-party packages as imports and bundles the workspace's own packages. A workspace's own
 * copy of a package (under its `node_modules`: its version is not the root's) is imported by its
 * path relative to `outdir`: a bundle compiled elsewhere (the all-in-one, the operator commands)
 * must load that copy, not the root's, which may be a dev-only one that `npm prune --omit=dev`
 * removes from the image.
 */
function externals(outdir) {
  return {
    name: 'third-party-external',
    setup(esbuild) {
      esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('@earshot/') || args.pluginData === 'own-copy') return undefined;
        if (args.path.startsWith('node:') || !hasWorkspaceCopy(args.path, args.importer)) {
          return { path: args.path, external: true };
        }
        // esbuild's own resolution, with the conditions node applies to an import.
        const found = await esbuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'own-copy',
        });
        const path = relative(outdir, found.path).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/** Records every thread or child-process entry a bundled module starts (see the header). */
function threadEntries(found) {
  return {
    name: 'thread-entries',
    setup(esbuild) {
      esbuild.onLoad({ filter: /\.(ts|mjs)$/ }, (args) => {
        if (args.path.includes('node_modules')) return undefined;
        const text = readFileSync(args.path, 'utf8');
        for (const match of text.matchAll(THREAD_ENTRY)) found.add(join(dirname(args.path), match[1]));
        return undefined;
      });
    },
  };
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Stack traces name the TypeScript file and line from the map's mappings alone; the sources'
  // text would be a second copy of the code in every process's heap.
  sourcesContent: false,
  logLevel: 'warning',
};

/** The source a thread entry's output is compiled from. */
function threadSource(file) {
  const loaded = readFileSync(file, 'utf8').match(TSX_IMPORT);
  return loaded ? join(dirname(file), loaded[1]) : file;
}

/** Builds one entrypoint and the thread entries its bundle starts, into the same folder. */
async function buildEntry(build, entry) {
  const found = new Set();
  const outdir = dirname(join(root, entry.output));
  await build({
    ...common,
    entryPoints: [join(root, entry.source)],
    outfile: join(root, entry.output),
    plugins: [externals(outdir), threadEntries(found)],
  });
  const done = new Set();
  while (found.size > done.size) {
    for (const file of [...found].filter((f) => !done.has(f))) {
      done.add(file);
      await build({
        ...common,
        entryPoints: [threadSource(file)],
        outfile: join(outdir, basename(file)),
        plugins: [externals(outdir), threadEntries(found)],
      });
    }
  }
  return [entry.output, ...[...done].map((file) => relative(root, join(outdir, basename(file))))];
}

/** Builds every entrypoint; returns the files written. */
export async function buildAll() {
  // Loaded here, not at the top: `npm start` imports this file for the staleness check alone.
  const { build } = await import('esbuild');
  // Outputs are overwritten in place, never the folder emptied first: a server starting meanwhile
  // (browser suites side by side) finds every file there.
  const entries = [...entrypoints(), ...commands()];
  const written = [];
  for (const entry of entries) written.push(...(await buildEntry(build, entry)));
  return written;
}

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // Files only: a folder's own time changes whenever anything is written in it.
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    latest = Math.max(latest, newest(join(path, entry.name)));
  }
  return latest;
}

/** True when an entrypoint's output is missing or older than any source or this script. */
export function serversAreStale() {
  const outputs = [...entrypoints(), ...commands()].map((e) => join(root, e.output));
  if (outputs.some((file) => !existsSync(file))) return true;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const changed = Math.max(statSync(fileURLToPath(import.meta.url)).mtimeMs, ...sources().map(newest));
  return changed > built;
}

/**
 * Builds when stale, in a child process that ends before the caller goes on (esbuild keeps a
 * service process of its own while loaded). Returns the build's exit status (0: nothing to do).
 */
export function ensureServersBuilt() {
  if (!serversAreStale()) return 0;
  console.log('Building the servers (dist/ is missing or older than the sources)...');
  return spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { cwd: root, stdio: 'inherit' }).status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const written = await buildAll();
  console.log(`Built ${new Set(written).size} files in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
  for (const file of new Set(written)) console.log(`  ${file}`);
  // An image built with `npm run build` starts its first embedded database from the template too.
  const { ensurePgliteTemplate } = await import('./pglite-template.mjs');
  process.exitCode = ensurePgliteTemplate();
}
