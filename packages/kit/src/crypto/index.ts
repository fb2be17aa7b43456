export * from './chunked';
export * from './master-key';
export * from './key-ring';
export * from './fields';
export * from './pass';
