import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { eventDefinition, type Envelope, type EventOf } from '@earshot/contracts';
import { buildEnvelope, defineService, on, onBatch } from '../src';
import { createTestStack, type TestStack } from '../src/testing';

// A service whose handlers the tests steer: one that fails while `broken` holds, one projection
// keyed by entity (stale events skipped), one that records the typed, upcast data it receives, and
// one that takes batches (it fails while `broken` holds one of its events' conversations).
let broken = new Set<string>();
/** In order: what the single-event and the batch handlers were called with. */
const calls: string[] = [];
const completed: EventOf<'transcript.completed'>[] = [];
const signedOut: string[] = [];
const listener = defineService({
  name: 'listener',
  schema: 'listener_test',
  prefixes: [],
  migrations: [
    {
      name: '0001_effects',
      sql: 'create table effects (user_id text not null, event_id uuid not null); create table companies (id text primary key, name text not null)',
    },
  ],
  async routes() {},
  subscriptions: () => [
    on('user.signed_out', async (event, tx) => {
      if (broken.has(event.data.id)) throw new Error(`cannot handle ${event.data.id} yet`);
      await tx.execute(
        sql`insert into listener_test.effects (user_id, event_id) values (${event.data.id}, ${event.id})`,
      );
      signedOut.push(event.data.id);
      calls.push(`signed_out ${event.data.id}`);
    }),
    onBatch('chat_reply.finished', async (events, tx) => {
      if (events.some((e) => broken.has(e.data.conversationId))) throw new Error('cannot handle this batch yet');
      for (const e of events)
        await tx.execute(
          sql`insert into listener_test.effects (user_id, event_id) values (${e.data.conversationId}, ${e.id})`,
        );
      calls.push(`replies ${events.map((e) => e.data.conversationId).join(',')}`);
    }),
    on(
      'company.updated',
      async ({ data }, tx) => {
        await tx.execute(sql`insert into listener_test.companies (id, name) values (${data.id}, ${data.after!.name})
        on conflict (id) do update set name = excluded.name`);
      },
      { entity: (event) => event.data.id },
    ),
    on('transcript.completed', async (event) => void completed.push(event)),
  ],
});

let stack: TestStack;
beforeAll(async () => {
  stack = await createTestStack([listener], { EVENT_MAX_ATTEMPTS: '3' });
});
afterAll(async () => stack.close());

async function deliver(...envelopes: Envelope[]) {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: eventDefinition(envelope.type).topic,
      key: envelope.companyId ?? 'platform',
      envelope,
    })),
  );
  await stack.settle();
}
const actor = { type: 'system' as const, id: null };
const signOut = (id: string) => buildEnvelope({ type: 'user.signed_out', companyId: null, actor, data: { id } });
const consumer = () => stack.running.consumers.get('listener')!;

test('a handler receives an older version upcast to the current one, its data parsed and typed', async () => {
  const v1 = {
    id: randomUUID(),
    type: 'transcript.completed',
    version: 1,
    occurredAt: new Date().toISOString(),
    companyId: null,
    actor,
    data: { id: 't-1', fileId: 'f-1', engine: 'test', duration: 12.5, speakers: 2, words: 40 },
  };
  await deliver(v1);
  expect(completed).toHaveLength(1);
  expect(completed[0]!.version).toBe(3);
  expect(completed[0]!.data).toEqual({
    id: 't-1',
    fileId: 'f-1',
    engine: 'test',
    duration: 12.5,
    speakers: 2,
    words: 40,
    fileName: '',
    segments: [],
    parts: 0,
  });
});

test('a handler that keeps failing parks its event after EVENT_MAX_ATTEMPTS; later events flow; replay applies it once', async () => {
  const [stuck, next] = [randomUUID(), randomUUID()];
  broken = new Set([stuck]);
  const first = signOut(stuck);
  await deliver(first, signOut(next));
  // The stream was not blocked: the later event was applied.
  expect(signedOut).toContain(next);
  expect(signedOut).not.toContain(stuck);
  const parked = await consumer().parked();
  expect(parked).toEqual([
    expect.objectContaining({
      consumer: 'listener',
      eventId: first.id,
      type: 'user.signed_out',
      attempts: 3,
      error: `cannot handle ${stuck} yet`,
    }),
  ]);

  // Still broken: replay leaves it parked with the new error.
  expect((await consumer().replay(first.id)).failed).toHaveLength(1);
  broken = new Set();
  expect(await consumer().replay()).toEqual({ replayed: [first.id], failed: [] });
  expect(await consumer().parked()).toEqual([]);
  // Applied exactly once, even when the bus redelivers it afterwards.
  await deliver(first);
  const rows = await stack.database.query('select event_id from listener_test.effects where user_id = $1', [stuck]);
  expect(rows).toHaveLength(1);
});

test('an event of a version this build cannot read is parked at once (retrying cannot help)', async () => {
  const future = { ...signOut(randomUUID()), version: 99 };
  await deliver(future);
  expect((await consumer().parked()).map((p) => [p.eventId, p.attempts])).toEqual([[future.id, 1]]);
  expect((await consumer().replay(future.id)).failed[0]!.error).toMatch(/newer than this build knows/);
});

test('a projection ignores an event older than the one it applied for the same entity', async () => {
  const id = randomUUID();
  const state = (name: string) => ({
    name,
    code: 'c',
    domain: 'd',
    status: 'active',
    maxUsers: null,
    maxStorage: null,
  });
  const updated = (name: string, at: string) => ({
    ...buildEnvelope({ type: 'company.updated', companyId: id, actor, data: { id, before: null, after: state(name) } }),
    occurredAt: at,
  });
  await deliver(updated('Newer', '2026-01-01T10:00:01.000Z'), updated('Older', '2026-01-01T10:00:00.000Z'));
  expect(await stack.database.query('select name from listener_test.companies where id = $1', [id])).toEqual([
    { name: 'Newer' },
  ]);
  await deliver(updated('Newest', '2026-01-01T10:00:02.000Z'));
  expect(await stack.database.query('select name from listener_test.companies where id = $1', [id])).toEqual([
    { name: 'Newest' },
  ]);
});

const reply = (conversationId: string) =>
  buildEnvelope({
    type: 'chat_reply.finished',
    companyId: null,
    actor,
    data: {
      conversationId,
      messageId: randomUUID(),
      model: 'm',
      providerId: null,
      builtIn: false,
      status: 'complete',
      usage: null,
    },
  });
const effectsOf = async (ids: string[]) =>
  (
    await stack.database.query<{ user_id: string }>(
      'select user_id from listener_test.effects where user_id = any($1::text[]) order by user_id',
      [ids],
    )
  ).map((r) => r.user_id);

describe('batch handlers', () => {
  beforeEach(() => {
    calls.length = 0;
    broken = new Set();
  });

  test('events that arrive together go to the batch handler in one call, in order; redelivered ones are left out', async () => {
    const replies = ['b-1', 'b-2', 'b-3', 'b-4'].map(reply);
    await deliver(...replies);
    expect(calls).toEqual(['replies b-1,b-2,b-3,b-4']);
    calls.length = 0;
    await deliver(replies[1]!, reply('b-5'), replies[3]!);
    expect(calls).toEqual(['replies b-5']);
    expect(await effectsOf(['b-1', 'b-2', 'b-3', 'b-4', 'b-5'])).toEqual(['b-1', 'b-2', 'b-3', 'b-4', 'b-5']);
  });

  test('an event with a single-event handler splits the batch, so the order of effects holds', async () => {
    await deliver(reply('o-1'), signOut('o-user'), reply('o-2'), reply('o-3'));
    expect(calls).toEqual(['replies o-1', 'signed_out o-user', 'replies o-2,o-3']);
  });

  test('a batch that fails is applied one event at a time: the others are applied, the failing one is retried and parked', async () => {
    const stuck = reply('f-2');
    broken = new Set(['f-2']);
    await deliver(reply('f-1'), stuck, reply('f-3'));
    expect(calls).toEqual(['replies f-1', 'replies f-3']);
    expect(await effectsOf(['f-1', 'f-2', 'f-3'])).toEqual(['f-1', 'f-3']);
    expect((await consumer().parked()).find((p) => p.eventId === stuck.id)).toEqual(
      expect.objectContaining({ attempts: 3, error: 'cannot handle this batch yet' }),
    );
    broken = new Set();
    expect(await consumer().replay(stuck.id)).toEqual({ replayed: [stuck.id], failed: [] });
    expect(await effectsOf(['f-1', 'f-2', 'f-3'])).toEqual(['f-1', 'f-2', 'f-3']);
  });
});
