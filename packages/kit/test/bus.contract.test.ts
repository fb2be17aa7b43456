import { randomUUID } from 'node:crypto';
import type { Envelope } from '@earshot/contracts';
import { MemoryBus, type EventBus, type EventHandler } from '../src/bus';
import { kafkaBrokers, testKafkaBus } from './kafka-support';

// One contract, every adapter: the in-memory bus always, Kafka where KAFKA_BROKERS names a broker
// (jest's global setup starts a mock cluster for the run, and fails it where EXPECT_KAFKA=true and
// it cannot; elsewhere the Kafka block is left out).
interface Adapter {
  name: string;
  create(): EventBus;
  /** Joining a Kafka consumer group takes seconds; the memory bus needs none. */
  timeoutMs: number;
}
const adapters: Adapter[] = [{ name: 'memory', create: () => new MemoryBus(), timeoutMs: 5_000 }];
if (kafkaBrokers) adapters.push({ name: 'kafka', create: () => testKafkaBus(), timeoutMs: 60_000 });

/** Unique names per test: Kafka topics and groups outlive a test run. */
const unique = (what: string) => `contract.${what}.${randomUUID().slice(0, 8)}`;

function envelope(companyId: string, n: number): Envelope {
  return {
    id: randomUUID(),
    type: 'user.signed_out',
    version: 1,
    occurredAt: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
    companyId,
    actor: { type: 'user', id: `user-${n}`, email: 'a@b.test', role: 'ADMIN', ip: '127.0.0.1' },
    data: { id: `user-${n}`, nested: { list: [1, 'two', null], flag: true } },
  };
}

/** Collects what a handler receives; `until(n)` resolves once n events have arrived. */
function collector(filter?: (e: Envelope) => boolean) {
  const received: Envelope[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const handle: EventHandler = async (e) => {
    if (filter && !filter(e)) return;
    received.push(e);
    for (const w of waiters.filter((x) => received.length >= x.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const until = (n: number) =>
    received.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
  return { received, handle, until };
}

describe.each(adapters)('$name bus contract', ({ create, timeoutMs }) => {
  let bus: EventBus;
  beforeEach(() => {
    bus = create();
  });
  afterEach(async () => bus.stop(), timeoutMs);

  test(
    'every event published on a topic reaches the group subscribed to it, and only that topic',
    async () => {
      const [topic, other] = [unique('a'), unique('b')];
      const onTopic = collector();
      const onOther = collector();
      await bus.subscribe({ group: unique('g1'), topics: [topic], handle: onTopic.handle });
      await bus.subscribe({ group: unique('g2'), topics: [other], handle: onOther.handle });
      await bus.start();
      const sent = [1, 2, 3, 4, 5].map((n) => envelope('company-1', n));
      await bus.publish(sent.map((e) => ({ topic, key: 'company-1', envelope: e })));
      const marker = envelope('company-1', 99);
      await bus.publish([{ topic: other, key: 'company-1', envelope: marker }]);
      await Promise.all([onTopic.until(5), onOther.until(1)]);
      expect(onTopic.received.map((e) => e.id).sort()).toEqual(sent.map((e) => e.id).sort());
      expect(onOther.received.map((e) => e.id)).toEqual([marker.id]);
    },
    timeoutMs,
  );

  test(
    'two groups on one topic each get every event',
    async () => {
      const topic = unique('fanout');
      const audit = collector();
      const auth = collector();
      await bus.subscribe({ group: unique('audit'), topics: [topic], handle: audit.handle });
      await bus.subscribe({ group: unique('auth'), topics: [topic], handle: auth.handle });
      await bus.start();
      const sent = [1, 2, 3].map((n) => envelope('company-1', n));
      await bus.publish(sent.map((e) => ({ topic, key: 'company-1', envelope: e })));
      await Promise.all([audit.until(3), auth.until(3)]);
      const ids = sent.map((e) => e.id).sort();
      expect(audit.received.map((e) => e.id).sort()).toEqual(ids);
      expect(auth.received.map((e) => e.id).sort()).toEqual(ids);
    },
    timeoutMs,
  );

  test(
    'events with the same key arrive in the order they were published',
    async () => {
      const topic = unique('order');
      const got = collector();
      await bus.subscribe({ group: unique('ordered'), topics: [topic], handle: got.handle });
      await bus.start();
      const sent: Envelope[] = [];
      // Interleaved keys, published one call at a time and in batches.
      for (let n = 0; n < 12; n++) {
        const e = envelope(n % 3 === 0 ? 'company-b' : 'company-a', n);
        sent.push(e);
        if (n % 4 === 3) {
          const batch = sent.slice(n - 3, n + 1);
          await bus.publish(batch.map((b) => ({ topic, key: b.companyId!, envelope: b })));
        }
      }
      await got.until(12);
      for (const key of ['company-a', 'company-b']) {
        const expected = sent.filter((e) => e.companyId === key).map((e) => e.id);
        expect(got.received.filter((e) => e.companyId === key).map((e) => e.id)).toEqual(expected);
      }
    },
    timeoutMs,
  );

  test(
    'a handler that fails is retried until it succeeds, and later events of its key wait for it',
    async () => {
      const topic = unique('retry');
      const first = envelope('company-1', 1);
      const second = envelope('company-1', 2);
      let failuresLeft = 2;
      const attempts: string[] = [];
      const got = collector();
      await bus.subscribe({
        group: unique('flaky'),
        topics: [topic],
        handle: async (e) => {
          attempts.push(e.id);
          if (e.id === first.id && failuresLeft > 0) {
            failuresLeft--;
            throw new Error('temporarily unavailable');
          }
          await got.handle(e);
        },
      });
      await bus.start();
      await bus.publish([first, second].map((e) => ({ topic, key: 'company-1', envelope: e })));
      await got.until(2);
      expect(got.received.map((e) => e.id)).toEqual([first.id, second.id]);
      expect(attempts.filter((id) => id === first.id)).toHaveLength(3);
    },
    timeoutMs,
  );

  test(
    'a subscription that takes batches gets what queued up together, in order, and a failed batch again',
    async () => {
      const topic = unique('batches');
      const sent = Array.from({ length: 8 }, (_, n) => envelope('company-1', n));
      const batches: string[][] = [];
      let failuresLeft = 1;
      const got = collector();
      await bus.subscribe({
        group: unique('batched'),
        topics: [topic],
        handle: async () => {
          throw new Error('a subscription with handleBatch is never handed single events');
        },
        handleBatch: async (list) => {
          batches.push(list.map((e) => e.id));
          if (failuresLeft-- > 0) throw new Error('temporarily unavailable');
          for (const e of list) await got.handle(e);
        },
      });
      // Published before the group starts reading: they are all waiting when it does.
      await bus.publish(sent.map((e) => ({ topic, key: 'company-1', envelope: e })));
      await bus.start();
      await got.until(8);
      expect(got.received.map((e) => e.id)).toEqual(sent.map((e) => e.id));
      expect(batches[0]!.length).toBeGreaterThan(1);
      expect(batches[1]).toEqual(batches[0]);
    },
    timeoutMs,
  );

  test(
    'the envelope arrives intact',
    async () => {
      const topic = unique('intact');
      const got = collector();
      await bus.subscribe({ group: unique('intact'), topics: [topic], handle: got.handle });
      await bus.start();
      const sent = { ...envelope('company-1', 7), companyId: null };
      await bus.publish([{ topic, key: 'platform', envelope: sent }]);
      await got.until(1);
      expect(got.received[0]).toEqual(sent);
    },
    timeoutMs,
  );
  test(
    'the lag counts, per group and topic, the events not handled yet, and falls to zero once they are',
    async () => {
      const [topic, quiet] = [unique('lag'), unique('quiet')];
      const group = unique('behind');
      const got = collector();
      await bus.subscribe({ group, topics: [topic, quiet], handle: got.handle });
      // Published before the group reads: all three wait.
      await bus.publish([1, 2, 3].map((n) => ({ topic, key: 'company-1', envelope: envelope('company-1', n) })));
      const lagOf = async (t: string) => (await bus.lag!()).find((l) => l.group === group && l.topic === t)?.lag;
      expect(await lagOf(topic)).toBe(3);
      await bus.start();
      await got.until(3);
      // Kafka commits the group's offsets after the batch is handled: wait until it has.
      while ((await lagOf(topic)) !== 0) await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await bus.lag!()).filter((l) => l.group === group && l.lag > 0)).toEqual([]);
    },
    timeoutMs,
  );
});
