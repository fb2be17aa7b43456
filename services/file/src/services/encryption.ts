import { SYSTEM_ACTOR } from '@earshot/contracts';
import {
  CompanyKeyRing,
  createStorage,
  EncryptingStorage,
  masterKeysFrom,
  progressClock,
  notFound,
  shareAudioKeyRing,
  type CompanyKeyAnswer,
  type EncryptionProgress,
  type ServiceContext,
} from '@earshot/kit';
import type { FileConfig } from '../config';
import { companyStorageKeys } from '../repositories/files';
import { findCompany } from '../repositories/companies';

/** Progress is written (and logged) after this many recordings, and at the end. */
const PROGRESS_EVERY = 20;

/** A pass's progress: the ring's `idle` is before any pass. */
type PassProgress = EncryptionProgress & { state: 'running' | 'done' };

/**
 * Encryption at rest of recordings (issue 25). The file service owns the audio, so it keeps the
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
      const progress: PassProgress = { state: 'running', done: 0, total: keys.length };
      const tell = progressClock();
      if (keys.length > 0) await this.saveProgress(companyId, progress, tell());
      for (const key of keys) {
        if (!(await this.storage.isEncrypted(key))) {
          const info = await this.storage.inner.stat(key);
          // A recording deleted meanwhile has nothing left to encrypt.
          if (info) await this.storage.putEncrypted(key, await this.storage.inner.get(key), { contentType: info.contentType });
        }
        progress.done++;
        if (progress.done % PROGRESS_EVERY === 0) {
          await this.saveProgress(companyId, progress, tell());
          this.ctx.logger.info({ companyId, done: progress.done, total: progress.total }, 'encrypting existing recordings');
        }
      }
      await this.saveProgress(companyId, { ...progress, state: 'done' }, true);
      this.ctx.logger.info({ companyId, total: progress.total }, 'existing recordings encrypted');
    }
  }

  /** Saves a company's progress and, when `tell`, announces it in the same transaction. */
  private async saveProgress(companyId: string, progress: PassProgress, tell: boolean): Promise<void> {
    await this.ctx.transact(async (tx, emit) => {
      await this.ring.saveProgress(tx, companyId, progress);
      if (tell) emit({ type: 'company.encryption_progressed', companyId, actor: SYSTEM_ACTOR, data: { companyId, service: 'file', done: progress.done, total: progress.total, state: progress.state } });
    });
  }
}

const instances = new WeakMap<ServiceContext<FileConfig>, FileEncryption>();

/** The one FileEncryption of a service context: routes, handlers and the background pass share its key cache. */
export function encryptionOf(ctx: ServiceContext<FileConfig>): FileEncryption {
  let found = instances.get(ctx);
  if (!found) instances.set(ctx, (found = new FileEncryption(ctx)));
  return found;
}

/** How often the background pass looks for companies that turned encryption on. */
const PASS_POLL_MS = 15_000;

/** Runs the background pass at start and on a timer, one run at a time; a failure is logged and retried. */
export function startEncryptionPass(ctx: ServiceContext<FileConfig>): NodeJS.Timeout {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    encryptionOf(ctx).encryptExisting()
      .catch((error: unknown) => ctx.logger.error({ err: error }, 'encrypting existing recordings failed'))
      .finally(() => {
        running = false;
      });
  };
  tick();
  const timer = setInterval(tick, PASS_POLL_MS);
  timer.unref();
  return timer;
}
