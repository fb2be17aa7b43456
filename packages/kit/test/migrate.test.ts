import { migrate, type Database, type Migration } from '../src';
import { openTestDatabase } from '../src/testing';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => database.close());

const count = async (sql: string) => Number((await database.query<{ n: string | number }>(sql))[0]!.n);
const applied = async (schema: string) =>
  (await database.query<{ name: string }>(`select name from ${schema}.schema_migrations order by name`)).map(
    (r) => r.name,
  );

test('applies each migration once, in name order, and skips the ones already applied', async () => {
  // Given out of order: 0002 needs the table 0001 creates.
  const first: Migration[] = [
    { name: '0002_rows', sql: "insert into things (label) values ('from 0002')" },
    { name: '0001_things', sql: 'create table things (id serial primary key, label text not null)' },
  ];
  expect(await migrate(database, 'mig_order', first)).toEqual(['0001_things', '0002_rows']);
  expect(await migrate(database, 'mig_order', first)).toEqual([]);
  expect(await count('select count(*) as n from mig_order.things')).toBe(1);

  const later = [...first, { name: '0003_more', sql: "insert into things (label) values ('from 0003')" }];
  expect(await migrate(database, 'mig_order', later)).toEqual(['0003_more']);
  expect(await count('select count(*) as n from mig_order.things')).toBe(2);
  expect(await applied('mig_order')).toEqual(['0001_things', '0002_rows', '0003_more']);
});

test('a schema with every migration applied (a restart) costs one query and no transaction', async () => {
  const migrations: Migration[] = [{ name: '0001_rows', sql: 'create table rows (id int)' }];
  await migrate(database, 'mig_current', migrations);
  const calls: string[] = [];
  const watched: Database = {
    ...database,
    query: (text, params) => {
      calls.push(`query: ${text}`);
      return database.query(text, params);
    },
    execInTransaction: (statements, lockKey) => {
      calls.push(`transaction: ${statements}`);
      return database.execInTransaction(statements, lockKey);
    },
  };
  expect(await migrate(watched, 'mig_current', migrations)).toEqual([]);
  expect(calls).toEqual(['query: select name from mig_current.schema_migrations']);

  // One more migration: the full path applies it.
  const later = [...migrations, { name: '0002_more', sql: 'create table more (id int)' }];
  expect(await migrate(watched, 'mig_current', later)).toEqual(['0002_more']);
  expect(calls.filter((call) => call.startsWith('transaction:'))).toHaveLength(2);
});

test("a new schema's migrations commit together, each recorded", async () => {
  const migrations: Migration[] = [
    { name: '0001_things', sql: 'create table things (id int)' },
    { name: '0002_more', sql: 'create table more (id int)' },
    { name: '0003_rows', sql: 'insert into things values (1)' },
  ];
  let transactions = 0;
  const watched: Database = {
    ...database,
    execInTransaction: (statements, lockKey) => {
      transactions++;
      return database.execInTransaction(statements, lockKey);
    },
  };
  expect(await migrate(watched, 'mig_new', migrations)).toEqual(['0001_things', '0002_more', '0003_rows']);
  // The schema's bookkeeping table, then every migration at once.
  expect(transactions).toBe(2);
  expect(await applied('mig_new')).toEqual(['0001_things', '0002_more', '0003_rows']);
  expect(await count('select count(*) as n from mig_new.things')).toBe(1);
});

test('a failing migration leaves nothing behind and is retried on the next start', async () => {
  const base: Migration = { name: '0001_base', sql: 'create table base (id int)' };
  const broken: Migration = {
    name: '0002_half',
    sql: 'create table half (id int); insert into no_such_table values (1)',
  };
  await expect(migrate(database, 'mig_fail', [base, broken])).rejects.toThrow(/no_such_table/);
  expect(await applied('mig_fail')).toEqual(['0001_base']);
  expect(
    await count(
      "select count(*) as n from information_schema.tables where table_schema = 'mig_fail' and table_name = 'half'",
    ),
  ).toBe(0);

  const fixed: Migration = { name: '0002_half', sql: 'create table half (id int); insert into half values (1)' };
  expect(await migrate(database, 'mig_fail', [base, fixed])).toEqual(['0002_half']);
  expect(await count('select count(*) as n from mig_fail.half')).toBe(1);
});

test('concurrent migrate calls (replicas starting together) apply each migration once', async () => {
  const migrations: Migration[] = [
    { name: '0001_log', sql: 'create table if not exists log (entry text not null)' },
    // Not idempotent on its own: run twice it would leave two rows.
    { name: '0002_entry', sql: "insert into log (entry) values ('applied')" },
  ];
  const results = await Promise.all([1, 2, 3].map(() => migrate(database, 'mig_race', migrations)));
  expect(results.flat().sort()).toEqual(['0001_log', '0002_entry']);
  expect(await count('select count(*) as n from mig_race.log')).toBe(1);
  expect(await applied('mig_race')).toEqual(['0001_log', '0002_entry']);
});

test('rejects a schema name that is not a plain identifier', async () => {
  await expect(migrate(database, 'bad; drop schema public', [])).rejects.toThrow(/Invalid schema name/);
});
