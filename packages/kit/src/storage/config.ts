import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../config';
import { LocalDiskStorage } from './local';
import { S3Storage } from './s3';
import type { ObjectStorage } from './types';

/**
 * Environment keys of the storage port. Add them to the `configShape` of every service that reads
 * or writes objects (file and transcription), so both build the same storage from the same env.
 */
export const storageConfigShape = {
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http(s):// URL')
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a valid bucket name (3-63 lowercase letters, digits, dots, hyphens)',
    )
    .optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_PART_SIZE_BYTES: z.coerce
    .number()
    .int()
    .min(5 * 1024 * 1024)
    .max(512 * 1024 * 1024)
    .default(8 * 1024 * 1024),
};

export type StorageConfig = z.infer<z.ZodObject<typeof storageConfigShape>> & { DATA_DIR: string };

const S3_REQUIRED = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const;

/**
 * The storage the configuration names: local disk under `${DATA_DIR}/objects` (default) or S3.
 * With STORAGE_DRIVER=s3 every S3 key is required: a ConfigError names the missing ones, so the
 * process refuses to start rather than failing on the first upload.
 */
export function createStorage(config: StorageConfig): ObjectStorage {
  if (config.STORAGE_DRIVER === 'local') return new LocalDiskStorage(join(config.DATA_DIR, 'objects'));
  const missing = S3_REQUIRED.filter((key) => !config[key]);
  if (missing.length) throw new ConfigError(missing.map((key) => `${key}: required when STORAGE_DRIVER=s3`));
  return new S3Storage({
    endpoint: config.S3_ENDPOINT!,
    bucket: config.S3_BUCKET!,
    accessKey: config.S3_ACCESS_KEY!,
    secretKey: config.S3_SECRET_KEY!,
    region: config.S3_REGION,
    partSize: config.S3_PART_SIZE_BYTES,
  });
}
