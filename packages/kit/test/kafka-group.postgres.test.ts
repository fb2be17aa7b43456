import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Envelope } from '@earshot/contracts';
import { EventConsumer, buildEnvelope, kitMigrations, migrate, on, type Database, type EventBus } from '../src';
import { openThrowawayDatabase } from '../src/testing';
import { consumerContext, describeKafka, testKafkaBus, unique } from './kafka-support';

// Two replicas of one service in one consumer group on Kafka: they share the topic's partitions;
// one is killed with SIGKILL (no goodbye: the group learns of it only when its session times out)
// while it holds events it applied but whose offsets it never committed. The other takes over its
// partitions, gets those events again, and the record of applied events keeps them applied once.
const SCHEMA = 'kafka_group';
let url: string;
let database: Database;
let child: ChildProcess | undefined;
let bus: EventBus | undefined;

beforeAll(async () => {
  // Its own database on the server, so that the child process can open it by URL.
  database = await openThrowawayDatabase(process.env.DATABASE_URL!, 'earshot_kafka_group', 4);
  const [{ name }] = (await database.query<{ name: string }>('select current_database() as name')) as [
    { name: string },
  ];
  const target = new URL(process.env.DATABASE_URL!);
  target.pathname = `/${name}`;
  url = target.toString();
  await migrate(database, SCHEMA, [
    ...kitMigrations,
    {
      name: '0001_effects',
      sql: 'create table effects (seq bigserial primary key, event_id uuid not null, member text not null, label text not null)',
    },
  ]);
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await bus?.stop();
  await database?.close();
});

const event = (company: string, label: string): Envelope =>
  buildEnvelope({
    type: 'user.signed_out',
    companyId: company,
    actor: { type: 'system', id: null },
    data: { id: label },
  });

async function effects() {
  const result = (await database.db.execute(
    sql`select event_id, member, label from kafka_group.effects order by seq`,
  )) as unknown as { rows: { event_id: string; member: string; label: string }[] };
  return result.rows;
}

/** Polls `check` until it holds (the test's limit bounds the wait). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves when the child prints `line`. */
const printed = (process: ChildProcess, line: string) =>
  new Promise<void>((resolve, reject) => {
    let output = '';
    process.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.split('\n').includes(line)) resolve();
    });
    process.once('exit', (code) => reject(new Error(`the member exited (${code}) before printing "${line}"`)));
  });

describeKafka('two members of one group on Kafka', () => {
  test('share the partitions; when one is killed without a goodbye the other takes over, nothing lost or applied twice', async () => {
    const topic = unique('group');
    const group = unique('service');
    const companies = Array.from({ length: 16 }, () => unique('company'));
    const delivered = new Set<string>();

    const consumer = new EventConsumer(
      consumerContext(database, SCHEMA),
      group,
      [
        {
          ...on(
            'user.signed_out',
            async (e, tx) =>
              void (await tx.execute(
                sql`insert into kafka_group.effects (event_id, member, label) values (${e.id}, 'parent', ${e.data.id})`,
              )),
          ),
          topics: [topic],
        },
      ],
      5,
    );
    const subscription = consumer.subscription();
    bus = testKafkaBus();
    await bus.subscribe({
      ...subscription,
      handleBatch: async (envelopes) => {
        envelopes.forEach((e) => delivered.add(e.id));
        await subscription.handleBatch!(envelopes);
      },
    });
    child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./kafka-member.ts', import.meta.url))], {
      env: { ...process.env, MEMBER_DB_URL: url, MEMBER_TOPIC: topic, MEMBER_GROUP: group, MEMBER_SCHEMA: SCHEMA },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const holding = printed(child, 'holding');
    holding.catch(() => undefined);
    await Promise.all([bus.start(), printed(child, 'ready')]);

    // Both members hold partitions once the group has settled: rounds of events, one per company,
    // until each member has applied some (the mock cluster cannot describe groups).
    const first: Envelope[] = [];
    const shared = await until(
      async () => {
        const round = companies.map((company, i) => event(company, `first:${first.length}:${i}`));
        first.push(...round);
        await bus!.publish(round.map((envelope) => ({ topic, key: envelope.companyId!, envelope })));
        return until(effects, (rows) => rows.length >= first.length);
      },
      (rows) => new Set(rows.map((r) => r.member)).size === 2,
    );
    expect(shared).toHaveLength(first.length);

    // The child applies its first batch of these, commits no offset, and is killed.
    const second = companies.map((company, i) => event(company, `second:${i}:hold`));
    await bus.publish(second.map((envelope) => ({ topic, key: envelope.companyId!, envelope })));
    await holding;
    const heldByChild = (await effects()).filter((r) => r.member === 'child' && r.label.startsWith('second:'));
    child.kill('SIGKILL');

    const rows = await until(effects, (all) => all.length >= first.length + second.length);
    const sent = [...first, ...second].map((e) => e.id).sort();
    expect(rows.map((r) => r.event_id).sort()).toEqual(sent);
    expect(heldByChild.length).toBeGreaterThan(0);
    // What the child applied but never committed comes to the parent again (awaited: a partition
    // whose events the child had all applied adds no row, so the rows above can be complete first),
    // and is not applied again.
    await until(
      async () => heldByChild.filter((row) => !delivered.has(row.event_id)),
      (missing) => missing.length === 0,
    );
    expect(
      (await effects()).filter((r) => r.member === 'parent' && heldByChild.some((h) => h.event_id === r.event_id)),
    ).toEqual([]);
  }, 120_000);
});
