import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import {
  EventConsumer,
  buildEnvelope,
  defineService,
  kitMigrations,
  migrate,
  on,
  type Database,
  type EventBus,
} from '@earshot/kit';
import { openTestDatabase } from '@earshot/kit/testing';
import { consumerContext, describeKafka, testKafkaBus, unique } from '../packages/kit/test/kafka-support';
import { runEventsCommand } from './events';

// A poison event on Kafka: its handler fails EVENT_MAX_ATTEMPTS times, the event is parked and the
// stream moves on; once the cause is fixed, `npm run events -- replay` applies it, once.
const MAX_ATTEMPTS = 2;
const applied: string[] = [];
let broken = true;
const service = defineService({
  name: 'ops',
  schema: 'ops_kafka_test',
  prefixes: [],
  migrations: [],
  async routes() {},
  subscriptions: () => [
    on('user.signed_out', async (event) => {
      if (broken && event.data.id.endsWith(':poison')) throw new Error('the mail server rejects this address');
      applied.push(event.data.id);
    }),
  ],
});

let database: Database;
let dataDir: string;
let bus: EventBus | undefined;
beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'earshot-events-kafka-'));
  await migrate(database, service.schema, kitMigrations);
});
afterAll(async () => {
  await bus?.stop();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describeKafka('a poison event on Kafka', () => {
  test('is parked after EVENT_MAX_ATTEMPTS, the stream moves on, and `events replay` applies it once fixed', async () => {
    const topic = unique('ops');
    const company = unique('company');
    const consumer = new EventConsumer(
      consumerContext(database, service.schema),
      service.name,
      service.subscriptions!({} as never).map((spec) => ({ ...spec, topics: [topic] })),
      MAX_ATTEMPTS,
    );
    bus = testKafkaBus();
    await bus.subscribe({ ...consumer.subscription(), group: unique('ops') });
    await bus.start();
    const sent = ['before', 'poison', 'after'].map((label) =>
      buildEnvelope({
        type: 'user.signed_out',
        companyId: company,
        actor: { type: 'system', id: null },
        data: { id: `${company}:${label}` },
      }),
    );
    await bus.publish(sent.map((envelope) => ({ topic, key: company, envelope })));
    while (applied.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(applied).toEqual([`${company}:before`, `${company}:after`]);
    const parked = await consumer.parked();
    expect(parked).toEqual([
      expect.objectContaining({
        eventId: sent[1]!.id,
        attempts: MAX_ATTEMPTS,
        error: 'the mail server rejects this address',
      }),
    ]);

    broken = false;
    const lines: string[] = [];
    const code = await runEventsCommand(['replay', '--all', '--service', 'ops'], {
      database,
      modules: [service],
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      print: (l) => void lines.push(l),
    });
    expect(code).toBe(0);
    expect(lines).toEqual([`replayed ${sent[1]!.id} (ops)`]);
    expect(applied).toEqual([`${company}:before`, `${company}:after`, `${company}:poison`]);
    expect(await consumer.parked()).toEqual([]);
    const rows = (await database.db.execute(
      sql`select count(*)::int as n from ops_kafka_test.applied_events where consumer = 'ops'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]!.n).toBe(3);
  }, 60_000);
});
