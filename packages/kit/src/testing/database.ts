import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../db/database';

/**
 * A fresh, empty database for one test file: in-memory PGlite, or (in the `postgres` jest project)
 * a throwaway database on the real server named by DATABASE_URL, dropped on close.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.EARSHOT_TEST_DB !== 'postgres') return openDatabase({});
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('The postgres test project needs DATABASE_URL');
  return openThrowawayDatabase(url, 'earshot_test', 5);
}

/** A new, empty database on the PostgreSQL server at `url`: its URL, and how to drop it (with its connections). */
export async function createThrowawayDatabase(
  url: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** A new database on the PostgreSQL server at `url`, dropped (with its connections) on close. */
export async function openThrowawayDatabase(url: string, prefix: string, poolSize: number): Promise<Database> {
  const throwaway = await createThrowawayDatabase(url, prefix);
  const database = await openDatabase({ url: throwaway.url, poolSize });
  return {
    ...database,
    async close() {
      await database.close();
      await throwaway.drop();
    },
  };
}
