import { Readable } from 'node:stream';
import { isId, SpeakerSegment, type OriginalWordsDto } from '@earshot/contracts';
import {
  actorOf,
  EncryptingStorage,
  forbidden,
  KeyUnavailableError,
  notFound,
  ObjectNotFoundError,
  on,
  parseRange,
  type ByteRange,
  type Db,
  type HandlerSpec,
  type Identity,
  type ObjectStorage,
  type ServiceContext,
} from '@earshot/kit';
import { z } from 'zod';
import type { TranscriptionConfig } from '../config';
import * as repo from '../repositories/originals';
import type { KeptOriginal } from '../repositories/originals';
import { findByEitherId } from '../repositories/transcripts';
import { JobError } from './job-error';
import { scopeOf } from './scope';

/**
 * Unredacted originals (policy keepOriginal): before redaction hides anything, the
 * recognised words (JSON of the segments) and, with text_audio, the audio as uploaded are stored
 * under `<companyId>/originals/<fileId>/`, always encrypted with the company's data key (the tenant
 * service allows keepOriginal only with encryption on). Only the company's ADMIN reads them, and
 * every read is announced as transcript.original_read for the audit log. They go with the
 * recording: file.deleted (every deletion path ends there) and company.deleted remove them.
 */

/** What the redaction step knows of the recording whose original it keeps. */
export interface OriginalSource {
  companyId: string;
  fileId: string;
  storageKey: string;
  mimeType: string;
}

const keyOf = (source: { companyId: string; fileId: string }, name: 'words.json' | 'audio') =>
  `${source.companyId}/originals/${source.fileId}/${name}`;

function encrypting(storage: ObjectStorage): EncryptingStorage {
  if (storage instanceof EncryptingStorage) return storage;
  throw new JobError(
    'The unredacted original cannot be kept: this storage does not encrypt, and originals are kept only encrypted',
    false,
  );
}

async function removeObjects(storage: ObjectStorage, kept: Pick<KeptOriginal, 'wordsKey' | 'audioKey'>): Promise<void> {
  await storage.delete(kept.wordsKey);
  if (kept.audioKey) await storage.delete(kept.audioKey);
}

/**
 * Stores the original of a recording whose transcript redaction is about to change, replacing the
 * words of an earlier run. The audio is copied only when none is kept yet: on a re-run under
 * text_audio the stored recording is already silenced, and the first copy is the original.
 * A company without a data key in this process (transcription running on its own, without the file
 * service's key ring) fails the job: the original is never stored in plain.
 */
export async function keepOriginal(
  db: Db,
  storage: ObjectStorage,
  source: OriginalSource,
  segments: readonly SpeakerSegment[],
  withAudio: boolean,
): Promise<void> {
  const store = encrypting(storage);
  const before = await repo.findOriginal(db, source.fileId);
  const kept: KeptOriginal = {
    fileId: source.fileId,
    companyId: source.companyId,
    wordsKey: keyOf(source, 'words.json'),
    audioKey: before?.audioKey ?? null,
    audioType: before?.audioType ?? null,
  };
  try {
    await store.putEncrypted(kept.wordsKey, Readable.from([Buffer.from(JSON.stringify(segments))]), {
      contentType: 'application/json',
    });
    if (withAudio && !kept.audioKey) {
      kept.audioKey = keyOf(source, 'audio');
      kept.audioType = source.mimeType;
      await store.putEncrypted(kept.audioKey, await store.get(source.storageKey), { contentType: source.mimeType });
    }
  } catch (error) {
    if (error instanceof KeyUnavailableError)
      throw new JobError(`The unredacted original cannot be kept: ${error.message}`, false);
    if (error instanceof ObjectNotFoundError) throw new JobError('The audio file is missing from storage', false);
    throw error;
  }
  // Deleted while the job ran: file.deleted found no row, so the objects go here.
  if (!(await repo.saveOriginal(db, kept))) await removeObjects(storage, kept);
}

/** Removes a recording's original, objects first (removing a missing object is a no-op, so a retry is safe). */
export async function discardOriginal(db: Db, storage: ObjectStorage, fileId: string): Promise<void> {
  const kept = await repo.findOriginal(db, fileId);
  if (!kept) return;
  await removeObjects(storage, kept);
  await repo.deleteOriginal(db, fileId);
}

/** Originals go with their recording (file.deleted: manual, retention, erase) and with their company. */
export function originalRemoval(storage: ObjectStorage): HandlerSpec[] {
  return [
    on('file.deleted', async (event, tx) => {
      if (isId(event.data.id)) await discardOriginal(tx, storage, event.data.id);
    }),
    on('company.deleted', async (event, tx) => {
      if (!isId(event.data.id)) return;
      for (const kept of await repo.findCompanyOriginals(tx, event.data.id)) await removeObjects(storage, kept);
      await repo.deleteCompanyOriginals(tx, event.data.id);
    }),
  ];
}

export interface OriginalAudio {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  body?: Readable;
}

const Segments = z.array(SpeakerSegment);

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** The routes' logic: the company's ADMIN reads a kept original, and each read is recorded. */
export class OriginalsService {
  constructor(
    private readonly ctx: ServiceContext<TranscriptionConfig>,
    private readonly storage: ObjectStorage,
  ) {}

  /** Whether `identity` may read an original of this recording, and one is kept (the transcript's `hasOriginal`). */
  async readable(identity: Identity, transcript: { fileId: string; companyId: string }): Promise<boolean> {
    if (identity.role !== 'ADMIN' || identity.companyId !== transcript.companyId) return false;
    return (await repo.findOriginal(this.ctx.db, transcript.fileId)) !== null;
  }

  /** The transcript (by its id or its file's) and its original; another company's, or none kept, is not found. */
  private async find(identity: Identity, id: string) {
    // Only the company's ADMIN: not a platform administrator, not the uploader.
    if (identity.role !== 'ADMIN') throw forbidden("Only the company's ADMIN may read an unredacted original");
    const row = await findByEitherId(this.ctx.db, id, await scopeOf(this.ctx.db, identity));
    const kept = row ? await repo.findOriginal(this.ctx.db, row.fileId) : null;
    if (!row || !kept || kept.companyId !== row.companyId) throw notFound('Original');
    return { row, kept };
  }

  /** Announced (audited) before anything of the original is sent. */
  private async recordRead(
    identity: Identity,
    row: { id: string; fileId: string; companyId: string },
    what: 'words' | 'audio',
  ): Promise<void> {
    await this.ctx.transact(async (_tx, emit) => {
      emit({
        type: 'transcript.original_read',
        companyId: row.companyId,
        actor: actorOf(identity),
        data: { id: row.id, fileId: row.fileId, what },
      });
    });
  }

  private async open(key: string, range?: ByteRange): Promise<Readable> {
    try {
      return await this.storage.get(key, range);
    } catch (error) {
      if (!(error instanceof ObjectNotFoundError)) throw error;
      this.ctx.logger.error({ key }, 'kept original without its stored object');
      throw notFound('Original');
    }
  }

  async words(identity: Identity, input: { id: string }): Promise<OriginalWordsDto> {
    const { row, kept } = await this.find(identity, input.id);
    await this.recordRead(identity, row, 'words');
    const segments = Segments.parse(JSON.parse((await readAll(await this.open(kept.wordsKey))).toString('utf8')));
    return { fileId: row.fileId, speakerSegments: segments };
  }

  async audio(identity: Identity, input: { id: string; range?: string }): Promise<OriginalAudio> {
    const { row, kept } = await this.find(identity, input.id);
    const info = kept.audioKey ? await this.storage.stat(kept.audioKey) : null;
    if (!kept.audioKey || !info) throw notFound('Original audio');
    const range = parseRange(input.range, info.size);
    if (range.kind === 'unsatisfiable')
      return { status: 416, headers: { 'accept-ranges': 'bytes', 'content-range': `bytes */${info.size}` } };
    const slice = range.kind === 'partial' ? range.range : undefined;
    const length = slice ? slice.end - slice.start + 1 : info.size;
    await this.recordRead(identity, row, 'audio');
    return {
      status: slice ? 206 : 200,
      headers: {
        'content-type': kept.audioType ?? 'application/octet-stream',
        'accept-ranges': 'bytes',
        // Never kept by a browser or a proxy: each read must reach the server to be recorded.
        'cache-control': 'no-store',
        'content-length': String(length),
        ...(slice ? { 'content-range': `bytes ${slice.start}-${slice.end}/${info.size}` } : {}),
      },
      body: length === 0 ? undefined : await this.open(kept.audioKey, slice),
    };
  }
}
