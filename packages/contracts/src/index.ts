export * from './constants';
export * from './errors';
export * from './common';
export * from './events';
export * from './api';
export * from './services';
export * from './speech-models';
