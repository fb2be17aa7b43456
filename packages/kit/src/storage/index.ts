export * from './types';
export { LocalDiskStorage } from './local';
export { S3Storage, type S3StorageOptions } from './s3';
export { storageConfigShape, createStorage, type StorageConfig } from './config';
export { EncryptingStorage, type CompanyKeys } from './encrypting';
export { parseRange, type RangeResult } from './range';
