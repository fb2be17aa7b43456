import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { applyOnce, type ConsumerContext, type Database } from '../src';
import { KafkaBus, type KafkaBusOptions } from '../src/bus';

/**
 * The Kafka suites' broker: KAFKA_BROKERS, which jest's global setup (scripts/jest/kafka-setup.ts)
 * sets to a mock cluster it starts, and which makes the run fail where CI expects Kafka and kcat
 * cannot start. Without it (no kcat on a developer's machine) the Kafka suites are skipped.
 */
export const kafkaBrokers = process.env.KAFKA_BROKERS?.split(',');
export const describeKafka = (name: string, body: () => void) => (kafkaBrokers ? describe : describe.skip)(name, body);

/** Topics and groups outlive a test on the shared cluster: every test names its own. */
export const unique = (what: string) => `test.${what}.${randomUUID().slice(0, 8)}`;

/**
 * Group timings low enough that a rebalance takes seconds: the mock cluster waits a session
 * timeout (less a second) for members to rejoin, declares a silent member dead after one, and
 * answers a fetch only once its wait is over, even when messages arrived meanwhile.
 */
export const FAST_GROUP = {
  sessionTimeout: 6_000,
  rebalanceTimeout: 3_000,
  heartbeatInterval: 500,
  maxWaitTimeInMs: 100,
} as const;

/** A bus on the suite's broker whose topics the broker creates on first use (the mock refuses createTopics). */
export function testKafkaBus(options: Partial<KafkaBusOptions> = {}): KafkaBus {
  if (!kafkaBrokers) throw new Error('KAFKA_BROKERS is not set');
  return new KafkaBus({
    brokers: kafkaBrokers,
    clientId: unique('client'),
    fromBeginning: true,
    partitions: 4,
    replicationFactor: 1,
    topics: [],
    topicCreation: 'broker',
    group: FAST_GROUP,
    ...options,
  });
}

/** What an EventConsumer needs of its service, on `schema` of `database` (the tests' handlers emit nothing). */
export function consumerContext(database: Database, schema: string): ConsumerContext {
  return {
    schema,
    db: database.db,
    logger: pino({ level: 'silent' }),
    applyOnce: (consumer, envelopes, fn) =>
      applyOnce(database.db, schema, consumer, envelopes, (tx, fresh) => fn(tx, () => undefined, fresh)).then(
        () => undefined,
      ),
  };
}
