import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { GPT_MESSAGES } from '@earshot/contracts';
import { unrefInterval, type Database, type ObjectStorage, type ServiceContext } from '@earshot/kit';
import type { ChatConfig } from '../../config';
import type { KnowledgeFileRow } from '../../db/schema';
import * as knowledgeRepo from '../../repositories/knowledge';
import { encryptionOf, PURPOSES } from '../encryption';
import { chunkBlocks } from './chunk';
import { EMBED_BATCH, type Embedder } from './embeddings';
import { ExtractionStopped, extractIsolated } from './isolated';
import { ExtractionFailure, limitsOf, type Refusal } from './limits';
import { reasonText } from './reasons';

/** A process holds a file this long between signs of life (each page, each batch renews it). */
const LEASE_SECONDS = 120;
/** A file whose indexing stopped this many times (a process dying on it) fails instead of looping. */
const MAX_ATTEMPTS = 3;
/** How often a process looks for work made elsewhere (another replica's uploads, a new embeddings model). */
const POLL_MS = 5_000;
const REASON_MAX = 1_000;
const SYSTEM = { type: 'system', id: null } as const;

/**
 * Knowledge files are processed in the background, one at a time per process, from the
 * knowledge_files table itself (a Postgres-backed queue): queued → extracting → indexing → ready
 * or failed. A file is taken under a lease that each step renews; when a process stops, its
 * lease runs out and the file is taken again (from the start: its chunks are replaced, never
 * added twice), so processing survives a restart. Its text is read in a thread of its own within
 * limits (isolated.ts): a file over a limit fails at once, and a file whose reading a process did
 * not survive fails when its lease runs out instead of being read again. When idle, the queue
 * embeds chunks that lack vectors of the configured embeddings model (a new model re-embeds every
 * GPT in the background).
 */
export class KnowledgeQueue {
  private loop: Promise<void> | null = null;
  private again = false;
  private timer?: NodeJS.Timeout;
  private stopped = true;
  /** Aborted when the process stops: the file being read goes back to the queue. */
  private stopping = new AbortController();

  constructor(
    private readonly ctx: ServiceContext<ChatConfig>,
    private readonly storage: ObjectStorage,
    private readonly embedder: Embedder,
  ) {}

  start(): void {
    this.stopped = false;
    this.stopping = new AbortController();
    this.timer = unrefInterval(() => this.nudge(), POLL_MS);
    this.nudge();
  }

  /** Looks for work now (after an upload, or an AI configuration change). */
  nudge(): void {
    if (this.stopped) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    this.loop = this.drain()
      .catch((error: unknown) => {
        this.ctx.logger.error({ err: error }, 'knowledge queue failed');
      })
      .finally(() => {
        this.loop = null;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** Resolves when no work is under way and none is left that could be done now. */
  async idle(): Promise<void> {
    while (this.loop) await this.loop;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.stopping.abort();
    await this.idle();
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const abandoned = reasonText({ kind: 'abandoned' }, limitsOf(this.ctx.config));
      const file = await this.ctx.transact(async (tx, emit) => {
        // Attempts are counted when a file is claimed: one whose reading was under way when its
        // process died (its lease ran out) has had its attempt, and may be what killed it.
        for (const row of await knowledgeRepo.failAbandonedExtractions(tx, abandoned))
          emit(this.failedEvent(row, abandoned));
        return knowledgeRepo.claimNext(tx, LEASE_SECONDS, this.ctx.config.KNOWLEDGE_COMPANY_CONCURRENCY);
      });
      if (file) {
        await this.process(file);
        continue;
      }
      if (!(await this.reembedBatch())) return;
    }
  }

  private failedEvent(file: KnowledgeFileRow, reason: string) {
    return {
      type: 'knowledge_file.failed',
      companyId: file.companyId,
      actor: SYSTEM,
      data: { id: file.id, customGptId: file.customGptId, reason: reason.slice(0, REASON_MAX) },
    } as const;
  }

  private async fail(file: KnowledgeFileRow, reason: string): Promise<void> {
    await this.ctx.transact(async (tx, emit) => {
      const row = await knowledgeRepo.finish(tx, file.id, { status: 'failed', error: reason.slice(0, REASON_MAX) });
      if (row) emit(this.failedEvent(file, reason));
    });
  }

  /**
   * The file's text, read in its own thread within the configured limits. Progress (each PDF page)
   * and a heartbeat renew the lease meanwhile, one write at a time, the latest state only.
   */
  private async extract(file: KnowledgeFileRow, data: Buffer) {
    let state: { percent: number; pages?: number } = { percent: 0 };
    let dirty = false;
    let writing: Promise<void> | null = null;
    const write = () => {
      dirty = true;
      writing ??= (async () => {
        while (dirty) {
          dirty = false;
          await knowledgeRepo.progress(this.ctx.db, file.id, 'extracting', state.percent, LEASE_SECONDS, state.pages);
        }
      })()
        .catch((error: unknown) => this.ctx.logger.warn({ err: error, fileId: file.id }, 'progress not saved'))
        .finally(() => {
          writing = null;
        });
    };
    const heartbeat = setInterval(write, (LEASE_SECONDS * 1000) / 4);
    try {
      // Extraction takes the first 60%: PDF pages report as they go.
      return await extractIsolated(
        file.format,
        data,
        limitsOf(this.ctx.config),
        (done, total) => {
          state = { percent: (done / total) * 60, pages: total };
          write();
        },
        this.stopping.signal,
      );
    } finally {
      clearInterval(heartbeat);
      await writing;
    }
  }

  /** Works one claimed file to its end. */
  private async process(file: KnowledgeFileRow): Promise<void> {
    if (file.attempts > MAX_ATTEMPTS) return this.fail(file, GPT_MESSAGES.unreadable);
    const alive = (status: 'extracting' | 'indexing', percent: number, pages?: number | null) =>
      knowledgeRepo.progress(this.ctx.db, file.id, status, percent, LEASE_SECONDS, pages);
    let extracted;
    try {
      extracted = await this.extract(file, await buffer(await this.storage.get(file.storageKey)));
    } catch (error) {
      if (error instanceof ExtractionStopped) {
        await knowledgeRepo.release(this.ctx.db, file.id);
        return;
      }
      const refusal: Refusal = error instanceof ExtractionFailure ? error.refusal : { kind: 'unreadable' };
      if (!(error instanceof ExtractionFailure) || error.cause)
        this.ctx.logger.warn({ err: error, fileId: file.id }, 'knowledge file could not be read');
      else if (['timeout', 'memory'].includes(refusal.kind))
        this.ctx.logger.warn({ fileId: file.id, limit: refusal.kind }, 'knowledge file stopped at its limit');
      return this.fail(file, reasonText(refusal, limitsOf(this.ctx.config)));
    }
    const chunks = chunkBlocks(extracted.blocks).map((c) => ({ ...c, id: randomUUID() }));
    if (!(await alive('indexing', 65, extracted.pages))) return; // deleted meanwhile
    // A company with encryption on keeps its chunks' words sealed (with their blind index).
    const encryption = encryptionOf(this.ctx);
    const sealed = await encryption.sealedChunks(
      this.ctx.db,
      await encryption.textOf(this.ctx.db, file.companyId),
      chunks,
    );
    await this.ctx.transact((tx) =>
      knowledgeRepo.replaceChunks(
        tx,
        file,
        chunks.map((c, i) => ({ ...c, ...sealed[i]! })),
      ),
    );
    const embeddingsModelId = await this.embedFile(file, chunks.length);
    await this.ctx.transact(async (tx, emit) => {
      const row = await knowledgeRepo.finish(tx, file.id, {
        status: 'ready',
        pages: extracted.pages,
        chunks: chunks.length,
      });
      if (row) {
        emit({
          type: 'knowledge_file.ready',
          companyId: file.companyId,
          actor: SYSTEM,
          data: {
            id: file.id,
            customGptId: file.customGptId,
            pages: extracted.pages,
            chunks: chunks.length,
            embeddingsModelId,
          },
        });
      }
    });
  }

  /**
   * Embeds a new file's chunks with the configured model (70-99%). A provider failure leaves the
   * file answering by full-text search; the idle re-embedding catches up later.
   */
  private async embedFile(file: KnowledgeFileRow, total: number): Promise<string | null> {
    let model;
    try {
      model = await this.embedder.current();
    } catch (error) {
      this.ctx.logger.warn(
        { err: error, fileId: file.id },
        'embeddings model unavailable; the file answers by full-text search',
      );
      return null;
    }
    if (!model) return null;
    try {
      let done = 0;
      for (;;) {
        const batch = await knowledgeRepo.chunksWithoutVectors(this.ctx.db, model.modelId, {
          fileId: file.id,
          limit: EMBED_BATCH,
        });
        if (batch.length === 0) return model.modelId;
        await this.embedBatch(model, batch, 'knowledge');
        done += batch.length;
        if (
          !(await knowledgeRepo.progress(
            this.ctx.db,
            file.id,
            'indexing',
            70 + (29 * done) / Math.max(1, total),
            LEASE_SECONDS,
          ))
        )
          return null;
      }
    } catch (error) {
      this.ctx.logger.warn(
        { err: error, fileId: file.id },
        'knowledge file could not be embedded; it answers by full-text search until re-embedded',
      );
      return null;
    }
  }

  private async embedBatch(
    model: NonNullable<Awaited<ReturnType<Embedder['current']>>>,
    batch: Awaited<ReturnType<typeof knowledgeRepo.chunksWithoutVectors>>,
    purpose: 'knowledge' | 'reembed',
  ): Promise<void> {
    const first = batch[0]!;
    // One GPT per batch: one company's key opens every chunk.
    const text = await encryptionOf(this.ctx).textOf(this.ctx.db, first.companyId);
    const opened = batch.map((c) => ({
      heading: c.heading === null ? null : text.open(PURPOSES.chunkHeading, c.heading),
      text: text.open(PURPOSES.chunkText, c.text),
    }));
    const { vectors, tokens } = await this.embedder.embed(
      model,
      opened.map((c) => (c.heading ? `${c.heading}\n${c.text}` : c.text)),
    );
    await this.ctx.transact(async (tx, emit) => {
      await knowledgeRepo.insertVectors(
        tx,
        batch.map((c, i) => ({
          chunkId: c.id,
          customGptId: c.customGptId,
          modelId: model.modelId,
          dimension: vectors[i]!.length,
          vector: vectors[i]!,
        })),
      );
      emit({
        type: 'embeddings.used',
        companyId: await knowledgeRepo.companyOfGpt(tx, first.customGptId),
        actor: SYSTEM,
        data: {
          modelId: model.modelId,
          tokens,
          purpose,
          customGptId: first.customGptId,
          fileId: batch.every((c) => c.fileId === first.fileId) ? first.fileId : null,
        },
      });
    });
  }

  /**
   * One batch of chunks that lack vectors of the configured embeddings model (a new model, or a
   * file embedded while the provider was down). True when there may be more.
   */
  private async reembedBatch(): Promise<boolean> {
    try {
      const model = await this.embedder.current();
      if (!model) return false;
      const missing = await knowledgeRepo.chunksWithoutVectors(this.ctx.db, model.modelId, { limit: EMBED_BATCH });
      // One GPT per batch, so the event names whose knowledge was embedded.
      const batch = missing.filter((c) => c.customGptId === missing[0]?.customGptId);
      if (batch.length === 0) return false;
      await this.embedBatch(model, batch, 'reembed');
      return true;
    } catch (error) {
      // Tried again at the next poll; the old vectors and full-text search keep answering meanwhile.
      this.ctx.logger.warn({ err: error }, 're-embedding paused: the embeddings model failed');
      return false;
    }
  }
}

// The queue of each process's database handle: for the handlers that wake it and for tests that wait on it.
const queues = new WeakMap<Database, KnowledgeQueue>();

export function registerKnowledgeQueue(database: Database, queue: KnowledgeQueue): void {
  queues.set(database, queue);
}

export function knowledgeQueue(database: Database): KnowledgeQueue | undefined {
  return queues.get(database);
}
