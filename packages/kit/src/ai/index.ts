export * from './outbound';
export * from './provider-client';
