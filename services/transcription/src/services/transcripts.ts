import { randomUUID } from 'node:crypto';
import {
  isId,
  MAX_WORD_LENGTH,
  TRANSCRIPT_MESSAGES,
  type Envelope,
  type StatusItem,
  type TranscriptDto,
  type TranscriptionStatus,
} from '@earshot/contracts';
import { actorOf, badRequest, companyScope, conflict, notFound, type Db, type Identity, type NewEvent, type ServiceContext } from '@earshot/kit';
import type { JobRow } from '../db/schema';
import * as jobsRepo from '../repositories/jobs';
import * as transcriptsRepo from '../repositories/transcripts';
import type { TranscriptSummary } from '../repositories/transcripts';
import { statusEvent } from './queue';
import { segmentText } from './segments';

type Emit = (event: NewEvent) => void;

/** The file service streams audio from here; the storage key is the path. */
export const UPLOAD_URL_PREFIX = '/api/uploads/';


interface UploadedData {
  id: string;
  storageKey: string;
  originalName: string;
  mimeType: string;
  size: number;
  clientId: string | null;
  uploadedBy: string | null;
}

/** file.uploaded: remember the file (for the transcript's file block) and queue its job. */
export async function applyFileUploaded(tx: Db, emit: Emit, envelope: Envelope): Promise<boolean> {
  const data = envelope.data as unknown as UploadedData;
  if (!isId(data.id) || !isId(envelope.companyId)) return false;
  const inserted = await transcriptsRepo.insertFromUpload(tx, {
    id: randomUUID(),
    fileId: data.id,
    companyId: envelope.companyId,
    storageKey: data.storageKey,
    filename: data.id,
    originalName: data.originalName,
    mimeType: data.mimeType,
    size: data.size,
    clientId: isId(data.clientId) ? data.clientId : null,
    uploadedBy: data.uploadedBy,
    uploadedAt: new Date(envelope.occurredAt),
  });
  if (!inserted || !(await jobsRepo.insertPending(tx, data.id, envelope.companyId))) return false;
  emit(statusEvent(envelope.companyId, data.id, 'pending', null, 0));
  return true;
}

/** file.deleted (a file removed some other way): forget its transcript and job; nothing to announce. */
export async function applyFileDeleted(tx: Db, envelope: Envelope): Promise<void> {
  const data = envelope.data as { id?: unknown };
  if (isId(data.id)) await transcriptsRepo.remove(tx, data.id);
}

function toDto(row: TranscriptSummary, job: JobRow | null): TranscriptDto {
  const status: TranscriptionStatus = job?.status ?? (row.completedAt ? 'completed' : 'not_started');
  const url = UPLOAD_URL_PREFIX + row.storageKey;
  const ready = row.completedAt !== null;
  return {
    _id: row.id,
    fileId: row.fileId,
    companyId: row.companyId,
    audioPath: url,
    status,
    reason: job?.reason ?? null,
    clientId: row.clientId,
    engine: row.engine,
    file: { url, path: row.storageKey, filename: row.filename, originalName: row.originalName, uploadDate: row.uploadedAt.toISOString() },
    metadata: {
      duration: row.duration,
      peaksUrl: ready ? `/api/transcripts/${row.fileId}/peaks` : null,
      speakers: row.speakers,
      speakerSegments: row.segments,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toStatus = (job: JobRow): StatusItem => ({
  fileId: job.fileId,
  status: job.status,
  reason: job.reason,
  attempts: job.attempts,
  updatedAt: job.updatedAt.toISOString(),
});

/** The routes' logic; every lookup is scoped to the caller's company (a HOST_ADMIN's: any). */
export class TranscriptService {
  constructor(private readonly ctx: ServiceContext, private readonly onQueued: () => void) {}

  async byFile(identity: Identity, fileId: string): Promise<TranscriptDto> {
    const row = await transcriptsRepo.findByFile(this.ctx.db, fileId, companyScope(identity));
    if (!row) throw notFound('Transcript');
    return toDto(row, await jobsRepo.findJob(this.ctx.db, fileId));
  }

  async peaks(identity: Identity, fileId: string) {
    const row = await transcriptsRepo.findPeaks(this.ctx.db, fileId, companyScope(identity));
    if (!row?.peaks) throw notFound('Waveform');
    return row.peaks;
  }

  async statuses(identity: Identity, fileIds?: string): Promise<StatusItem[]> {
    const ids = fileIds ? [...new Set(fileIds.toLowerCase().split(','))] : undefined;
    if (ids && ids.length > 200) throw badRequest('Ask for at most 200 files at once', { field: 'query.fileIds' });
    if (ids && !ids.every(isId)) throw badRequest('Invalid query.fileIds: must be file ids', { field: 'query.fileIds' });
    return (await jobsRepo.listStatuses(this.ctx.db, companyScope(identity), ids)).map(toStatus);
  }

  /** Queues a file again (retry after failure, or a re-run); a job that is running now is a 409. */
  async transcribe(identity: Identity, fileId: string, ip: string): Promise<{ message: string; fileId: string; status: TranscriptionStatus }> {
    await this.ctx.transact(async (tx, emit) => {
      const row = await transcriptsRepo.findByFile(tx, fileId, companyScope(identity));
      if (!row) throw notFound('File');
      const job = await jobsRepo.findJob(tx, fileId);
      if (!job) {
        await jobsRepo.insertPending(tx, fileId, row.companyId);
      } else if (!(await jobsRepo.requeue(tx, fileId))) {
        throw conflict(TRANSCRIPT_MESSAGES.alreadyRunning);
      }
      emit(statusEvent(row.companyId, fileId, 'pending', null, 0, actorOf(identity, ip)));
    });
    this.onQueued();
    return { message: TRANSCRIPT_MESSAGES.queued, fileId, status: 'pending' };
  }

  async editWord(identity: Identity, ip: string, transcriptId: string, wordId: string, body: { text: string; speakerSegmentId: string }): Promise<{ message: string }> {
    const text = body.text.trim();
    if (!text) throw badRequest(TRANSCRIPT_MESSAGES.wordFailed, { field: 'body.text', reason: 'The word cannot be empty' });
    if (text.length > MAX_WORD_LENGTH) throw badRequest(TRANSCRIPT_MESSAGES.wordFailed, { field: 'body.text', reason: `The word can be at most ${MAX_WORD_LENGTH} characters` });
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(text)) throw badRequest(TRANSCRIPT_MESSAGES.wordFailed, { field: 'body.text', reason: 'The word cannot contain control characters' });
    await this.ctx.transact(async (tx, emit) => {
      const found = await transcriptsRepo.locateWord(tx, transcriptId, companyScope(identity), body.speakerSegmentId, wordId);
      if (!found) throw notFound('Word');
      const before = found.words[found.wordIndex]!.text;
      const words = found.words.map((w, i) => (i === found.wordIndex ? { ...w, text } : w));
      const newSegmentText = segmentText(words);
      await transcriptsRepo.writeWord(tx, transcriptId, found, text, newSegmentText);
      emit({
        type: 'transcript.word_edited',
        companyId: found.companyId,
        actor: actorOf(identity, ip),
        data: { id: transcriptId, fileId: found.fileId, wordId, segmentId: body.speakerSegmentId, segmentText: newSegmentText, before: { text: before }, after: { text } },
      });
    });
    return { message: TRANSCRIPT_MESSAGES.wordUpdated };
  }

  /**
   * Links a transcript to a client (or unlinks with null). The client id is recorded as given:
   * checking that it is a client of the same company comes with the clients (tenant) work.
   */
  async linkClient(identity: Identity, ip: string, transcriptId: string, clientId: string | null) {
    return this.ctx.transact(async (tx, emit) => {
      const row = await transcriptsRepo.findByEitherId(tx, transcriptId, companyScope(identity));
      if (!row) throw notFound('Transcript');
      if (row.clientId !== clientId) {
        await transcriptsRepo.setClient(tx, row.id, clientId);
        emit({
          type: 'transcript.client_linked',
          companyId: row.companyId,
          actor: actorOf(identity, ip),
          data: { id: row.id, fileId: row.fileId, before: { clientId: row.clientId }, after: { clientId } },
        });
      }
      return {
        message: clientId ? TRANSCRIPT_MESSAGES.clientLinked : TRANSCRIPT_MESSAGES.clientUnlinked,
        transcriptId: row.id,
        fileId: row.fileId,
        clientId,
      };
    });
  }

  /** Deletes transcript and job; transcript.deleted makes the file service remove the file and its audio. */
  async remove(identity: Identity, ip: string, id: string) {
    return this.ctx.transact(async (tx, emit) => {
      const row = await transcriptsRepo.findByEitherId(tx, id, companyScope(identity));
      if (!row) throw notFound('Transcript');
      await transcriptsRepo.remove(tx, row.fileId);
      emit({ type: 'transcript.deleted', companyId: row.companyId, actor: actorOf(identity, ip), data: { id: row.id, fileId: row.fileId } });
      return { message: TRANSCRIPT_MESSAGES.deleted, id: row.id, fileId: row.fileId };
    });
  }
}
