import {
  CompanyKeyRing,
  createStorage,
  EncryptingStorage,
  masterKeysFrom,
  notFound,
  PassProgress,
  perContext,
  shareAudioKeyRing,
  startEncryptionPass as startPass,
  type CompanyKeyAnswer,
  type EncryptionProgress,
  type ServiceContext,
} from '@earshot/kit';
import type { FileConfig } from '../config';
import { companyStorageKeys } from '../repositories/files';
import { findCompany } from '../repositories/companies';

/**
 * Encryption at rest of recordings. The file service owns the audio, so it keeps the
 * companies' audio data keys (file.company_keys, wrapped by the master key); in all-in-one mode
 * it shares the ring with the transcription service, which reads and rewrites the same objects.
 */
export class FileEncryption {
  readonly ring: CompanyKeyRing;
  readonly storage: EncryptingStorage;

  constructor(private readonly ctx: ServiceContext<FileConfig>) {
    // Reading the master key validates it: a bad key or unreadable key file stops the start.
    this.ring = new CompanyKeyRing('file', 'file', masterKeysFrom(ctx.config));
    this.storage = new EncryptingStorage(createStorage(ctx.config), this.ring.companyKeys(ctx.db));
    shareAudioKeyRing(ctx.database, this.ring);
  }

  /** Refuses to start when encrypted recordings exist and no master key is configured. */
  assertStartable(): Promise<void> {
    return this.ring.assertStartable(this.ctx.db);
  }

  progress(companyId: string): Promise<EncryptionProgress> {
    return this.ring.progress(this.ctx.db, companyId);
  }

  /** The switch and the background pass's progress, for the company's administrators. */
  async status(companyId: string): Promise<EncryptionProgress & { encrypt: boolean }> {
    if (!(await findCompany(this.ctx.db, companyId))) throw notFound('Company');
    return { encrypt: await this.ring.encrypts(this.ctx.db, companyId), ...(await this.progress(companyId)) };
  }

  /**
   * A company's audio key for another process of the same master key (the transcription service
   * in distributed mode, over the internal route): still wrapped, with the switch; null when the
   * company never had one.
   */
  async wrappedKey(companyId: string): Promise<CompanyKeyAnswer | null> {
    const found = await this.ring.wrapped(this.ctx.db, companyId);
    if (found === 'destroyed') return { encrypt: false, wrappedKey: null, destroyed: true };
    return found && { ...found, destroyed: false };
  }

  /**
   * The background pass after a company turned encryption on: each of its recordings still stored
   * in plain is read and written back encrypted under the same key (the storage replaces an object
   * whole, so a reader sees the old or the new one). Progress is saved as it goes and logged;
   * company.encryption_progressed tells it (state `running`) at the start and after batches, at
   * most once per few seconds, and the end (state `done`), for the console. Safe to run again:
   * encrypted objects are skipped.
   */
  async encryptExisting(): Promise<void> {
    for (const companyId of await this.ring.pending(this.ctx.db)) {
      const keys = await companyStorageKeys(this.ctx.db, companyId);
      const progress = new PassProgress(this.ctx, this.ring, 'file', companyId, keys.length);
      await progress.start();
      for (const key of keys) {
        // A recording deleted meanwhile has nothing left to encrypt ('missing').
        await this.storage.encryptInPlace(key);
        await progress.advance();
      }
      await progress.finish();
      this.ctx.logger.info({ companyId, total: keys.length }, 'existing recordings encrypted');
    }
  }
}

/** The one FileEncryption of a service context: routes, handlers and the background pass share its key cache. */
export const encryptionOf = perContext((ctx: ServiceContext<FileConfig>) => new FileEncryption(ctx));

/** Runs the background pass at start and on a timer (see the kit's startEncryptionPass). */
export const startEncryptionPass = (ctx: ServiceContext<FileConfig>) =>
  startPass(ctx.logger, 'file', () => encryptionOf(ctx).encryptExisting());
