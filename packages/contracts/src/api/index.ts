export * from './auth';
export * from './tenant';
export * from './file';
export * from './transcription';
export * from './chat';
export * from './prompt';
export * from './prompts';
export * from './audit';
