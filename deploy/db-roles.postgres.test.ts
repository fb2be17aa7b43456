import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { kitMigrations, migrate, openDatabase, type Database } from '@earshot/kit';
import { ALL_SERVICES } from '@earshot/gateway';
import { applyDbRoles, asSuperuser as asSuperuserOn, connected, serviceRoleUrl } from './db-roles';

// Runs only in the postgres jest project (a *.postgres.test.ts file): roles are server-wide
// objects, which PGlite does not have. deploy/db-roles.sql runs on a throwaway database, every
// service migrates as its own role, and each role is shown to reach its own schema only.

const url = process.env.DATABASE_URL!;
const dbName = `earshot_roles_${Date.now()}_${randomBytes(3).toString('hex')}`;
const passwords = Object.fromEntries(
  ALL_SERVICES.map((m) => [m.name, `pw-${m.name}-${randomBytes(6).toString('hex')}`]),
);
const roleUrl = (service: string) => serviceRoleUrl(url, dbName, service, passwords[service]!);
const asSuperuser = <T>(database: string, work: (client: pg.Client) => Promise<T>) =>
  asSuperuserOn(url, database, work);

const opened: Database[] = [];
const asRole = async (service: string) => {
  const database = await openDatabase({ url: roleUrl(service), poolSize: 1 });
  opened.push(database);
  return database;
};

beforeAll(async () => {
  await asSuperuser('postgres', (c) => c.query(`create database ${dbName}`));
  await applyDbRoles(url, dbName, passwords);
  // Each service applies its own migrations, connected as its own role, as it does when it starts.
  for (const module of ALL_SERVICES)
    await migrate(await asRole(module.name), module.schema, [...kitMigrations, ...module.migrations]);
}, 120_000);

afterAll(async () => {
  for (const database of opened) await database.close();
  await asSuperuser('postgres', (c) => c.query(`drop database if exists ${dbName} with (force)`));
});

test("every service role uses its own schema and cannot read any other service's tables", async () => {
  const tables = await asSuperuser(dbName, (c) =>
    c.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables where table_schema = any($1) order by 1, 2`,
      [ALL_SERVICES.map((m) => m.schema)],
    ),
  );
  expect(tables.rows.length).toBeGreaterThan(ALL_SERVICES.length);
  // One connection per role for its 1,500-odd refusals (a pool would reconnect after each).
  for (const module of ALL_SERVICES)
    await connected(roleUrl(module.name), async (client) => {
      for (const table of tables.rows) {
        const read = client.query(`select count(*) from "${table.schema}"."${table.name}"`);
        if (table.schema === module.schema) await expect(read).resolves.toMatchObject({ rowCount: 1 });
        else await expect(read).rejects.toThrow(/permission denied/);
      }
      // Nor can it make itself a place elsewhere.
      await expect(client.query('create schema intruder')).rejects.toThrow(/permission denied/);
    });
});

test('the script can run again (new services, new passwords) without losing anything', async () => {
  await applyDbRoles(url, dbName, passwords);
  const auth = await asRole('auth');
  await expect(auth.query('select count(*) from auth.schema_migrations')).resolves.toHaveLength(1);
});
