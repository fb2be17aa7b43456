export * from './types';
export { MemoryBus } from './memory';
export { KafkaBus } from './kafka';
export * from './handlers';
