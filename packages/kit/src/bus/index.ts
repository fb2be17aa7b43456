export * from './types';
export { MemoryBus } from './memory';
export { KafkaBus, kafkaTopicConfigs } from './kafka';
export * from './handlers';
