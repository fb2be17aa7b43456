import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { appliedMigrations, openDatabase, requestDatabaseSnapshot, SNAPSHOT_SOCKET } from '@earshot/kit';
import { bucketOf, type BackupConfig } from './config';
import { listFiles, MANIFEST_FORMAT, writeHashed, writeManifest, type Manifest, type ManifestFile } from './manifest';

export const PGLITE_ARCHIVE = 'database/pgdata.tar.gz';
export const POSTGRES_DUMP = 'database/earshot.sql';

/**
 * A consistent backup of a running (or stopped) Earshot into the empty folder `to`: the database
 * first, as one snapshot, then the files of DATA_DIR and the objects. Objects are never changed in
 * place (a rewrite is a new object), so every object the snapshot names is copied as it was; one
 * written after the snapshot is copied too and is merely unreferenced after a restore.
 */
export async function takeBackup(to: string, config: BackupConfig, log: (line: string) => void): Promise<Manifest> {
  await assertEmptyFolder(to);
  await mkdir(to, { recursive: true, mode: 0o700 });
  try {
    const started = Date.now();
    const database = config.DATABASE_URL
      ? await dumpPostgres(to, config.DATABASE_URL)
      : await snapshotPglite(to, config.DATA_DIR);
    log(`database (${database.kind}): ${database.file.size} bytes in ${Date.now() - started} ms`);
    const files = [database.file, ...(await copyDataDir(to, config))];
    if (config.STORAGE_DRIVER === 's3') files.push(...(await copyBucket(to, config)));
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      createdAt: new Date().toISOString(),
      database: { kind: database.kind, file: database.file.path },
      storage: { driver: config.STORAGE_DRIVER },
      schemaVersions: database.migrations,
      files,
    };
    await writeManifest(to, manifest);
    return manifest;
  } catch (error) {
    // Half a backup must not be mistaken for one: remove what this run wrote.
    await rm(to, { recursive: true, force: true });
    throw error;
  }
}

async function assertEmptyFolder(to: string): Promise<void> {
  if (!existsSync(to)) return;
  const entries = await readdir(to);
  if (entries.length)
    throw new Error(`${to} is not empty (${entries.slice(0, 5).join(', ')}): back up into a new or empty folder`);
}

interface DatabaseCopy {
  kind: 'pglite' | 'postgres';
  file: ManifestFile;
  migrations: Record<string, string[]>;
}

/**
 * pg_dump of the whole database (every service's schema) in the snapshot of a repeatable-read
 * transaction that also reads the schema versions, so both describe the same instant. Owners and
 * grants are left out: a restore runs as whoever restores, and deploy/db-roles.sql hands each
 * schema back to its service's role.
 */
async function dumpPostgres(to: string, url: string): Promise<DatabaseCopy> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const migrations = await appliedMigrations(async (text) => (await client.query(text)).rows as never);
    const dump = spawn('pg_dump', ['--no-owner', '--no-privileges', `--snapshot=${rows[0]!.id}`, '--dbname', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const errors: Buffer[] = [];
    dump.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    const exited = new Promise<number>((done, fail) => {
      dump.once('error', fail);
      dump.once('close', (code) => done(code ?? 1));
    });
    const file = await writeHashed(dump.stdout, to, POSTGRES_DUMP);
    const code = await exited;
    if (code !== 0) throw new Error(`pg_dump failed (exit ${code}): ${Buffer.concat(errors).toString().trim()}`);
    await client.query('commit');
    return { kind: 'postgres', file, migrations };
  } finally {
    await client.end();
  }
}

/**
 * The embedded database: from the running all-in-one through its snapshot socket, or, when no
 * process holds DATA_DIR, by opening the data directory here.
 */
async function snapshotPglite(to: string, dataDir: string): Promise<DatabaseCopy> {
  const served = await requestDatabaseSnapshot(dataDir);
  if (served) {
    const file = await writeHashed(served.archive, to, PGLITE_ARCHIVE);
    return { kind: 'pglite', file, migrations: served.migrations };
  }
  if (!existsSync(join(dataDir, 'pgdata', 'PG_VERSION')))
    throw new Error(`No database to back up: ${resolve(dataDir, 'pgdata')} holds none and DATABASE_URL is not set`);
  const database = await openDatabase({ dataDir });
  try {
    const { archive, migrations } = await database.snapshot!();
    const file = await writeHashed(Readable.fromWeb(archive.stream() as never), to, PGLITE_ARCHIVE);
    return { kind: 'pglite', file, migrations };
  } finally {
    await database.close();
  }
}

/**
 * DATA_DIR as it is (objects of local storage, their content types, the kept secrets, speech
 * models, mail), but not the embedded database's files (the snapshot holds them), its socket,
 * unfinished uploads, nor a master key file placed there.
 */
async function copyDataDir(to: string, config: BackupConfig): Promise<ManifestFile[]> {
  const root = resolve(config.DATA_DIR);
  if (!existsSync(root)) return [];
  const keyFile = config.ENCRYPTION_MASTER_KEY_FILE ? resolve(config.ENCRYPTION_MASTER_KEY_FILE) : null;
  const skipped = new Set(['pgdata', SNAPSHOT_SOCKET, 'objects/.tmp']);
  const paths = await listFiles(
    root,
    (path) => skipped.has(path) || (keyFile !== null && resolve(root, path) === keyFile),
  );
  const files: ManifestFile[] = [];
  for (const path of paths) {
    try {
      files.push(await writeHashed(createReadStream(join(root, ...path.split('/'))), to, `data/${path}`));
    } catch (error) {
      // Removed between the listing and the copy (a temporary file renamed into place): not part of this backup.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return files;
}

/** Every object of the S3 bucket, byte for byte as stored (an encrypting company's stay encrypted). */
async function copyBucket(to: string, config: BackupConfig): Promise<ManifestFile[]> {
  const storage = bucketOf(config);
  const files: ManifestFile[] = [];
  // The whole listing first: a listing left waiting while each object is copied can be cut by the server.
  const keys: string[] = [];
  for await (const key of storage.keys()) keys.push(key);
  for (const key of keys) {
    const info = await storage.stat(key);
    if (!info) continue;
    const file = await writeHashed(await storage.get(key), to, `objects/${key}`);
    files.push({ ...file, contentType: info.contentType });
  }
  return files;
}
