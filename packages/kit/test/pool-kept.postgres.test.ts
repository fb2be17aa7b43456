import { sql } from 'drizzle-orm';
import type { Database } from '../src';
import { openThrowawayDatabase } from '../src/testing';

// One pooled connection: whether a statement after a failure runs on the same server backend
// says whether the pool kept the connection or opened a new one.
let database: Database;
const backend = async () => (await database.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;

beforeAll(async () => {
  database = await openThrowawayDatabase(process.env.DATABASE_URL!, 'earshot_pool_kept', 1);
  await database.query('create table things (id int primary key)');
  await database.query('insert into things values (1)');
});
afterAll(async () => {
  await database.close();
});

test('a statement the server refuses keeps its connection: the next one runs on the same backend', async () => {
  const before = await backend();
  await expect(database.query('insert into things values (1)')).rejects.toMatchObject({ code: '23505' });
  await expect(database.query('select 1 / 0')).rejects.toMatchObject({ code: '22012' });
  await expect(database.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
  // Through drizzle too (a query config object, rows as arrays).
  await expect(database.db.execute(sql`insert into things values (1)`)).rejects.toMatchObject({
    cause: expect.objectContaining({ code: '23505' }),
  });
  expect(await backend()).toBe(before);
  expect(await database.query('select count(*)::int as n from things')).toEqual([{ n: 1 }]);
});

test('statements queued behind a refused one run in order on the kept connection', async () => {
  const before = await backend();
  const results = await Promise.allSettled([
    database.query('insert into things values (1)'),
    database.query('insert into things values (2) returning id'),
    database.query('select 1 / 0'),
    database.query('select max(id)::int as id from things'),
  ]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled']);
  expect((results[3] as PromiseFulfilledResult<unknown>).value).toEqual([{ id: 2 }]);
  expect(await backend()).toBe(before);
});

test('a connection the server ends is not given back: the next statement gets a new one', async () => {
  const before = await backend();
  // The backend ends itself (57P01, admin shutdown), as a restart or a terminated session would.
  await expect(database.query('select pg_terminate_backend(pg_backend_pid())')).rejects.toBeDefined();
  const after = await backend();
  expect(after).not.toBe(before);
  expect(await database.query('select 1 as one')).toEqual([{ one: 1 }]);
});
