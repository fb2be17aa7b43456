import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { isId } from '@earshot/contracts';
import {
  BlindIndex,
  CompanyKeyRing,
  createStorage,
  EncryptingStorage,
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
import type { ChatConfig } from '../config';
import { blindVector, lexemesOf, type BlindTerms } from '../repositories/fts';
import * as knowledgeRepo from '../repositories/knowledge';
import * as segmentsRepo from '../repositories/segments';

/** What each sealed column holds: bound into its ciphertext, so a value cannot be moved to another column. */
export const PURPOSES = {
  segmentText: 'chat.transcript_segments.text',
  chunkText: 'chat.knowledge_chunks.text',
  chunkHeading: 'chat.knowledge_chunks.heading',
} as const;

/** Rows sealed per transaction by the background pass. */
const PASS_BATCH = 200;

/**
 * One company's text as chat stores it: sealed with the company's data key (and indexed blind)
 * while its encryption is on, plain otherwise. Sealed values of a company whose key was destroyed
 * cannot be opened (KeyUnavailableError).
 */
export class CompanyText {
  private index?: BlindIndex;

  constructor(
    readonly companyId: string,
    private readonly key: Buffer | null,
    readonly sealing: boolean,
  ) {}

  seal(purpose: string, text: string): string {
    return this.sealing && this.key ? sealText(this.key, { companyId: this.companyId, purpose }, text) : text;
  }

  open(purpose: string, stored: string): string {
    if (!isSealed(stored)) return stored;
    if (!this.key)
      throw new KeyUnavailableError(`The data key of company ${this.companyId} is gone: its text cannot be decrypted`);
    return openText(this.key, { companyId: this.companyId, purpose }, stored);
  }

  /** The company's blind index, or null while it has no key (its text is plain). */
  blind(): BlindIndex | null {
    if (!this.key) return null;
    return (this.index ??= new BlindIndex(this.key, this.companyId, 'chat.search'));
  }

  /** A question's lexemes as this company's blind tokens, or null when it has no key. */
  terms(lexemes: readonly string[]): BlindTerms | null {
    const index = this.blind();
    return index ? { companyId: this.companyId, tokens: [...new Set(lexemes.map((l) => index.token(l)))] } : null;
  }
}

/** A row's text as stored: `text` sealed or plain, `blind` its blind tsvector (null: plain, searched as English). */
export interface StoredText {
  text: string;
  blind: string | null;
}

/**
 * Encryption at rest in the chat service: a key ring of its own (chat.company_keys,
 * data keys wrapped by the master key), knowledge files' originals stored through the encrypting
 * storage, and the text of knowledge chunks and of the transcript copy sealed, with a blind index
 * for full-text search. Platform GPTs belong to no company and are never encrypted.
 */
export class ChatEncryption {
  readonly ring: CompanyKeyRing;
  readonly storage: EncryptingStorage;

  constructor(private readonly ctx: ServiceContext<ChatConfig>) {
    // Reading the master key validates it: a bad key or unreadable key file stops the start.
    this.ring = new CompanyKeyRing('chat', 'chat', masterKeysFrom(ctx.config));
    // The first segment of a key names its company; a platform GPT's `knowledge/...` names none.
    this.storage = new EncryptingStorage(createStorage(ctx.config), this.ring.companyKeys(ctx.db));
  }

  /** Refuses to start when encrypted chat data exists and no master key is configured. */
  assertStartable(): Promise<void> {
    return this.ring.assertStartable(this.ctx.db);
  }

  progress(companyId: string): Promise<EncryptionProgress> {
    return this.ring.progress(this.ctx.db, companyId);
  }

  /** The company's text sealer (null company: a platform GPT's, always plain). */
  async textOf(db: Db, companyId: string | null): Promise<CompanyText> {
    if (!companyId || !isId(companyId)) return new CompanyText(companyId ?? '', null, false);
    const key = await this.ring.dataKey(db, companyId);
    return new CompanyText(companyId, key, key !== null && (await this.ring.encrypts(db, companyId)));
  }

  /** Texts of one company as they are to be stored: sealed with their blind tsvector, or plain. */
  async stored(db: Db, text: CompanyText, purpose: string, texts: readonly string[]): Promise<StoredText[]> {
    const blind = await this.blindOf(db, text, texts);
    return texts.map((t, i) => ({ text: text.seal(purpose, t), blind: blind[i]! }));
  }

  /** The blind tsvector of each text while the company seals (null each otherwise: plain text is indexed in English). */
  private async blindOf(db: Db, text: CompanyText, texts: readonly string[]): Promise<(string | null)[]> {
    const index = text.sealing ? text.blind() : null;
    if (!index) return texts.map(() => null);
    return (await lexemesOf(db, texts)).map((lexemes) => blindVector(index, lexemes));
  }

  /**
   * The background pass after a company turned encryption on: its knowledge files' originals are
   * rewritten encrypted (moved under the company's own key prefix when stored before it had one),
   * and its knowledge chunks and transcript copy still in plain are sealed. Progress is saved per
   * batch; the end is told by company.encryption_progressed (state `done`). Safe to run again:
   * what is encrypted is skipped. A file being processed is left for the next run (the company
   * stays `running`), so the queue never reads an object being moved.
   */
  async encryptExisting(): Promise<void> {
    for (const companyId of await this.ring.pending(this.ctx.db)) {
      const text = await this.textOf(this.ctx.db, companyId);
      // Nothing to seal with (no key usable): the batches below would find the same rows forever.
      if (!text.sealing) continue;
      const files = await knowledgeRepo.filesOfCompany(this.ctx.db, companyId);
      const counts = await Promise.all([
        knowledgeRepo.countPlainChunks(this.ctx.db, companyId),
        segmentsRepo.countPlain(this.ctx.db, companyId),
      ]);
      const progress = new PassProgress(this.ctx, this.ring, 'chat', companyId, files.length + counts[0] + counts[1]);
      await progress.start();
      const step = (n: number) => progress.advance(n);
      let busy = false;
      for (const file of files) {
        if (file.status === 'ready' || file.status === 'failed') await this.encryptFile(companyId, file);
        else busy = true;
        await step(1);
      }
      await this.sealChunks(text, step);
      await this.sealSegments(text, step);
      if (busy) {
        this.ctx.logger.info({ companyId }, 'knowledge files still being processed are encrypted at the next pass');
        continue;
      }
      await progress.finish();
      this.ctx.logger.info({ companyId, total: progress.done }, 'existing chat data encrypted');
    }
  }

  /** One original: encrypted where it is, or copied encrypted to the company's prefix, the row moved, then the old object removed. */
  private async encryptFile(
    companyId: string,
    file: { id: string; customGptId: string; storageKey: string; mimeType: string },
  ): Promise<void> {
    const target = knowledgeKey(companyId, file.customGptId, file.id);
    if (file.storageKey === target && (await this.storage.isEncrypted(target))) return;
    const info = await this.storage.inner.stat(file.storageKey);
    // A file deleted meanwhile has nothing left to encrypt.
    if (!info) return;
    const data = await buffer(await this.storage.inner.get(file.storageKey));
    await this.storage.putEncrypted(target, Readable.from([data]), { contentType: file.mimeType }, companyId);
    if (file.storageKey === target) return;
    const now = await knowledgeRepo.moveObject(this.ctx.db, file.id, file.storageKey, target);
    // Moved here, or by another replica's pass (which removes the old object itself); a file
    // deleted meanwhile leaves its copy with nothing pointing at it.
    if (now === target) await this.storage.inner.delete(file.storageKey);
    else if (now === null) await this.storage.inner.delete(target);
  }

  private async sealChunks(text: CompanyText, step: (n: number) => Promise<void>): Promise<void> {
    for (;;) {
      const batch = await knowledgeRepo.plainChunks(this.ctx.db, text.companyId, PASS_BATCH);
      if (batch.length === 0) return;
      const sealed = await this.sealedChunks(this.ctx.db, text, batch);
      await this.ctx.transact((tx) =>
        knowledgeRepo.sealChunks(
          tx,
          batch.map((c, i) => ({ id: c.id, ...sealed[i]! })),
        ),
      );
      await step(batch.length);
    }
  }

  /** Chunks as stored: heading and text sealed, the blind index over both as full-text search reads them. */
  async sealedChunks(
    db: Db,
    text: CompanyText,
    chunks: readonly { heading: string | null; text: string }[],
  ): Promise<{ heading: string | null; text: string; blind: string | null }[]> {
    const blind = await this.blindOf(
      db,
      text,
      chunks.map((c) => `${c.heading ?? ''} ${c.text}`),
    );
    return chunks.map((c, i) => ({
      heading: c.heading === null ? null : text.seal(PURPOSES.chunkHeading, c.heading),
      text: text.seal(PURPOSES.chunkText, c.text),
      blind: blind[i]!,
    }));
  }

  private async sealSegments(text: CompanyText, step: (n: number) => Promise<void>): Promise<void> {
    for (;;) {
      const batch = await segmentsRepo.plainSegments(this.ctx.db, text.companyId, PASS_BATCH);
      if (batch.length === 0) return;
      const sealed = await this.stored(
        this.ctx.db,
        text,
        PURPOSES.segmentText,
        batch.map((s) => s.text),
      );
      await this.ctx.transact((tx) =>
        segmentsRepo.sealSegments(
          tx,
          batch.map((s, i) => ({ fileId: s.fileId, segmentId: s.segmentId, plain: s.text, ...sealed[i]! })),
        ),
      );
      await step(batch.length);
    }
  }
}

/**
 * Where a knowledge file's original is stored: a company GPT's under the company's id (the
 * encrypting storage finds the company's key from a key's first segment), a platform GPT's
 * under `knowledge/` (never encrypted). Files stored before this have `knowledge/` keys; the
 * background pass moves a company's when it turns encryption on.
 */
export const knowledgeKey = (companyId: string | null, customGptId: string, fileId: string) =>
  companyId ? `${companyId}/knowledge/${customGptId}/${fileId}` : `knowledge/${customGptId}/${fileId}`;

/** The one ChatEncryption of a service context: routes, handlers and the background pass share its key cache. */
export const encryptionOf = perContext((ctx: ServiceContext<ChatConfig>) => new ChatEncryption(ctx));

/** Runs the background pass at start and on a timer (see the kit's startEncryptionPass). */
export const startChatEncryptionPass = (ctx: ServiceContext<ChatConfig>) =>
  startEncryptionPass(ctx.logger, 'chat', () => encryptionOf(ctx).encryptExisting());
