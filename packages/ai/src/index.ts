export * from './outbound';
export * from './provider-client';
export * from './keys';
export * from './catalogue';
export * from './metrics';
