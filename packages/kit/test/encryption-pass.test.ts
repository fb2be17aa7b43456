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
  // The two companies took turns: both started before the first finished.
  expect(events.map((e) => [e.companyId, (e.data as { state: string }).state])).toEqual([
    ['whole', 'running'],
    ['busy', 'running'],
    ['whole', 'done'],
  ]);
  expect(logged).toEqual([{ fields: { companyId: 'whole', total: 3 }, message: 'existing test data encrypted' }]);
});

test('companies take turns, one step each, so a big one does not hold back a small one; a failing one stops only itself', async () => {
  const { ring, ctx, logged } = fakes(['big', 'small', 'broken']);
  const steps: string[] = [];
  const failure = encryptPendingCompanies(ctx, ring, 'test', 'done', async (companyId) => ({
    total: companyId === 'big' ? 5 : 2,
    run: async (advance) => {
      for (let i = 1; i <= (companyId === 'big' ? 5 : 2); i++) {
        if (companyId === 'broken' && i === 2) throw new Error('storage unavailable');
        // One step at a time in the process: no other company's step runs while this one does.
        steps.push(`${companyId} ${i}`);
        await advance();
      }
    },
  }));
  await expect(failure).rejects.toThrow('storage unavailable');
  expect(steps).toEqual(['big 1', 'small 1', 'broken 1', 'big 2', 'small 2', 'big 3', 'big 4', 'big 5']);
  expect(logged.map((l) => (l.fields as { companyId: string }).companyId)).toEqual(['small', 'big']);
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
