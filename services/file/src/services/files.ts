import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import {
  FILE_MESSAGES,
  UPLOAD_URL_PREFIX,
  UploadFields,
  type FileItemDto,
  type FileList,
  type FileListQuery,
  type UploadedFileDto,
} from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  companyScope,
  forbidden,
  HttpError,
  notFound,
  ObjectNotFoundError,
  parseRange,
  spenderOf,
  tooLarge,
  unsupported,
  type CreditGate,
  type Db,
  type Identity,
  type ObjectStorage,
  type ServiceContext,
} from '@earshot/kit';
import type { FileConfig } from '../config';
import type { FileRow } from '../db/schema';
import type { FileWithTags } from '../repositories/files';
import * as filesRepo from '../repositories/files';
import * as companiesRepo from '../repositories/companies';
import { companyTypes } from './company-types';
import { estimateSeconds } from './audio-length';
import { UploadGuard, UploadRejected } from './upload-guard';
import { contentDisposition, sanitiseOriginalName } from './names';

/** Room for the multipart envelope (boundaries, part headers, the text fields) around the file. */
export const MULTIPART_OVERHEAD = 64 * 1024;
const FILE_STATUS = 'completed';
const KEY_SHAPE =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const DAY_MS = 86_400_000;
const dayStart = (day: string): Date => new Date(`${day}T00:00:00Z`);

const FIELD_NAMES = Object.keys(UploadFields.shape);

/** One text field of the upload, checked by its schema in UploadFields: a bad one is a 400 naming it. */
function readField(fields: UploadFields, name: string, value: unknown): void {
  if (!FIELD_NAMES.includes(name))
    throw badRequest(`Unknown field "${name.slice(0, 50)}": only ${FIELD_NAMES.join(', ')} and the file are accepted`);
  const parsed = UploadFields.shape[name as keyof UploadFields].safeParse(String(value).trim());
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Invalid value';
    throw badRequest(`Invalid ${name}: ${message}`, [{ field: name, message }]);
  }
  Object.assign(fields, { [name]: parsed.data });
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

export function toItem(row: FileWithTags): FileItemDto {
  return {
    _id: row.id,
    companyId: row.companyId,
    originalName: row.originalName,
    filename: row.filename,
    size: row.size,
    mimeType: row.mimeType,
    uploadDate: row.uploadedAt.toISOString(),
    status: row.status as FileItemDto['status'],
    transcriptionStatus: row.transcriptionStatus as FileItemDto['transcriptionStatus'],
    transcriptionError: row.transcriptionError,
    clientId: row.clientId,
    url: UPLOAD_URL_PREFIX + row.storageKey,
    path: row.storageKey,
    tags: row.tags,
    language: row.language,
    expectedSpeakers: row.expectedSpeakers,
    speakers: row.speakers,
    hold: row.held,
    holdReason: row.held ? row.holdReason : null,
    holdAt: row.held ? (row.holdAt?.toISOString() ?? null) : null,
  };
}

function toUploaded(row: FileRow): UploadedFileDto {
  const { _id, url, path, filename, originalName, size, mimeType, uploadDate, status } = toItem({ ...row, tags: [] });
  return { _id, url, path, filename, originalName, size, mimeType, uploadDate, status };
}

export interface UploadInput {
  /** The multipart parts of the request, read once. */
  parts: AsyncIterable<Multipart>;
  /** `?companyId=`: the company a HOST_ADMIN uploads to. */
  companyId?: string;
  /** The request's Content-Length, when it sent one. */
  declaredBytes?: number;
}

export interface AudioRequest {
  /** The storage key the URL names. */
  path: string;
  range?: string;
  headOnly: boolean;
}

export interface AudioResponse {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  body?: Readable;
}

interface StoredObject {
  id: string;
  key: string;
  size: number;
  mimeType: string;
  originalName: string;
  /** How long it plays, as its header (or else its size) tells: what its transcription is expected to cost. */
  estimatedSeconds: number;
}

/**
 * Uploads, lists and streams a company's audio; the HTTP layer stays in the routes. Members of a
 * company share its recordings, except in a b2c company, where each sees only their own.
 */
export class FileService {
  constructor(
    private readonly ctx: ServiceContext<FileConfig>,
    private readonly storage: ObjectStorage,
    private readonly credits: CreditGate,
  ) {}

  private get config(): FileConfig {
    return this.ctx.config;
  }

  /** What is left of the company's quota (Infinity when it has none). */
  private async remainingQuota(db: Db, companyId: string, maxStorage: number | null | undefined): Promise<number> {
    if (maxStorage === null || maxStorage === undefined) return Infinity;
    return maxStorage - (await filesRepo.usedStorage(db, companyId));
  }

  private tooLargeError(): HttpError {
    return tooLarge(`The file is larger than the upload limit of ${formatBytes(this.config.MAX_UPLOAD_BYTES)}`);
  }

  private rejection(reason: UploadRejected['reason']): HttpError {
    if (reason === 'unsupported') return unsupported(FILE_MESSAGES.unsupported);
    if (reason === 'quota') return tooLarge(FILE_MESSAGES.quota);
    return this.tooLargeError();
  }

  /** The company an upload belongs to: the caller's own; a HOST_ADMIN names one (or uses their own). */
  private async uploadCompany(identity: Identity, requested: string | undefined): Promise<string> {
    if (identity.role !== 'HOST_ADMIN') {
      if (!identity.companyId) throw forbidden('Your account belongs to no company');
      return identity.companyId;
    }
    const companyId = requested ?? identity.companyId;
    if (!companyId) throw badRequest(FILE_MESSAGES.companyRequired);
    if (requested && !(await companiesRepo.findCompany(this.ctx.db, requested))) throw notFound('Company');
    return companyId;
  }

  /** Turns stream and multipart failures into the answers the caller should see. */
  private uploadError(error: unknown): unknown {
    if (error instanceof UploadRejected) return this.rejection(error.reason);
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') return badRequest(FILE_MESSAGES.oneFile);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return badRequest('Too many form fields');
    if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'FST_MP_PREMATURE_CLOSE' || code === 'ECONNRESET') {
      return badRequest('The upload was interrupted');
    }
    // busboy's own parse errors carry no status: a malformed body is the caller's mistake.
    if (
      error instanceof Error &&
      !(error instanceof HttpError) &&
      (error as { statusCode?: number }).statusCode === undefined &&
      /multipart|boundary|part header|end of form/i.test(error.message)
    ) {
      return badRequest('Malformed multipart body');
    }
    return error;
  }

  /**
   * Streams the one file of a multipart upload into storage under a new key, then records it and
   * emits file.uploaded in one transaction. Non-audio (by content), more than MAX_UPLOAD_BYTES or
   * more than the company's remaining quota stops the stream at once; any failure removes what was
   * stored, so a rejected upload leaves neither an object nor a row. Every upload is transcribed,
   * which costs credits: a company with none left, or an uploader whose monthly cap is used, is
   * refused (402) before a byte of the body is read. Which engine or model will transcribe it is
   * the transcription service's choice, made when the job is queued; here only balance and cap
   * are asked.
   */
  async upload(identity: Identity, input: UploadInput): Promise<UploadedFileDto> {
    const companyId = await this.uploadCompany(identity, input.companyId);
    // A body declared far above the limit is refused before a byte of it is read.
    if (input.declaredBytes !== undefined && input.declaredBytes > this.config.MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD)
      throw this.tooLargeError();
    const company = await companiesRepo.findCompany(this.ctx.db, companyId);
    const quotaBytes = await this.remainingQuota(this.ctx.db, companyId, company?.maxStorage);
    if (quotaBytes <= 0) throw tooLarge(FILE_MESSAGES.quota);
    await this.credits.assertCanSpend({ companyId, userId: spenderOf(identity), feature: 'transcription' });

    let stored: StoredObject | undefined;
    const fields: UploadFields = {};
    try {
      for await (const part of input.parts) {
        if (part.type === 'field') {
          readField(fields, part.fieldname, part.value);
          continue;
        }
        if (stored) throw badRequest(FILE_MESSAGES.oneFile);
        stored = await this.storeFile(part.file, part.filename, companyId, quotaBytes);
      }
      if (!stored) throw badRequest(FILE_MESSAGES.noFile);
      return await this.record(stored, identity, companyId, fields);
    } catch (error) {
      if (stored) await this.removeQuietly(stored.key);
      throw this.uploadError(error);
    }
  }

  private async storeFile(
    file: Readable,
    filename: string | undefined,
    companyId: string,
    quotaBytes: number,
  ): Promise<StoredObject> {
    const guard = new UploadGuard({ maxBytes: this.config.MAX_UPLOAD_BYTES, quotaBytes });
    // Errors of either side reach the guard, and so the storage write that reads from it.
    pipeline(file, guard).catch(() => undefined);
    const type = await guard.detected;
    const id = randomUUID();
    const key = `${companyId}/${id}`;
    const { size } = await this.storage.put(key, guard, { contentType: type.mimeType });
    return {
      id,
      key,
      size,
      mimeType: type.mimeType,
      originalName: sanitiseOriginalName(filename),
      estimatedSeconds: estimateSeconds(guard.head, type, size),
    };
  }

  private async record(
    stored: StoredObject,
    identity: Identity,
    companyId: string,
    fields: UploadFields,
  ): Promise<UploadedFileDto> {
    const row = await this.ctx.transact(async (tx, emit) => {
      // Concurrent uploads of one company queue here, so together they cannot pass the quota.
      const company = await companiesRepo.lockCompany(tx, companyId);
      const remaining = await this.remainingQuota(tx, companyId, company?.maxStorage);
      if (stored.size > remaining) throw new UploadRejected('quota');
      const created = await filesRepo.insertFile(tx, {
        id: stored.id,
        companyId,
        storageKey: stored.key,
        filename: stored.id,
        originalName: stored.originalName,
        mimeType: stored.mimeType,
        size: stored.size,
        status: FILE_STATUS,
        clientId: fields.clientId ?? null,
        uploadedBy: identity.userId,
        transcriptionStatus: 'pending',
        transcriptionError: null,
        uploadedAt: new Date(),
        // `auto` is no language yet: the list's language filter finds only recordings declared in one.
        language: fields.language === 'auto' ? null : (fields.language ?? null),
        expectedSpeakers: fields.speakers ?? null,
      });
      emit({
        type: 'file.uploaded',
        companyId,
        actor: actorOf(identity),
        data: {
          id: created.id,
          storageKey: created.storageKey,
          originalName: created.originalName,
          mimeType: created.mimeType,
          size: created.size,
          clientId: created.clientId,
          uploadedBy: created.uploadedBy,
          estimatedSeconds: stored.estimatedSeconds,
          language: fields.language,
          speakers: fields.speakers,
        },
      });
      return created;
    });
    return toUploaded(row);
  }

  private async removeQuietly(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.ctx.logger.error({ err: error, key }, 'could not remove the object of a rejected upload');
    }
  }

  /** A page of the caller's recordings, narrowed by the query's filters (dates are whole UTC days). */
  async list(identity: Identity, query: FileListQuery): Promise<FileList> {
    const { page, pageSize, companyId, from, to, ...filters } = query;
    if (from && to && from > to)
      throw badRequest('Invalid query.to: must not be before from', [
        { field: 'query.to', message: 'must not be before from' },
      ]);
    const { rows, total } = await filesRepo.listFiles(
      this.ctx.db,
      {
        ...filters,
        companyId: companyScope(identity, companyId),
        owner: await companyTypes.ownerScope(this.ctx.db, identity),
        from: from ? dayStart(from) : undefined,
        before: to ? new Date(dayStart(to).getTime() + DAY_MS) : undefined,
      },
      page,
      pageSize,
    );
    return { items: rows.map(toItem), page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
  }

  async get(identity: Identity, input: { id: string }): Promise<FileItemDto> {
    const row = await filesRepo.findFile(
      this.ctx.db,
      input.id,
      companyScope(identity),
      await companyTypes.ownerScope(this.ctx.db, identity),
    );
    if (!row) throw notFound('File');
    return toItem(row);
  }

  /**
   * The audio at `path` (a storage key) for a caller of the owning company, whole or one byte
   * range. Anything that is not exactly a key of this company's files is simply not found.
   */
  async audio(identity: Identity, input: AudioRequest): Promise<AudioResponse> {
    const { path, headOnly } = input;
    if (!KEY_SHAPE.test(path)) throw notFound('File');
    const row = await filesRepo.findFileByKey(
      this.ctx.db,
      path,
      companyScope(identity),
      await companyTypes.ownerScope(this.ctx.db, identity),
    );
    if (!row) throw notFound('File');
    const range = parseRange(input.range, row.size);
    if (range.kind === 'unsatisfiable') {
      return { status: 416, headers: { 'accept-ranges': 'bytes', 'content-range': `bytes */${row.size}` } };
    }
    const headers: Record<string, string> = {
      'content-type': row.mimeType,
      'accept-ranges': 'bytes',
      'content-disposition': contentDisposition(row.originalName),
      'cache-control': 'private, max-age=3600',
      etag: `"${row.id}"`,
      'last-modified': row.uploadedAt.toUTCString(),
    };
    const slice = range.kind === 'partial' ? range.range : undefined;
    const length = slice ? slice.end - slice.start + 1 : row.size;
    const answer: AudioResponse = {
      status: slice ? 206 : 200,
      headers: {
        ...headers,
        'content-length': String(length),
        ...(slice ? { 'content-range': `bytes ${slice.start}-${slice.end}/${row.size}` } : {}),
      },
    };
    if (headOnly || length === 0) return answer;
    try {
      answer.body = await this.storage.get(row.storageKey, slice);
    } catch (error) {
      if (!(error instanceof ObjectNotFoundError)) throw error;
      this.ctx.logger.error({ fileId: row.id, key: row.storageKey }, 'file row without its stored object');
      throw notFound('File');
    }
    return answer;
  }
}
