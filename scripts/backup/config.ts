import { z } from 'zod';
import { BaseConfigSchema, createStorage, loadConfig, storageConfigShape, type S3Storage } from '@earshot/kit';

/**
 * What backup and restore read from the environment: the same variables as the processes they
 * copy (DATA_DIR, DATABASE_URL, the storage's), and where a master key file is, only so that a
 * file placed inside DATA_DIR is never copied. The master key itself is never read.
 */
export const backupConfigSchema = BaseConfigSchema.pick({ DATA_DIR: true, DATABASE_URL: true })
  .extend(storageConfigShape)
  .extend({ ENCRYPTION_MASTER_KEY_FILE: z.string().min(1).optional() });

export type BackupConfig = z.infer<typeof backupConfigSchema>;

export const loadBackupConfig = (env: NodeJS.ProcessEnv) => loadConfig(backupConfigSchema, env);

/** The configured S3 bucket (createStorage names any missing S3_* variable). */
export const bucketOf = (config: BackupConfig) => createStorage(config) as S3Storage;
