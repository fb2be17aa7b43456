import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { commands, entrypoints, ensureServersBuilt, root } from './build.mjs';
import { freePorts, waitFor } from './distributed/processes';
import { MANIFEST_FORMAT, writeHashed, writeManifest } from './backup/manifest';

// `npm run build` writes JavaScript that plain node runs: the outputs exist with their source maps,
// import no transpiler, and a compiled service started the way its start script (and the image)
// starts it answers the image's HEALTHCHECK.

beforeAll(() => {
  expect(ensureServersBuilt()).toBe(0);
}, 300_000);

test('every entrypoint is compiled with a source map, and no output loads a transpiler', () => {
  const outputs = entrypoints().map((entry) => entry.output);
  expect(outputs).toEqual(
    expect.arrayContaining([
      'gateway/dist/all-in-one.js',
      'gateway/dist/main.js',
      'services/transcription/dist/worker.js',
      'services/chat/dist/main.js',
    ]),
  );
  // The threads and child processes started from `new URL('./x.mjs', import.meta.url)` sit beside
  // the bundles that start them; chat's knowledge thread and transcription's export thread are
  // compiled, not loaded through tsx.
  const threads = [
    'gateway/dist/extract-thread.mjs',
    'services/chat/dist/extract-thread.mjs',
    'gateway/dist/render-thread.mjs',
    'services/transcription/dist/render-thread.mjs',
    'services/transcription/dist/whisper-host.mjs',
    'services/transcription/dist/child.mjs',
  ];
  const operatorCommands = commands().map((command) => command.output);
  expect(operatorCommands).toEqual(expect.arrayContaining(['dist/scripts/backup.js', 'dist/scripts/audit.js']));
  for (const file of [...outputs, ...threads, ...operatorCommands]) {
    expect({ file, built: existsSync(join(root, file)), map: existsSync(join(root, `${file}.map`)) }).toEqual({
      file,
      built: true,
      map: true,
    });
    const code = readFileSync(join(root, file), 'utf8');
    expect({ file, transpiler: /from ["'](tsx|esbuild|@swc)[/"']/.exec(code)?.[0] ?? null }).toEqual({
      file,
      transpiler: null,
    });
  }
});

test('a compiled service run as its start script says answers the image HEALTHCHECK', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-build-'));
  const [port] = await freePorts(1);
  const { DATABASE_URL: _database, KAFKA_BROKERS: _kafka, ...inherited } = process.env;
  const env = {
    ...inherited,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    // A busy machine's stalls would have it answer 503: shedding has tests of its own.
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_QUEUE_DELAY_MS: '0',
  };
  const healthcheck = () =>
    spawnSync(process.execPath, [join(root, 'deploy', 'healthcheck.mjs')], { env, encoding: 'utf8' });
  // Nothing listens yet: unhealthy.
  expect(healthcheck().status).toBe(1);

  const workspace = join(root, 'services', 'audit');
  const script = (JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  expect(script).toBe('node --enable-source-maps dist/main.js');
  const [, ...args] = script.split(' ');
  const child = spawn(process.execPath, args, { cwd: workspace, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  try {
    await waitFor(
      'the compiled audit service to be healthy',
      async () => healthcheck().status === 0,
      240_000,
      () => (child.exitCode === null ? null : `the service exited (${child.exitCode}): ${errors}`),
    );
    const ready = await fetch(`http://127.0.0.1:${port}/ready`);
    expect(await ready.json()).toEqual({ status: 'ready' });
  } finally {
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await ended;
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 300_000);

test('the operator commands run compiled with plain node: npm run backup -- verify, and node dist/scripts/backup.js', async () => {
  const backup = mkdtempSync(join(tmpdir(), 'earshot-build-backup-'));
  try {
    const file = await writeHashed(
      Readable.from([Buffer.from('a tiny database archive')]),
      backup,
      'database/pgdata.tar.gz',
    );
    await writeManifest(backup, {
      format: MANIFEST_FORMAT,
      createdAt: new Date().toISOString(),
      database: { kind: 'pglite', file: file.path },
      storage: { driver: 'local' },
      schemaVersions: {},
      files: [file],
    });
    const scripts = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    // What `npm run backup -- verify DIR` runs, without npm's own process around it.
    const [node, ...args] = scripts.backup!.split(' ');
    expect(node).toBe('node');
    const intact = spawnSync(process.execPath, [...args, 'verify', backup], { cwd: root, encoding: 'utf8' });
    expect({ status: intact.status, stdout: intact.stdout }).toEqual({
      status: 0,
      stdout: `${backup}: every file matches the manifest.\n`,
    });

    // The image runs the compiled file itself; an altered file is found and the exit code says so.
    writeFileSync(join(backup, 'database', 'pgdata.tar.gz'), 'altered');
    const altered = spawnSync(process.execPath, ['dist/scripts/backup.js', 'backup', 'verify', backup], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(altered.status).toBe(1);
    expect(altered.stdout).toMatch(/^altered: database\/pgdata\.tar\.gz /m);
  } finally {
    rmSync(backup, { recursive: true, force: true });
  }
}, 120_000);
