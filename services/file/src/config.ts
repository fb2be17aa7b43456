import { z } from 'zod';
import {
  encryptionConfigShape,
  storageConfigShape,
  type BaseConfig,
  type EncryptionConfig,
  type StorageConfig,
} from '@earshot/kit';

export const GIB = 1024 ** 3;

/** Environment keys of the file service: the storage port's plus the upload limit. */
export const fileConfigShape = {
  ...storageConfigShape,
  // Encryption at rest: the master key that wraps the companies' audio data keys.
  ...encryptionConfigShape,
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(64 * GIB)
    .default(GIB),
};

export type FileConfig = BaseConfig & StorageConfig & EncryptionConfig & { MAX_UPLOAD_BYTES: number };
