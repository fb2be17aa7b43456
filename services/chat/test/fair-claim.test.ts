import { randomUUID } from 'node:crypto';
import { kitMigrations, migrate, type Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { migrations } from '../src/db/migrations';
import { claimNext } from '../src/repositories/knowledge';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const LEASE_SECONDS = 60;

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database, 'chat', [...kitMigrations, ...migrations]);
}, 60_000);
afterAll(async () => database.close());
beforeEach(async () => {
  await database.query('delete from chat.custom_gpts');
  await database.query('delete from chat.queue_turns');
});

/** A GPT of the company (null: the platform's) with `count` files queued; their ids in order. */
async function queue(companyId: string | null, count: number): Promise<string[]> {
  const gptId = randomUUID();
  await database.query(
    `insert into chat.custom_gpts (id, scope, company_id, name, instructions, visibility, created_by)
     values ($1, $2, $3, 'Helper', 'Answer', 'company', 'someone')`,
    [gptId, companyId ? 'company' : 'platform', companyId],
  );
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    await database.query(
      `insert into chat.knowledge_files (id, custom_gpt_id, company_id, name, format, mime_type, size, storage_key, status, uploaded_by)
       values ($1, $2, $3, 'f.txt', 'text', 'text/plain', 1, $4, 'queued', 'someone')`,
      [id, gptId, companyId, `knowledge/${id}`],
    );
    ids.push(id);
  }
  return ids;
}

const take = async (cap: number) =>
  (await database.db.transaction((tx) => claimNext(tx, LEASE_SECONDS, cap)))?.id ?? null;
const finish = (id: string) =>
  database.query(`update chat.knowledge_files set status = 'ready', lease_until = null where id = $1`, [id]);

test("a company's earlier files do not hold back another company's or the platform's: they take turns", async () => {
  const filesOfA = await queue(A, 4);
  const [fileOfB] = await queue(B, 1);
  const [platformFile] = await queue(null, 1);
  const order: string[] = [];
  for (let i = 0; i < 6; i++) {
    const id = (await take(1))!;
    order.push(id);
    await finish(id);
  }
  // One process, one file at a time: B's file and the platform's, queued last, come second and third.
  expect(order).toEqual([filesOfA[0], fileOfB, platformFile, ...filesOfA.slice(1)]);
  expect(await take(1)).toBeNull();
}, 30_000);

test('a company with its cap of files being worked on waits; a file whose lease ran out counts no more', async () => {
  const filesOfA = await queue(A, 3);
  const [fileOfB] = await queue(B, 1);
  expect([await take(1), await take(1)]).toEqual([filesOfA[0], fileOfB]);
  // A's first is still being worked on: with a cap of one, A's next waits.
  expect(await take(1)).toBeNull();
  // Its process died (the lease ran out): the file is taken again, and only it.
  await database.query(`update chat.knowledge_files set lease_until = now() - interval '1 second' where id = $1`, [
    filesOfA[0],
  ]);
  expect(await take(1)).toBe(filesOfA[0]);
  expect(await take(1)).toBeNull();
  await finish(filesOfA[0]!);
  expect(await take(1)).toBe(filesOfA[1]);
}, 30_000);
