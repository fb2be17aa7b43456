export * from './outbound';
export * from './provider-client';
export * from './catalogue';
