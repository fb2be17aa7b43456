import type { Database } from './database';

export interface Migration {
  /** Sortable, never renamed once released: e.g. '0001_users'. */
  name: string;
  sql: string;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/**
 * Applies a service's migrations to its own schema, once each, in name order. Each migration runs
 * in its own transaction together with its bookkeeping row, so a failure leaves nothing half-done.
 */
export async function migrate(database: Database, schema: string, migrations: readonly Migration[]): Promise<string[]> {
  if (!IDENT.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  // Every restart finds each migration applied: one query says so, with no transaction or lock.
  if (await isCurrent(database, schema, migrations)) return [];
  // A service's own database role owns its schema but may not create schemas: it only creates the
  // schema when it is missing (all-in-one, tests), and never asks for it otherwise.
  const exists = (await database.query('select 1 from pg_namespace where nspname = $1', [schema])).length > 0;
  await database.execInTransaction(
    `${exists ? '' : `create schema if not exists ${schema};`}
     create table if not exists ${schema}.schema_migrations (name text primary key, applied_at timestamptz not null default now());`,
    `migrate:${schema}`,
  );
  const applied = new Set(
    (await database.query<{ name: string }>(`select name from ${schema}.schema_migrations`)).map((r) => r.name),
  );
  const pending = [...migrations].sort((a, b) => a.name.localeCompare(b.name)).filter((m) => !applied.has(m.name));
  const step = (migration: Migration) =>
    `set local search_path to ${schema}, public;
     ${migration.sql};
     insert into ${schema}.schema_migrations (name) values ('${migration.name.replace(/'/g, "''")}');`;
  // A new schema (a first start) takes all its migrations in one transaction: one commit instead of
  // one each, which on the embedded database saved a quarter of the CPU and more of the wall time
  // of a first start's migrations (docs/performance.md, "The first start"). When that fails (a
  // broken migration, a replica that got there first, a migration that needs the one before it
  // committed), nothing of it stays and they go one at a time below, as always.
  if (applied.size === 0 && pending.length > 1) {
    try {
      await database.execInTransaction(pending.map(step).join('\n'), `migrate:${schema}`);
      return pending.map((m) => m.name);
    } catch {
      // One at a time below, which reports the failure that remains.
    }
  }
  const done: string[] = [];
  for (const migration of pending) {
    try {
      await database.execInTransaction(step(migration), `migrate:${schema}`);
      done.push(migration.name);
    } catch (error) {
      // Another replica may have applied it while we waited for the lock: that is success.
      const rows = await database.query(`select 1 from ${schema}.schema_migrations where name = $1`, [migration.name]);
      if (rows.length === 0) throw error;
    }
  }
  return done;
}

/** True when the schema's bookkeeping lists every migration; false when it lacks some or is not there yet. */
async function isCurrent(database: Database, schema: string, migrations: readonly Migration[]): Promise<boolean> {
  try {
    const applied = await database.query<{ name: string }>(`select name from ${schema}.schema_migrations`);
    const names = new Set(applied.map((r) => r.name));
    return migrations.every((migration) => names.has(migration.name));
  } catch {
    // A new schema has no schema_migrations table: the full path below creates it.
    return false;
  }
}

/**
 * Every schema's applied migrations (its `schema_migrations`), by schema: what a backup records as
 * the schema versions it holds and a restore checks it brought back.
 */
export async function appliedMigrations(query: <T>(text: string) => Promise<T[]>): Promise<Record<string, string[]>> {
  const schemas = await query<{ schema: string }>(
    `select n.nspname as schema from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relname = 'schema_migrations' and c.relkind = 'r' order by 1`,
  );
  const result: Record<string, string[]> = {};
  for (const { schema } of schemas) {
    if (!IDENT.test(schema)) continue;
    result[schema] = (await query<{ name: string }>(`select name from ${schema}.schema_migrations order by name`)).map(
      (r) => r.name,
    );
  }
  return result;
}
