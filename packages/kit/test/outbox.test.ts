import { sql } from 'drizzle-orm';
import type { Envelope } from '@earshot/contracts';
import {
  MemoryBus,
  OutboxRelay,
  applyOnce,
  kitMigrations,
  migrate,
  writeOutbox,
  type Database,
  type Db,
  type EventBus,
  type NewEvent,
  type OutgoingEvent,
} from '../src';
import { openTestDatabase } from '../src/testing';

const SCHEMA = 'outbox_test';
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database, SCHEMA, [
    ...kitMigrations,
    { name: '0001_effects', sql: 'create table effects (event_id uuid not null)' },
  ]);
});
afterAll(async () => database.close());

const signedOut = (id: string): NewEvent => ({
  type: 'user.signed_out',
  companyId: 'company-1',
  actor: { type: 'user', id },
  data: { id },
});

/** A real in-memory bus with one consumer group recording what it receives. */
async function listeningBus() {
  const bus = new MemoryBus();
  const received: Envelope[] = [];
  await bus.subscribe({ group: 'recorder', topics: ['earshot.auth'], handle: async (e) => void received.push(e) });
  await bus.start();
  return { bus, received };
}

const pending = async () =>
  Number(
    (
      await database.query<{ n: string | number }>(
        `select count(*) as n from ${SCHEMA}.outbox where published_at is null`,
      )
    )[0]!.n,
  );

test('events written in a transaction that rolls back are never published', async () => {
  const { bus, received } = await listeningBus();
  await expect(
    database.db.transaction(async (tx) => {
      await writeOutbox(tx as unknown as Db, SCHEMA, [signedOut('rolled-back')]);
      throw new Error('the state change failed');
    }),
  ).rejects.toThrow('the state change failed');
  expect(await new OutboxRelay(database, SCHEMA, bus, 50).publishPending()).toBe(0);
  await bus.idle();
  expect(received).toEqual([]);
  await bus.stop();
});

test('committed events are published once each, in commit order, and marked published', async () => {
  const { bus, received } = await listeningBus();
  const written: Envelope[] = [];
  for (const batch of [['a'], ['b', 'c'], ['d']]) {
    written.push(
      ...(await database.db.transaction(async (tx) => writeOutbox(tx as unknown as Db, SCHEMA, batch.map(signedOut)))),
    );
  }
  const relay = new OutboxRelay(database, SCHEMA, bus, 50);
  expect(await relay.publishPending()).toBe(4);
  expect(await relay.publishPending()).toBe(0);
  await bus.idle();
  expect(received.map((e) => e.data.id)).toEqual(['a', 'b', 'c', 'd']);
  expect(received).toEqual(written);
  expect(await pending()).toBe(0);
  await bus.stop();
});

test('a relay that crashes between publishing and marking republishes; the consumer applies the event once', async () => {
  const bus = new MemoryBus();
  const deliveries: string[] = [];
  await bus.subscribe({
    group: 'projector',
    topics: ['earshot.auth'],
    handle: async (e) => {
      deliveries.push(e.id);
      await applyOnce(database.db, SCHEMA, 'projector', [e], async (tx) => {
        await tx.execute(sql`insert into outbox_test.effects (event_id) values (${e.id})`);
      });
    },
  });
  await bus.start();
  // The relay's process dies right after the broker accepted the events, before it marked them.
  const crashing: EventBus = {
    kind: 'memory',
    publish: async (events: readonly OutgoingEvent[]) => {
      await bus.publish(events);
      throw new Error('relay process died');
    },
    subscribe: (s) => bus.subscribe(s),
    start: () => bus.start(),
    stop: () => bus.stop(),
  };
  const [event] = await database.db.transaction(async (tx) =>
    writeOutbox(tx as unknown as Db, SCHEMA, [signedOut('crash')]),
  );
  await expect(new OutboxRelay(database, SCHEMA, crashing, 50).publishPending()).rejects.toThrow('relay process died');
  expect(await pending()).toBe(1);

  // The next relay (after the restart) publishes it again.
  expect(await new OutboxRelay(database, SCHEMA, bus, 50).publishPending()).toBe(1);
  await bus.idle();
  expect(deliveries).toEqual([event!.id, event!.id]);
  const effects = await database.query<{ event_id: string }>('select event_id from outbox_test.effects');
  expect(effects.map((r) => r.event_id)).toEqual([event!.id]);
  expect(await pending()).toBe(0);
  await bus.stop();
});

test('a handler that fails inside applyOnce leaves no ledger row, so the retry applies it', async () => {
  const [event] = await database.db.transaction(async (tx) =>
    writeOutbox(tx as unknown as Db, SCHEMA, [signedOut('retry')]),
  );
  const effect = (fail: boolean) => async (tx: Db) => {
    await tx.execute(sql`insert into outbox_test.effects (event_id) values (${event!.id})`);
    if (fail) throw new Error('handler failed');
  };
  await expect(applyOnce(database.db, SCHEMA, 'retrier', [event!], effect(true))).rejects.toThrow('handler failed');
  expect(await applyOnce(database.db, SCHEMA, 'retrier', [event!], effect(false))).toEqual([event]);
  expect(await applyOnce(database.db, SCHEMA, 'retrier', [event!], effect(false))).toEqual([]);
  const rows = await database.query('select 1 from outbox_test.effects where event_id = $1', [event!.id]);
  expect(rows).toHaveLength(1);
});

test('applyOnce over a batch hands the handler only the events not applied before, once each, in order', async () => {
  const events = await database.db.transaction(async (tx) =>
    writeOutbox(
      tx as unknown as Db,
      SCHEMA,
      ['b1', 'b2', 'b3', 'b4'].map((id) => signedOut(id)),
    ),
  );
  const [one, two, three, four] = events as [Envelope, Envelope, Envelope, Envelope];
  const record = async (tx: Db, fresh: Envelope[]) => {
    for (const e of fresh) await tx.execute(sql`insert into outbox_test.effects (event_id) values (${e.id})`);
  };
  expect(await applyOnce(database.db, SCHEMA, 'batcher', [two], record)).toEqual([two]);
  // A redelivered event and a duplicate inside the batch are each applied once.
  const seen: string[] = [];
  const fresh = await applyOnce(database.db, SCHEMA, 'batcher', [one, two, three, one, four], async (tx, list) => {
    seen.push(...list.map((e) => e.id));
    await record(tx, list);
  });
  expect(fresh.map((e) => e.id)).toEqual([one.id, three.id, four.id]);
  expect(seen).toEqual([one.id, three.id, four.id]);
  let called = false;
  expect(
    await applyOnce(database.db, SCHEMA, 'batcher', [four, one], async () => {
      called = true;
    }),
  ).toEqual([]);
  expect(called).toBe(false);
  const rows = await database.query<{ n: number }>(
    'select count(*)::int as n from outbox_test.effects where event_id = any($1::uuid[])',
    [events.map((e) => e.id)],
  );
  expect(rows[0]!.n).toBe(4);
});

test('an event whose data does not match its catalogue schema is refused before it is written', async () => {
  await expect(
    database.db.transaction(async (tx) =>
      writeOutbox(tx as unknown as Db, SCHEMA, [
        { type: 'user.signed_out', companyId: null, actor: { type: 'system', id: null }, data: { id: 42 } },
      ]),
    ),
  ).rejects.toThrow();
  await expect(
    database.db.transaction(async (tx) =>
      writeOutbox(tx as unknown as Db, SCHEMA, [
        { type: 'user.never_happened', companyId: null, actor: { type: 'system', id: null }, data: {} },
      ]),
    ),
  ).rejects.toThrow(/Unknown event type/);
});

test('two relays on one schema publish in seq order: the second waits while the first publishes', async () => {
  await database.query(`update ${SCHEMA}.outbox set published_at = now() where published_at is null`);
  for (let i = 0; i < 250; i++) {
    await database.db.transaction(async (tx) => writeOutbox(tx as unknown as Db, SCHEMA, [signedOut(`order-${i}`)]));
  }
  const published: string[] = [];
  let firstCall = true;
  let secondCall = () => undefined as void;
  const secondArrived = new Promise<void>((resolve) => (secondCall = resolve));
  /**
   * Holds the first batch until the other relay either published too (the old SKIP LOCKED relay:
   * its later batch would land first) or is waiting for the schema's lock (on PGlite, one
   * connection, transactions never overlap: the other relay simply runs after this one).
   */
  const otherRelayBlocked = async () => {
    if (database.kind === 'pglite') return;
    for (;;) {
      const [row] = await database.query<{ waiting: boolean }>(
        "select exists(select 1 from pg_locks where locktype = 'advisory' and not granted) as waiting",
      );
      if (row!.waiting) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const recording: EventBus = {
    kind: 'memory',
    publish: async (events) => {
      if (firstCall) {
        firstCall = false;
        await Promise.race([secondArrived, otherRelayBlocked()]);
      } else {
        secondCall();
      }
      published.push(...events.map((e) => String(e.envelope.data.id)));
    },
    subscribe: async () => undefined,
    start: async () => undefined,
    stop: async () => undefined,
  };
  const [a, b] = await Promise.all([
    new OutboxRelay(database, SCHEMA, recording, 50).publishPending(),
    new OutboxRelay(database, SCHEMA, recording, 50).publishPending(),
  ]);
  expect(a + b).toBe(250);
  expect(published).toEqual(Array.from({ length: 250 }, (_, i) => `order-${i}`));
  expect(await pending()).toBe(0);
});

test('published rows older than the kept time are pruned; recent and unpublished rows stay', async () => {
  const { bus } = await listeningBus();
  const relay = new OutboxRelay(database, SCHEMA, bus, 50);
  await relay.publishPending();
  await database.query(`delete from ${SCHEMA}.outbox`);
  const [old, recent, waiting] = await database.db.transaction(async (tx) =>
    writeOutbox(tx as unknown as Db, SCHEMA, ['old', 'recent', 'waiting'].map(signedOut)),
  );
  // Backdated in SQL: 'old' went out two hours ago, 'recent' a minute ago, 'waiting' never.
  await database.query(`update ${SCHEMA}.outbox set published_at = now() - interval '2 hours' where id = $1`, [
    old!.id,
  ]);
  await database.query(`update ${SCHEMA}.outbox set published_at = now() - interval '1 minute' where id = $1`, [
    recent!.id,
  ]);
  expect(await relay.prunePublished(OutboxRelay.PUBLISHED_KEPT_MS)).toBe(1);
  const left = await database.query<{ id: string }>(`select id from ${SCHEMA}.outbox order by seq`);
  expect(left.map((row) => row.id)).toEqual([recent!.id, waiting!.id]);
  await bus.stop();
});
