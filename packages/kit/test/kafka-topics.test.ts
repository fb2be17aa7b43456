import { TOPICS } from '@earshot/contracts';
import { BaseConfigSchema, ConfigError, kafkaGroupTimings, kafkaTopicConfigs, loadConfig } from '../src';

// What the bus asks Kafka to create at start, checked as data (kafka-delivery.test.ts asks a broker).
test('every catalogue topic is created with the configured partitions and replication', () => {
  const config = loadConfig(BaseConfigSchema, {
    KAFKA_BROKERS: '127.0.0.1:9092',
    KAFKA_PARTITIONS: '12',
    KAFKA_REPLICATION_FACTOR: '3',
  });
  const topics = kafkaTopicConfigs(TOPICS, {
    partitions: config.KAFKA_PARTITIONS,
    replicationFactor: config.KAFKA_REPLICATION_FACTOR,
  });
  expect(topics.map((t) => t.topic)).toEqual([...TOPICS].sort());
  expect(topics.map((t) => t.topic)).toEqual(
    expect.arrayContaining([
      'earshot.auth',
      'earshot.tenant',
      'earshot.file',
      'earshot.transcription',
      'earshot.chat',
      'earshot.prompt',
    ]),
  );
  for (const t of topics) expect(t).toMatchObject({ numPartitions: 12, replicationFactor: 3 });
});

test('a topic named twice is created once', () => {
  expect(kafkaTopicConfigs(['b', 'a', 'b'], { partitions: 1, replicationFactor: 1 }).map((t) => t.topic)).toEqual([
    'a',
    'b',
  ]);
});

test('partitions, replication and attempts default sensibly and refuse nonsense', () => {
  expect(loadConfig(BaseConfigSchema, {})).toMatchObject({
    KAFKA_PARTITIONS: 6,
    KAFKA_REPLICATION_FACTOR: 1,
    KAFKA_TOPIC_CREATION: 'create',
    EVENT_MAX_ATTEMPTS: 5,
  });
  expect(loadConfig(BaseConfigSchema, { KAFKA_TOPIC_CREATION: 'broker' }).KAFKA_TOPIC_CREATION).toBe('broker');
  expect(() => loadConfig(BaseConfigSchema, { KAFKA_TOPIC_CREATION: 'auto' })).toThrow(/KAFKA_TOPIC_CREATION/);
  expect(() => loadConfig(BaseConfigSchema, { KAFKA_PARTITIONS: '0' })).toThrow(ConfigError);
  expect(() => loadConfig(BaseConfigSchema, { KAFKA_REPLICATION_FACTOR: 'three' })).toThrow(/KAFKA_REPLICATION_FACTOR/);
  expect(() => loadConfig(BaseConfigSchema, { EVENT_MAX_ATTEMPTS: '0' })).toThrow(/EVENT_MAX_ATTEMPTS/);
});

test("consumer group timings are kafkajs's unless set, and heartbeats too sparse for the session are refused", () => {
  expect(kafkaGroupTimings(loadConfig(BaseConfigSchema, {}))).toEqual({
    sessionTimeout: 30_000,
    heartbeatInterval: 3_000,
    maxWaitTimeInMs: 5_000,
  });
  expect(
    kafkaGroupTimings(
      loadConfig(BaseConfigSchema, {
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        KAFKA_HEARTBEAT_INTERVAL_MS: '500',
        KAFKA_MAX_WAIT_MS: '100',
      }),
    ),
  ).toEqual({ sessionTimeout: 6_000, heartbeatInterval: 500, maxWaitTimeInMs: 100 });
  // Below the broker's floor for a session, and a heartbeat that lets the session lapse.
  expect(() => loadConfig(BaseConfigSchema, { KAFKA_SESSION_TIMEOUT_MS: '1000' })).toThrow(/KAFKA_SESSION_TIMEOUT_MS/);
  expect(() => loadConfig(BaseConfigSchema, { KAFKA_MAX_WAIT_MS: 'soon' })).toThrow(/KAFKA_MAX_WAIT_MS/);
  expect(() =>
    kafkaGroupTimings(
      loadConfig(BaseConfigSchema, { KAFKA_SESSION_TIMEOUT_MS: '6000', KAFKA_HEARTBEAT_INTERVAL_MS: '3000' }),
    ),
  ).toThrow(/KAFKA_HEARTBEAT_INTERVAL_MS/);
});
