import { z } from 'zod';
import { storageConfigShape, type BaseConfig, type StorageConfig } from '@earshot/kit';

export const GIB = 1024 ** 3;

/** Environment keys of the file service: the storage port's plus the upload limit. */
export const fileConfigShape = {
  ...storageConfigShape,
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).max(64 * GIB).default(GIB),
};

export type FileConfig = BaseConfig & StorageConfig & { MAX_UPLOAD_BYTES: number };
