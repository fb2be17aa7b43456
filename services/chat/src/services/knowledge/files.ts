import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ERROR_CODES, GPT_LIMITS, GPT_MESSAGES, type KnowledgeFileDto } from '@earshot/contracts';
import { actorOf, HttpError, notFound, type Identity, type ObjectStorage, type ServiceContext } from '@earshot/kit';
import type { ChatConfig } from '../../config';
import type { KnowledgeFileRow } from '../../db/schema';
import * as gptsRepo from '../../repositories/custom-gpts';
import * as knowledgeRepo from '../../repositories/knowledge';
import type { CustomGptService } from '../custom-gpts';
import { knowledgeKey } from '../encryption';
import { recogniseKnowledgeFile, servedType } from './formats';

export function toKnowledgeFile(row: KnowledgeFileRow): KnowledgeFileDto {
  return {
    _id: row.id,
    name: row.name,
    mimeType: row.mimeType,
    size: row.size,
    status: row.status,
    error: row.error,
    pages: row.pages,
    chunks: row.chunkCount,
    progress: row.progress,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The uploaded file as the route hands it over: its stream (cut at the size limit) and what the client said of it. */
export interface KnowledgeUpload {
  stream: Readable;
  fileName: string;
  clientType: string | undefined;
  /** True when the stream was cut at the limit: the file is larger. */
  truncated(): boolean;
}

const fileError = (status: 409 | 413, message: string) =>
  new HttpError(status, message, status === 413 ? ERROR_CODES.TOO_LARGE : ERROR_CODES.CONFLICT, [
    { field: 'file', message },
  ]);

/** A name fit to show and to send in a header: no path, no control characters, bounded. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, GPT_LIMITS.fileNameMax);
  return clean || 'file';
}

async function readBounded(stream: Readable, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.resume();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** Knowledge files of custom GPTs: upload (checked by content), list, the original, removal. */
export class KnowledgeFileService {
  constructor(
    private readonly ctx: ServiceContext<ChatConfig>,
    private readonly gpts: CustomGptService,
    private readonly storage: ObjectStorage,
    private readonly wake: () => void,
  ) {}

  /**
   * Stores the original and queues it: 201 at once, processing follows in the background. Refused
   * before anything is kept: 413 larger than the limit, 415 not a format it claims or accepts, 409
   * the GPT has its number of files.
   */
  async upload(identity: Identity, customGptId: string, upload: KnowledgeUpload): Promise<KnowledgeFileDto> {
    const gpt = await this.gpts.manageable(identity, customGptId);
    if (((await gptsRepo.fileCounts(this.ctx.db, [gpt.id])).get(gpt.id) ?? 0) >= GPT_LIMITS.filesPerGpt)
      throw fileError(409, GPT_MESSAGES.tooMany);
    const data = await readBounded(upload.stream, GPT_LIMITS.fileMaxBytes);
    if (!data || upload.truncated()) throw fileError(413, GPT_MESSAGES.tooLarge);
    if (data.length === 0)
      throw new HttpError(400, GPT_MESSAGES.noFile, ERROR_CODES.VALIDATION, [
        { field: 'file', message: GPT_MESSAGES.noFile },
      ]);
    const name = cleanName(upload.fileName);
    const { format, mimeType } = await recogniseKnowledgeFile(data, name, upload.clientType);
    const id = randomUUID();
    // Stored through the encrypting storage: sealed when the GPT's company has encryption on.
    const storageKey = knowledgeKey(gpt.companyId, gpt.id, id);
    await this.storage.put(storageKey, Readable.from([data]), { contentType: mimeType, size: data.length });
    let row: KnowledgeFileRow;
    try {
      row = await this.ctx.transact(async (tx, emit) => {
        if ((await knowledgeRepo.countFilesLocked(tx, gpt.id)) >= GPT_LIMITS.filesPerGpt)
          throw fileError(409, GPT_MESSAGES.tooMany);
        const saved = await knowledgeRepo.insertFile(tx, {
          id,
          customGptId: gpt.id,
          companyId: gpt.companyId,
          name,
          format,
          mimeType,
          size: data.length,
          storageKey,
          status: 'queued',
          uploadedBy: identity.userId,
        });
        emit({
          type: 'knowledge_file.added',
          companyId: gpt.companyId,
          actor: actorOf(identity),
          data: { id, customGptId: gpt.id, mimeType, size: data.length },
        });
        return saved;
      });
    } catch (error) {
      // Nothing is left behind by a refused upload.
      await this.storage.delete(storageKey);
      throw error;
    }
    this.wake();
    return toKnowledgeFile(row);
  }

  async list(identity: Identity, customGptId: string): Promise<KnowledgeFileDto[]> {
    const gpt = await this.gpts.readable(identity, customGptId);
    return (await knowledgeRepo.listFiles(this.ctx.db, gpt.id)).map(toKnowledgeFile);
  }

  /** The original bytes, for those who may chat with the GPT or read it (citations open it). */
  async original(
    identity: Identity,
    customGptId: string,
    docId: string,
  ): Promise<{ body: Readable; headers: Record<string, string> }> {
    const gpt = await this.gpts.readable(identity, customGptId);
    const file = await knowledgeRepo.findFile(this.ctx.db, gpt.id, docId);
    if (!file) throw notFound('Knowledge file');
    const inline =
      file.format === 'pdf' ||
      file.format === 'txt' ||
      file.format === 'markdown' ||
      file.format === 'csv' ||
      file.format === 'html';
    return {
      body: await this.storage.get(file.storageKey),
      headers: {
        'content-type': servedType(file.format),
        'content-length': String(file.size),
        'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        'x-content-type-options': 'nosniff',
        // A stored file never runs anything, even opened directly.
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, no-store',
      },
    };
  }

  async remove(identity: Identity, customGptId: string, docId: string): Promise<{ message: string }> {
    const gpt = await this.gpts.manageable(identity, customGptId);
    const file = await knowledgeRepo.findFile(this.ctx.db, gpt.id, docId);
    if (!file) throw notFound('Knowledge file');
    await this.ctx.transact(async (tx, emit) => {
      await knowledgeRepo.removeFile(tx, file.id);
      emit({
        type: 'knowledge_file.deleted',
        companyId: gpt.companyId,
        actor: actorOf(identity),
        data: { id: file.id, customGptId: gpt.id },
      });
    });
    await this.deleteObjects([file.storageKey]);
    return { message: GPT_MESSAGES.fileDeleted };
  }

  /** Deletes a GPT with its files, chunks and vectors, then the stored originals. */
  async removeGpt(identity: Identity, customGptId: string): Promise<{ message: string }> {
    const gpt = await this.gpts.manageable(identity, customGptId);
    const keys = await knowledgeRepo.storageKeysOf(this.ctx.db, gpt.id);
    await this.ctx.transact(async (tx, emit) => {
      await gptsRepo.remove(tx, gpt.id);
      emit({
        type: 'custom_gpt.deleted',
        companyId: gpt.companyId,
        actor: actorOf(identity),
        data: { id: gpt.id, files: keys.length },
      });
    });
    await this.deleteObjects(keys);
    return { message: GPT_MESSAGES.deleted };
  }

  /** Stored originals of removed files; a failure is logged (the rows are gone: nothing points at them). */
  private async deleteObjects(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      await this.storage
        .delete(key)
        .catch((error: unknown) =>
          this.ctx.logger.warn({ err: error, key }, 'stored knowledge file could not be deleted'),
        );
    }
  }
}
