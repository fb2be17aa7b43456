import { createStorage, EncryptingStorage, sharedAudioKeyRing, type ObjectStorage, type ServiceContext } from '@earshot/kit';
import type { TranscriptionConfig } from '../config';

/**
 * The recordings as the transcription service reads them (and, with audio redaction, rewrites
 * them): through the file service's audio key ring (issue 25), which owns the recordings and their
 * companies' data keys. In all-in-one mode the file service shares its ring in the process, so an
 * encrypted recording decrypts for transcription and a redacted one is written back encrypted.
 * A process without that ring (the transcription service on its own) has no audio keys: an
 * encrypted recording fails its job with KeyUnavailableError rather than being read or rewritten
 * in plain (see the README, "Encryption at rest": what distributed mode lacks).
 */
export function audioStorage(ctx: ServiceContext<TranscriptionConfig>): ObjectStorage {
  return new EncryptingStorage(createStorage(ctx.config), {
    encrypts: async (companyId) => (await sharedAudioKeyRing(ctx.database)?.encrypts(ctx.db, companyId)) ?? false,
    dataKey: async (companyId) => (await sharedAudioKeyRing(ctx.database)?.dataKey(ctx.db, companyId)) ?? null,
  });
}
