import { sql } from 'drizzle-orm';
import pino from 'pino';
import type { Envelope } from '@earshot/contracts';
import {
  EventConsumer,
  buildEnvelope,
  kitMigrations,
  migrate,
  on,
  type Database,
  type Db,
  type EventBus,
  type HandlerSpec,
} from '../src';
import { openTestDatabase } from '../src/testing';
import { consumerContext, describeKafka, testKafkaBus, unique } from './kafka-support';

// The kit's consumer path (EventConsumer over applied_events) on a real Kafka protocol: kafkajs
// against the run's mock cluster (scripts/jest/kafka-setup.ts), one fresh topic and group per test.
const SCHEMA = 'kafka_delivery';
let database: Database;
const buses: EventBus[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database, SCHEMA, [
    ...kitMigrations,
    {
      name: '0001_effects',
      sql: 'create table effects (seq bigserial primary key, event_id uuid not null, company text not null, n integer not null)',
    },
  ]);
});
afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.stop()));
});
afterAll(async () => database.close());

/** A user.signed_out event of `company` numbered `n` (its data.id is `company:n`). */
const event = (company: string, n: number): Envelope =>
  buildEnvelope({
    type: 'user.signed_out',
    companyId: company,
    actor: { type: 'system', id: null },
    data: { id: `${company}:${n}` },
  });

/** Records each event it applies in `effects`; `before` runs first (to fail on purpose). */
function recorder(topic: string, before: (e: Envelope) => void = () => undefined): HandlerSpec {
  const spec = on('user.signed_out', async (e, tx: Db) => {
    before(e as unknown as Envelope);
    const [company, n] = e.data.id.split(':');
    await tx.execute(
      sql`insert into kafka_delivery.effects (event_id, company, n) values (${e.id}, ${company}, ${Number(n)})`,
    );
  });
  return { ...spec, topics: [topic] };
}

async function effects(companies: readonly string[]) {
  const result = (await database.db.execute(sql`select event_id, company, n from kafka_delivery.effects
    where company in (${sql.join(
      companies.map((c) => sql`${c}`),
      sql`, `,
    )}) order by seq`)) as unknown as { rows: { event_id: string; company: string; n: number }[] };
  return result.rows;
}

/** Waits until `count` effects of `companies` are recorded (the test's limit bounds the wait). */
async function untilApplied(companies: readonly string[], count: number) {
  while ((await effects(companies)).length < count) await new Promise((resolve) => setTimeout(resolve, 100));
  return effects(companies);
}

async function consume(topic: string, handler: HandlerSpec, options: Parameters<typeof testKafkaBus>[0] = {}) {
  const bus = testKafkaBus(options);
  buses.push(bus);
  const consumer = new EventConsumer(consumerContext(database, SCHEMA), unique('group'), [handler], 5);
  await bus.subscribe(consumer.subscription());
  await bus.start();
  return bus;
}

const publish = (bus: EventBus, topic: string, events: readonly Envelope[]) =>
  bus.publish(events.map((envelope) => ({ topic, key: envelope.companyId!, envelope })));

describeKafka('the kit consumer on Kafka', () => {
  test('where the broker refuses to create topics (KAFKA_TOPIC_CREATION=create) the bus says so and relies on auto-creation', async () => {
    const topic = unique('created');
    const company = unique('company');
    const logged: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const bus = await consume(topic, recorder(topic), { topicCreation: 'create', topics: [topic], logger });
    await publish(bus, topic, [event(company, 1)]);
    expect(await untilApplied([company], 1)).toEqual([expect.objectContaining({ company, n: 1 })]);
    expect(logged.map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/refused to create topics .* relying on its auto-creation/),
    );
  }, 60_000);

  test('at least once: a handler failing once gets the event again, and a duplicate publish is applied once', async () => {
    const topic = unique('redelivery');
    const company = unique('company');
    const sent = [1, 2, 3].map((n) => event(company, n));
    const deliveries: string[] = [];
    let failuresLeft = 1;
    const bus = await consume(
      topic,
      recorder(topic, (e) => {
        deliveries.push(e.id);
        if (e.id === sent[1]!.id && failuresLeft-- > 0) throw new Error('database briefly unavailable');
      }),
    );
    // The second publish of the first event stands for a producer retry that wrote it twice.
    await publish(bus, topic, [...sent, sent[0]!]);
    const applied = await untilApplied([company], 3);
    const extraSent = event(company, 4);
    await publish(bus, topic, [extraSent]);
    const after = await untilApplied([company], 4);
    expect(applied.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(after.map((r) => r.event_id)).toEqual([...sent, extraSent].map((e) => e.id));
    expect(deliveries.filter((id) => id === sent[1]!.id)).toHaveLength(2);
  }, 60_000);

  test("each company's events are applied in the order they were published, across partitions", async () => {
    const topic = unique('order');
    const companies = Array.from({ length: 6 }, () => unique('company'));
    const bus = await consume(topic, recorder(topic));
    const sent = Array.from({ length: 60 }, (_, i) =>
      event(companies[i % companies.length]!, Math.floor(i / companies.length)),
    );
    for (let i = 0; i < sent.length; i += 15) await publish(bus, topic, sent.slice(i, i + 15));
    const applied = await untilApplied(companies, sent.length);
    for (const company of companies)
      expect(applied.filter((r) => r.company === company).map((r) => r.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  }, 60_000);
});
