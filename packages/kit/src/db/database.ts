import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite as PGliteClient } from '@electric-sql/pglite';
import type { drizzle as drizzlePgliteOf } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** A drizzle handle or a transaction of one: repositories accept either. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = PgDatabase<PgQueryResultHKT, any, any>;

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Runs several SQL statements (migrations) in one transaction. */
  execInTransaction(statements: string, lockKey: string): Promise<void>;
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent an embedded PGlite is used. */
  url?: string;
  /** Where PGlite keeps its files; omit for an in-memory database (tests). */
  dataDir?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10) : openPglite(options.dataDir);
}

// Each driver is imported when opened: a process uses one of the two, and the other would sit in
// its heap for nothing (pg and its drizzle adapter, about 4 MB, in the all-in-one on PGlite).
async function openPglite(dataDir?: string): Promise<Database> {
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
  if (!existsSync(join(path, 'PG_VERSION'))) {
    // A new data directory is made by initdb in a second WebAssembly instance, whose memory (about
    // 300 MB) the first client keeps until it is closed: open, close, and open again.
    const creating = new PGlite(path, options);
    await creating.waitReady;
    await creating.close();
  }
  return pgliteDatabase(new PGlite(path, options), drizzlePglite);
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
    async close() {
      await client.close();
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max });
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
