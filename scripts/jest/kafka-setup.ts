import { startKafkaMock, type KafkaMock } from '../../packages/kit/src/testing/kafka-mock';

// One librdkafka mock cluster (through kcat) for the whole run, its brokers handed to the test
// workers as KAFKA_BROKERS (workers inherit this process's environment); the Kafka blocks of the
// suites run where it is set. Where CI expects Kafka (EXPECT_KAFKA=true) a missing kcat fails the
// run instead of leaving those blocks out; KAFKA_BROKERS set by hand (a real broker) is used as is.
declare global {
  var earshotKafkaMock: KafkaMock | undefined;
}

export default async function setup(): Promise<void> {
  if (process.env.KAFKA_BROKERS) return;
  try {
    const mock = await startKafkaMock();
    globalThis.earshotKafkaMock = mock;
    process.env.KAFKA_BROKERS = mock.brokers;
  } catch (error) {
    if (process.env.EXPECT_KAFKA === 'true') throw error;
  }
}
