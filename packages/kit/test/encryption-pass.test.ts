import type { Logger } from 'pino';
import type { EncryptionProgress } from '../src/crypto/key-ring';
import { encryptPendingCompanies, sealInBatches, type PassContext, type PassKeyRing } from '../src/crypto/pass';
import type { Db } from '../src/db/database';
import type { NewEvent } from '../src/outbox';

// Every service's background encryption pass runs through these two: the template (which
// companies, progress told and saved, the end logged) must not depend on what a service encrypts.
function fakes(pending: string[]) {
  const saved: { companyId: string; progress: EncryptionProgress }[] = [];
  const events: NewEvent[] = [];
  const logged: { fields: object; message: string }[] = [];
  const db = {} as Db;
  const ring: PassKeyRing = {
    pending: async () => pending,
    saveProgress: async (_db, companyId, progress) => {
      saved.push({ companyId, progress: { ...progress } });
    },
  };
  const ctx: PassContext = {
    db,
    logger: { info: (fields: object, message: string) => logged.push({ fields, message }) } as unknown as Logger,
    transact: (fn) => fn(db, (event) => events.push(event)),
  };
  return { ring, ctx, saved, events, logged };
}

test('each pending company is planned, counted and finished; one without work waits, one that left work stays running', async () => {
  const { ring, ctx, saved, events, logged } = fakes(['no-key', 'whole', 'busy']);
  await encryptPendingCompanies(ctx, ring, 'test', 'existing test data encrypted', async (companyId) => {
    if (companyId === 'no-key') return null;
    return {
      total: 3,
      run: async (advance) => {
        await advance();
        await advance(2);
        return companyId === 'whole';
      },
    };
  });

  expect(saved.filter((s) => s.companyId === 'no-key')).toEqual([]);
  expect(saved.filter((s) => s.companyId === 'whole').at(-1)?.progress).toEqual({ state: 'done', done: 3, total: 3 });
  expect(saved.filter((s) => s.companyId === 'busy').map((s) => s.progress.state)).not.toContain('done');
  expect(events.map((e) => [e.companyId, (e.data as { state: string }).state])).toEqual([
    ['whole', 'running'],
    ['whole', 'done'],
    ['busy', 'running'],
  ]);
  expect(logged).toEqual([{ fields: { companyId: 'whole', total: 3 }, message: 'existing test data encrypted' }]);
});

test('a company with nothing to do is told done without a start', async () => {
  const { ring, ctx, events } = fakes(['empty']);
  await encryptPendingCompanies(ctx, ring, 'test', 'done', async () => ({ total: 0, run: async () => {} }));
  expect(events.map((e) => (e.data as { state: string }).state)).toEqual(['done']);
});

test('batches are taken until one is empty, each sealed and then counted', async () => {
  const plain = [1, 2, 3, 4, 5];
  const order: string[] = [];
  await sealInBatches(
    async () => plain.slice(0, 3),
    async (batch) => {
      order.push(`seal ${batch.join(',')}`);
      plain.splice(0, batch.length);
    },
    async (n) => {
      order.push(`advance ${n}`);
    },
  );
  expect(order).toEqual(['seal 1,2,3', 'advance 3', 'seal 4,5', 'advance 2']);
});
