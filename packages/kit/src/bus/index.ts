export * from './types';
export { MemoryBus } from './memory';
export { KafkaBus, kafkaTopicConfigs, type KafkaTopicCreation, type KafkaBusOptions } from './kafka';
export * from './handlers';
