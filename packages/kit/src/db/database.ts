import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGlite as PGliteClient } from '@electric-sql/pglite';
import { context } from '@opentelemetry/api';
import type { drizzle as drizzlePgliteOf } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool, PoolClient } from 'pg';
import { appliedMigrations } from './migrate';

/** The callback form of `Pool.connect` (its last overload). */
type ConnectCallback = Parameters<Pool['connect']>[0];

/** A drizzle handle or a transaction of one: repositories accept either. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = PgDatabase<PgQueryResultHKT, any, any>;

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Runs several SQL statements (migrations) in one transaction. */
  execInTransaction(statements: string, lockKey: string): Promise<void>;
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * The embedded database as one consistent archive (PGlite only): a backup cannot copy the files
   * of a data directory a running process holds open, so the process that holds it makes the copy.
   */
  snapshot?(): Promise<DatabaseSnapshot>;
  close(): Promise<void>;
}

export interface DatabaseSnapshot {
  /** The applied migrations of every schema, as of the snapshot. */
  migrations: Record<string, string[]>;
  /** The data directory as a gzipped tarball, in PGlite's own format (loadable with `loadDataDir`). */
  archive: Blob;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent an embedded PGlite is used. */
  url?: string;
  /** Where PGlite keeps its files; omit for an in-memory database (tests). */
  dataDir?: string;
  poolSize?: number;
  /** A snapshot's archive to start an empty embedded data directory from (a restore). */
  archive?: Blob;
  /**
   * A fresh, cleanly closed PGlite data directory that a new `dataDir` is copied from instead of
   * running initdb; by default the one the build makes (see `pgliteTemplate`), null for none.
   */
  template?: string | null;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10)
    : openPglite(options.dataDir, options.archive, options.template);
}

// Each driver is imported when opened: a process uses one of the two, and the other would sit in
// its heap for nothing (pg and its drizzle adapter, about 4 MB, in the all-in-one on PGlite).
async function openPglite(dataDir?: string, archive?: Blob, given?: string | null): Promise<Database> {
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
  ]);
  // PostgreSQL's default 128 MB of shared buffers live in PGlite's WebAssembly memory, which never
  // shrinks; on disk the data files are in the operating system's cache anyway, so 32 MB is plenty
  // and the idle all-in-one holds about 120 MB less.
  const options = { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'] };
  if (!dataDir) return pgliteDatabase(new PGlite(options), drizzlePglite);
  const path = join(dataDir, 'pgdata');
  mkdirSync(path, { recursive: true });
  // A restore starts the empty data directory from a snapshot's archive.
  if (archive) return pgliteDatabase(new PGlite(path, { ...options, loadDataDir: archive }), drizzlePglite);
  if (!existsSync(join(path, 'PG_VERSION'))) {
    const template = given === undefined ? pgliteTemplate() : given;
    if (template && existsSync(join(template, 'PG_VERSION')) && readdirSync(path).length === 0) {
      // Copied beside it and renamed into place, so an interrupted copy never looks like a data directory.
      const copying = `${path}.copying`;
      rmSync(copying, { recursive: true, force: true });
      cpSync(template, copying, { recursive: true });
      renameSync(copying, path);
    } else {
      // A new data directory is made by initdb in a second WebAssembly instance, whose memory (about
      // 300 MB) the first client keeps until it is closed: open, close, and open again.
      const creating = new PGlite(path, options);
      await creating.waitReady;
      await creating.close();
    }
  }
  return pgliteDatabase(new PGlite(path, options), drizzlePglite);
}

/**
 * The fresh data directory of the installed PGlite that `scripts/pglite-template.mjs` makes when the
 * servers are built: copying its 40 MB costs a tenth of the CPU initdb spends on a first start. It
 * is kept in the cache folder of the node_modules that holds PGlite and named by PGlite's version
 * (the script names it the same way), so an upgrade never copies another version's files.
 */
function pgliteTemplate(): string {
  const pglite = dirname(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')));
  const { version } = JSON.parse(readFileSync(join(pglite, 'package.json'), 'utf8')) as { version: string };
  return join(pglite, '..', '..', '.cache', 'earshot', `pglite-${version}`);
}

async function pgliteDatabase(client: PGliteClient, drizzlePglite: typeof drizzlePgliteOf): Promise<Database> {
  await client.waitReady;
  const db = drizzlePglite(client) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    async execInTransaction(statements) {
      // PGlite is one connection that serialises transactions itself: no advisory lock needed.
      await client.transaction(async (tx) => {
        await tx.exec(statements);
      });
    },
    async query<T>(text: string, params: unknown[] = []) {
      return (await client.query(text, params)).rows as T[];
    },
    async snapshot() {
      // Inside a transaction of its own, which holds PGlite's transaction lock: no other
      // transaction is half-way through, so the checkpoint and the archive see committed work only.
      return client.transaction(async (tx) => {
        const migrations = await appliedMigrations(async (text) => (await tx.query(text)).rows as never);
        await tx.exec('checkpoint');
        return { migrations, archive: await client.dumpDataDir('gzip') };
      });
    },
    async close() {
      await client.close();
    },
  };
}

/** SQLSTATE classes of a failing connection or server: its connection is not given back. */
const CONNECTION_FAILURES = /^(08|53|57P|58|XX|F0)/;

/** A statement the server refused with an error of the statement's own (a constraint, a syntax error, a cancel). */
function statementRefused(error: unknown, DatabaseError: typeof import('pg').DatabaseError): boolean {
  return error instanceof DatabaseError && typeof error.code === 'string' && !CONNECTION_FAILURES.test(error.code);
}

async function keptConnectionQuery(
  pool: Pool,
  DatabaseError: typeof import('pg').DatabaseError,
  config: unknown,
  values: unknown,
): Promise<unknown> {
  const client = await pool.connect();
  // A connection that fails mid-statement emits 'error': without a listener that ends the process.
  let lost: Error | undefined;
  const onError = (error: Error) => (lost = error);
  client.once('error', onError);
  let failure: unknown;
  try {
    return await (client.query as (config: unknown, values: unknown) => Promise<unknown>)(config, values);
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    client.removeListener('error', onError);
    const kept = lost === undefined && (failure === undefined || statementRefused(failure, DatabaseError));
    client.release(kept ? undefined : (lost ?? new Error('The connection failed', { cause: failure })));
  }
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  /**
   * pg-pool answers a `connect` that had to wait (each `pool.query` is one) from the release that
   * freed a client, so its callback ran in that client's async context, kept from the request that
   * opened the connection: with tracing on, the SQL of a request the sampler left out was recorded
   * in another request's trace, and paid for. The callback runs in its caller's context instead.
   */
  class CallerContextPool extends pg.Pool {
    override connect(): Promise<PoolClient>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<PoolClient> | void {
      return callback ? super.connect(context.bind(context.active(), callback)) : super.connect();
    }

    /**
     * pg-pool's query hands any failure back with the connection, and the pool then closes it: a
     * unique violation behind a 409 cost the next query a new connection and a new server backend
     * (about 50 ms under load, against 0.2 ms for the refusal itself). A statement the server
     * refused leaves a sound connection (pg waits for its ReadyForQuery before the next), so it
     * is kept; a failure of the connection itself still closes it. The callback forms and submittables
     * (cursors, streams) stay pg-pool's.
     */
    override query(...args: unknown[]): never {
      const submittable = typeof (args[0] as { submit?: unknown } | null)?.submit === 'function';
      if (submittable || args.some((arg) => typeof arg === 'function'))
        return (super.query as (...a: unknown[]) => never)(...args);
      return keptConnectionQuery(this, pg.DatabaseError, args[0], args[1]) as never;
    }
  }
  const pool: Pool = new CallerContextPool({ connectionString: url, max });
  // A broken idle connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  const db = drizzlePg(pool) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    async execInTransaction(statements, lockKey) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        // Replicas starting together must not run the same migration twice.
        await client.query('select pg_advisory_xact_lock(hashtext($1))', [lockKey]);
        await client.query(statements);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async query<T>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as T[];
    },
    async close() {
      await pool.end();
    },
  };
}
