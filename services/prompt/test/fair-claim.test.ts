import { randomUUID } from 'node:crypto';
import { kitMigrations, migrate, type Database } from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { migrations } from '../src/db/migrations';
import { claimNext } from '../src/repositories/runs';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database, 'prompt', [...kitMigrations, ...migrations]);
}, 60_000);
afterAll(async () => database.close());
beforeEach(async () => {
  await database.query('delete from prompt.analysis_runs');
  await database.query('delete from prompt.queue_turns');
});

/** `count` pending runs of the company, each on a recording whose text is whole; their ids in order. */
async function queue(companyId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const fileId = randomUUID();
    await database.query(
      `insert into prompt.transcripts (file_id, company_id, parts, parts_received, completed_at) values ($1, $2, 1, '{0}', now())`,
      [fileId, companyId],
    );
    const [run] = await database.query<{ id: string }>(
      `insert into prompt.analysis_runs (company_id, file_id, prompt_id, prompt_version, status)
       values ($1, $2, $3, 1, 'pending') returning id`,
      [companyId, fileId, randomUUID()],
    );
    ids.push(run!.id);
  }
  return ids;
}

const take = async (cap: number) => (await database.db.transaction((tx) => claimNext(tx, cap)))?.id ?? null;
const finish = (id: string) =>
  database.query(`update prompt.analysis_runs set status = 'completed' where id = $1`, [id]);

test("a company's earlier runs do not hold back another company's: companies take turns", async () => {
  const runsOfA = await queue(A, 5);
  const [runOfB] = await queue(B, 1);
  const order: string[] = [];
  for (let i = 0; i < 6; i++) {
    const id = (await take(2))!;
    order.push(id);
    await finish(id);
  }
  // One process taking one run at a time: B's run, queued last, is the second taken, not the sixth.
  expect(order).toEqual([runsOfA[0], runOfB, ...runsOfA.slice(1)]);
  expect(await take(2)).toBeNull();
}, 30_000);

test('a company with its cap of runs running waits; the others are taken meanwhile', async () => {
  const runsOfA = await queue(A, 4);
  const [runOfB] = await queue(B, 1);
  // Nothing finishes: A gets one, B gets its turn, A a second; then A is at its cap of two.
  expect([await take(2), await take(2), await take(2)]).toEqual([runsOfA[0], runOfB, runsOfA[1]]);
  expect(await take(2)).toBeNull();
  await finish(runsOfA[0]!);
  expect(await take(2)).toBe(runsOfA[2]);
}, 30_000);
