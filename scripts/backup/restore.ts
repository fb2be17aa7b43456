import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { appliedMigrations, openDatabase } from '@earshot/kit';
import { bucketOf, type BackupConfig } from './config';
import { readManifest, verifyBackup, type Manifest } from './manifest';

/** A restore refused before anything was written: the target is not what a restore may fill. */
export class RestoreRefusedError extends Error {}

/**
 * Restores the backup in `from` into an empty target: DATA_DIR (and its embedded database), or
 * the database at DATABASE_URL, and the S3 bucket when the backup's objects were in S3. The backup
 * is verified and every part of the target checked empty before anything is written.
 */
export async function restoreBackup(from: string, config: BackupConfig, log: (line: string) => void): Promise<void> {
  const manifest = await readManifest(from);
  const problems = await verifyBackup(from, manifest);
  if (problems.length)
    throw new RestoreRefusedError(`The backup in ${from} does not match its manifest:\n  ${problems.join('\n  ')}`);
  await assertEmptyTarget(manifest, config);

  const objects = manifest.files.filter((file) => file.path.startsWith('objects/'));
  // The objects first, right after the bucket was found empty: a connection left idle while the
  // database is restored may be cut by the server (ECONNRESET on its next use).
  if (objects.length) {
    const bucket = bucketOf(config);
    for (const file of objects)
      await bucket.put(file.path.slice('objects/'.length), createReadStream(join(from, ...file.path.split('/'))), {
        contentType: file.contentType ?? 'application/octet-stream',
        size: file.size,
      });
  }
  const started = Date.now();
  const dump = join(from, ...manifest.database.file.split('/'));
  const restored =
    manifest.database.kind === 'postgres'
      ? await restorePostgres(dump, config.DATABASE_URL!)
      : await restorePglite(dump, config.DATA_DIR);
  if (!isDeepStrictEqual(restored, manifest.schemaVersions))
    throw new Error('The restored database does not hold the schema versions the manifest lists');
  log(`database (${manifest.database.kind}) restored in ${Date.now() - started} ms`);

  const dataDir = resolve(config.DATA_DIR);
  const files = manifest.files.filter((file) => file.path.startsWith('data/'));
  for (const file of files) {
    const target = join(dataDir, ...file.path.slice('data/'.length).split('/'));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(from, ...file.path.split('/')), target);
  }
  log(`${files.length} file(s) into ${dataDir}${objects.length ? `, ${objects.length} object(s) into S3` : ''}`);
}

/** Refuses, naming why, any target that already holds something or is of another kind. */
async function assertEmptyTarget(manifest: Manifest, config: BackupConfig): Promise<void> {
  const dataDir = resolve(config.DATA_DIR);
  const entries = existsSync(dataDir) ? await readdir(dataDir) : [];
  if (entries.length)
    throw new RestoreRefusedError(
      `DATA_DIR ${dataDir} is not empty (it holds ${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}): a restore fills an empty target only`,
    );
  if (manifest.database.kind === 'postgres') {
    if (!config.DATABASE_URL)
      throw new RestoreRefusedError(
        'This backup holds a PostgreSQL database (pg_dump): set DATABASE_URL to an empty database to restore it into',
      );
    const schemas = await schemasWithTables(config.DATABASE_URL);
    if (schemas.length)
      throw new RestoreRefusedError(
        `The database at DATABASE_URL is not empty (it holds tables in ${schemas.join(', ')}): a restore fills an empty database only`,
      );
  } else if (config.DATABASE_URL) {
    throw new RestoreRefusedError(
      'This backup holds the embedded database: unset DATABASE_URL to restore it into DATA_DIR (a backup restores into the kind of database it was taken from)',
    );
  }
  if (manifest.storage.driver !== config.STORAGE_DRIVER)
    throw new RestoreRefusedError(
      `This backup's objects were in ${manifest.storage.driver} storage: set STORAGE_DRIVER=${manifest.storage.driver} (and its settings) to restore them`,
    );
  if (config.STORAGE_DRIVER === 's3') {
    const keys = bucketOf(config).keys();
    const first = await keys.next();
    // Ends the listing's request instead of leaving it half-read.
    await keys.return(undefined);
    if (!first.done)
      throw new RestoreRefusedError(
        `The S3 bucket ${config.S3_BUCKET} is not empty (it holds ${first.value}): a restore fills an empty bucket only`,
      );
  }
}

async function schemasWithTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string }>(
      `select distinct n.nspname as schema from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'S') and n.nspname not in ('pg_catalog', 'information_schema')
         and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%' order by 1`,
    );
    return rows.map((r) => r.schema);
  } finally {
    await client.end();
  }
}

/** psql in one transaction that stops at the first error: the database is restored whole or not at all. */
async function restorePostgres(dump: string, url: string): Promise<Record<string, string[]>> {
  const psql = spawn(
    'psql',
    ['--quiet', '--no-psqlrc', '--single-transaction', '-v', 'ON_ERROR_STOP=1', '--file', dump, '--dbname', url],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const errors: Buffer[] = [];
  psql.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  const code = await new Promise<number>((done, fail) => {
    psql.once('error', fail);
    psql.once('close', (exit) => done(exit ?? 1));
  });
  if (code !== 0) throw new Error(`psql failed (exit ${code}): ${Buffer.concat(errors).toString().trim()}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await appliedMigrations(async (text) => (await client.query(text)).rows as never);
  } finally {
    await client.end();
  }
}

/** The archive unpacked by PGlite itself into DATA_DIR/pgdata, then opened once to read it back. */
async function restorePglite(archive: string, dataDir: string): Promise<Record<string, string[]>> {
  const database = await openDatabase({ dataDir, archive: new Blob([await readFile(archive)]) });
  try {
    return await appliedMigrations((text) => database.query(text));
  } finally {
    await database.close();
  }
}
