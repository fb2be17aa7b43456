export * from './types';
export { LocalDiskStorage, startTempSweep, STALE_TEMP_MS, TEMP_SWEEP_EVERY_MS, type TempSweepOptions } from './local';
export { S3Storage, type S3StorageOptions } from './s3';
export { storageConfigShape, createStorage, type StorageConfig } from './config';
export { EncryptingStorage, type CompanyKeys } from './encrypting';
export { parseRange, type RangeResult } from './range';
