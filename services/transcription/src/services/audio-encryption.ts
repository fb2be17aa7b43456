import {
  ConfigError,
  createStorage,
  EncryptingStorage,
  masterKeysFrom,
  remoteCompanyKeys,
  sharedAudioKeyRing,
  type CompanyKeys,
  type ObjectStorage,
  type ServiceContext,
} from '@earshot/kit';
import type { TranscriptionConfig } from '../config';

/** A process with no way to the file service's keys: plain recordings read, encrypted ones refused. */
const NO_KEYS: CompanyKeys = {
  encrypts: async () => false,
  dataKey: async () => null,
  // Every read looks at the header, so an encrypted recording fails rather than passing as audio.
  mayHaveEncrypted: async () => true,
};

function remoteKeysOf(config: TranscriptionConfig): CompanyKeys | null {
  if (!config.FILE_SERVICE_URL || !config.INTERNAL_API_TOKEN) return null;
  return remoteCompanyKeys(config.FILE_SERVICE_URL, config.INTERNAL_API_TOKEN, masterKeysFrom(config));
}

/**
 * Distributed mode (the service and its workers on their own): refuses to start, clearly, without
 * a way to the file service's audio keys, which every encrypted recording needs.
 */
export function assertAudioKeysReachable(ctx: ServiceContext<TranscriptionConfig>): void {
  if (sharedAudioKeyRing(ctx.database)) return;
  const missing = [
    ctx.config.FILE_SERVICE_URL
      ? null
      : 'FILE_SERVICE_URL: required when the file service runs in another process (audio keys of companies with encryption on)',
    ctx.config.INTERNAL_API_TOKEN ? null : 'INTERNAL_API_TOKEN: required when the file service runs in another process',
  ].filter((problem): problem is string => problem !== null);
  if (missing.length) throw new ConfigError(missing);
  masterKeysFrom(ctx.config);
}

/**
 * The audio keys of the process: the file service owns the recordings and their
 * companies' data keys. In all-in-one mode it shares its ring in the process; in distributed mode
 * its internal route answers each company's key still wrapped, unwrapped here with the same
 * ENCRYPTION_MASTER_KEY and kept 30 s like the ring's (a destroyed key is no key). Looked up at
 * each use, so a file service mounted after this service is the one asked.
 */
export function audioKeys(ctx: ServiceContext<TranscriptionConfig>): CompanyKeys {
  let remote: CompanyKeys | null | undefined;
  const keys = (): CompanyKeys => {
    const ring = sharedAudioKeyRing(ctx.database);
    if (ring) return ring.companyKeys(ctx.db);
    if (remote === undefined) remote = remoteKeysOf(ctx.config);
    return remote ?? NO_KEYS;
  };
  return {
    encrypts: (companyId) => keys().encrypts(companyId),
    dataKey: (companyId) => keys().dataKey(companyId),
    mayHaveEncrypted: (companyId) => keys().mayHaveEncrypted!(companyId),
  };
}

/**
 * The recordings as the transcription service reads them (and, with audio redaction, rewrites
 * them): an encrypted recording decrypts for transcription and a redacted one is written back
 * encrypted, under the file service's key of the company. Without a way to those keys an
 * encrypted recording fails its job with KeyUnavailableError rather than being read or
 * rewritten in plain.
 */
export function audioStorage(ctx: ServiceContext<TranscriptionConfig>): ObjectStorage {
  return new EncryptingStorage(createStorage(ctx.config), audioKeys(ctx));
}
