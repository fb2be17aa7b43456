// One member of a consumer group in a process of its own, for kafka-group.postgres.test.ts to kill
// with SIGKILL (no goodbye to the group). It applies events through the kit's EventConsumer into
// `effects` as member 'child', prints "ready" once it has joined, and once it has applied an event
// whose id ends in ":hold" it prints "holding" and never returns: applied, offset not committed.
import { sql } from 'drizzle-orm';
import { EventConsumer, on, openDatabase } from '../src';
import { consumerContext, testKafkaBus } from './kafka-support';

const [MEMBER_DB_URL, MEMBER_TOPIC, MEMBER_GROUP, MEMBER_SCHEMA] = [
  'MEMBER_DB_URL',
  'MEMBER_TOPIC',
  'MEMBER_GROUP',
  'MEMBER_SCHEMA',
].map((key) => process.env[key] ?? '') as [string, string, string, string];
const database = await openDatabase({ url: MEMBER_DB_URL, poolSize: 2 });
const consumer = new EventConsumer(
  consumerContext(database, MEMBER_SCHEMA),
  MEMBER_GROUP,
  [
    {
      ...on(
        'user.signed_out',
        async (e, tx) =>
          void (await tx.execute(
            sql`insert into ${sql.identifier(MEMBER_SCHEMA)}.effects (event_id, member, label) values (${e.id}, 'child', ${e.data.id})`,
          )),
      ),
      topics: [MEMBER_TOPIC],
    },
  ],
  5,
);
const subscription = consumer.subscription();
const bus = testKafkaBus();
await bus.subscribe({
  ...subscription,
  handleBatch: async (envelopes) => {
    await subscription.handleBatch!(envelopes);
    if (envelopes.some((e) => String(e.data.id).endsWith(':hold'))) {
      process.stdout.write('holding\n');
      await new Promise(() => undefined);
    }
  },
});
await bus.start();
process.stdout.write('ready\n');
