import { z } from 'zod';
import { creditGateConfigShape, storageConfigShape, type BaseConfig, type CreditGateConfig, type StorageConfig } from '@earshot/kit';

export const GIB = 1024 ** 3;

/** Environment keys of the file service: the storage port's plus the upload limit. */
export const fileConfigShape = {
  ...storageConfigShape,
  /** Where to ask whether an upload may be transcribed, when the tenant service runs in another process. */
  ...creditGateConfigShape,
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).max(64 * GIB).default(GIB),
};

export type FileConfig = BaseConfig & StorageConfig & CreditGateConfig & { MAX_UPLOAD_BYTES: number };
