import { isId } from '@earshot/contracts';
import {
  CompanyKeyRing,
  isSealed,
  KeyUnavailableError,
  masterKeysFrom,
  perContext,
  openText,
  sealText,
  PassProgress,
  startEncryptionPass,
  type Db,
  type EncryptionProgress,
  type ServiceContext,
} from '@earshot/kit';
import type { PromptConfig } from '../config';
import * as repo from '../repositories/transcripts';

/** What the sealed column holds: bound into its ciphertext, so a value cannot be moved to another column. */
const SEGMENT_TEXT = 'prompt.transcript_segments.text';

/** Segments sealed per transaction by the background pass. */
const PASS_BATCH = 200;

/** One company's transcript text as the copy stores it: sealed while its encryption is on, plain otherwise. */
export interface SegmentSealer {
  /** Whether new text of the company is sealed (its encryption on, its key usable). */
  sealing: boolean;
  seal(text: string): string;
  /** The text as published; a sealed text of a company whose key was destroyed fails (KeyUnavailableError). */
  open(stored: string): string;
}

/**
 * Encryption at rest in the prompt service: a key ring of its own (prompt.company_keys,
 * data keys wrapped by the master key) and the transcript copy's text sealed for a company with
 * encryption on. Analyses open it when they build their prompt, so what a provider receives is
 * the text as published (already redacted by the transcription service).
 */
export class PromptEncryption {
  readonly ring: CompanyKeyRing;

  constructor(private readonly ctx: ServiceContext<PromptConfig>) {
    // Reading the master key validates it: a bad key or unreadable key file stops the start.
    this.ring = new CompanyKeyRing('prompt', 'prompt', masterKeysFrom(ctx.config));
  }

  /** Refuses to start when sealed transcript text exists and no master key is configured. */
  assertStartable(): Promise<void> {
    return this.ring.assertStartable(this.ctx.db);
  }

  progress(companyId: string): Promise<EncryptionProgress> {
    return this.ring.progress(this.ctx.db, companyId);
  }

  async sealerOf(db: Db, companyId: string): Promise<SegmentSealer> {
    const key = isId(companyId) ? await this.ring.dataKey(db, companyId) : null;
    const sealing = key !== null && (await this.ring.encrypts(db, companyId));
    const context = { companyId, purpose: SEGMENT_TEXT };
    return {
      sealing,
      seal: (text) => (sealing && key ? sealText(key, context, text) : text),
      open: (stored) => {
        if (!isSealed(stored)) return stored;
        if (!key)
          throw new KeyUnavailableError(
            `The data key of company ${companyId} is gone: its transcript text cannot be decrypted`,
          );
        return openText(key, context, stored);
      },
    };
  }

  /**
   * The background pass after a company turned encryption on: its transcript copy's text still in
   * plain is sealed in batches, progress saved after each; the end is told by
   * company.encryption_progressed (state `done`). Safe to run again: sealed text is skipped, and a
   * segment edited meanwhile is read again by the next batch.
   */
  async encryptExisting(): Promise<void> {
    for (const companyId of await this.ring.pending(this.ctx.db)) {
      const sealer = await this.sealerOf(this.ctx.db, companyId);
      // Nothing to seal with (no key usable): the batches below would find the same rows forever.
      if (!sealer.sealing) continue;
      const progress = new PassProgress(
        this.ctx,
        this.ring,
        'prompt',
        companyId,
        await repo.countPlainSegments(this.ctx.db, companyId),
      );
      await progress.start();
      for (;;) {
        const batch = await repo.plainSegments(this.ctx.db, companyId, PASS_BATCH);
        if (batch.length === 0) break;
        await this.ctx.transact((tx) =>
          repo.sealSegments(
            tx,
            batch.map((s) => ({ ...s, sealed: sealer.seal(s.text) })),
          ),
        );
        await progress.advance(batch.length);
      }
      await progress.finish();
      this.ctx.logger.info({ companyId, total: progress.done }, 'existing transcript copies encrypted');
    }
  }
}

/** The one PromptEncryption of a service context: handlers, runs and the background pass share its key cache. */
export const encryptionOf = perContext((ctx: ServiceContext<PromptConfig>) => new PromptEncryption(ctx));

/** Runs the background pass at start and on a timer (see the kit's startEncryptionPass). */
export const startPromptEncryptionPass = (ctx: ServiceContext<PromptConfig>) =>
  startEncryptionPass(ctx.logger, 'prompt', () => encryptionOf(ctx).encryptExisting());
