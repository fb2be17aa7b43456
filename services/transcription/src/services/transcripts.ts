import { randomUUID } from 'node:crypto';
import {
  isId,
  redactedField,
  MAX_WORD_LENGTH,
  TRANSCRIPT_MESSAGES,
  UPLOAD_URL_PREFIX,
  type EventOf,
  type SpeakerSegment,
  type StatusItem,
  type TranscriptDto,
  type TranscriptionStatus,
} from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  conflict,
  forbidden,
  notFound,
  spenderOf,
  type CreditGate,
  type Db,
  type Identity,
  type NewEvent,
  type ServiceContext,
} from '@earshot/kit';
import type { TranscriptionConfig } from '../config';
import type { JobRow } from '../db/schema';
import { clientExists } from '../repositories/clients';
import * as jobsRepo from '../repositories/jobs';
import * as transcriptsRepo from '../repositories/transcripts';
import type { Scope, TranscriptSummary } from '../repositories/transcripts';
import type { EngineChoice } from '../runtime';
import { queuedEvent } from './queue';
import { checkVersion, commitChange } from './edits/service';
import { editWord as editWordOp } from './edits/ops';
import { scopeOf } from './scope';
import { assertNotHeld } from './holds';
import { wordsOf, type SegmentsOpening, type TranscriptWords } from './words-encryption';

type Emit = (event: NewEvent) => void;

/**
 * file.uploaded: remember the file (for the transcript's file block) and queue its job, announced
 * with its estimated length and the engine (and model) that will transcribe it, for credits.
 */
export async function applyFileUploaded(
  tx: Db,
  emit: Emit,
  event: EventOf<'file.uploaded'>,
  choice: EngineChoice,
): Promise<void> {
  const { data } = event;
  if (!isId(data.id) || !isId(event.companyId)) return;
  const inserted = await transcriptsRepo.insertFromUpload(tx, {
    id: randomUUID(),
    fileId: data.id,
    companyId: event.companyId,
    storageKey: data.storageKey,
    filename: data.id,
    originalName: data.originalName,
    mimeType: data.mimeType,
    size: data.size,
    clientId: isId(data.clientId) ? data.clientId : null,
    uploadedBy: data.uploadedBy,
    uploadedAt: new Date(event.occurredAt),
    estimatedSeconds: data.estimatedSeconds ?? null,
    language: languageOf(data.language),
    expectedSpeakers: speakersOf(data.speakers),
  });
  if (!inserted || !(await jobsRepo.insertPending(tx, data.id, event.companyId))) return;
  emit(queuedEvent(event.companyId, data.id, { ...estimate(data.estimatedSeconds), ...(await choice(tx)) }));
}

/**
 * The language the uploader declared, `auto` (the engine detects it) included, until the
 * transcript replaces it with the one recognised; none (null: the company's language applies)
 * when the upload named none or something unlike a language code.
 */
function languageOf(language: string | undefined): string | null {
  return language && (language === 'auto' || /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(language)) ? language : null;
}

/** The speaker count the uploader gave, when it is one the upload form allows (1-10). */
function speakersOf(speakers: number | undefined): number | null {
  return Number.isInteger(speakers) && speakers! >= 1 && speakers! <= 10 ? speakers! : null;
}

/** The estimate when one is known (files uploaded before estimates, or by an older file service, have none). */
function estimate(seconds: number | null | undefined): { estimatedSeconds?: number } {
  return seconds === null || seconds === undefined ? {} : { estimatedSeconds: seconds };
}

/** file.deleted (a file removed some other way): forget its transcript and job; nothing to announce. */
export async function applyFileDeleted(tx: Db, event: EventOf<'file.deleted'>): Promise<void> {
  if (isId(event.data.id)) await transcriptsRepo.remove(tx, event.data.id);
}

/** A transcript as read: its segments opened (sealed ones decrypted, see words-encryption.ts). */
export type OpenedTranscript = Omit<TranscriptSummary, 'segments'> & { segments: SpeakerSegment[] };

/** The API shape of a transcript (also what the JSON export writes). */
export function toDto(row: OpenedTranscript, job: JobRow | null): TranscriptDto {
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
    // "Detect" is a request, not a language: unknown until the transcript says what was heard.
    language: row.language === 'auto' ? null : row.language,
    model: row.model,
    file: {
      url,
      path: row.storageKey,
      filename: row.filename,
      originalName: row.originalName,
      uploadDate: row.uploadedAt.toISOString(),
    },
    metadata: {
      duration: row.duration,
      peaksUrl: ready ? `/api/transcripts/${row.fileId}/peaks` : null,
      speakers: row.speakers,
      speakerSegments: row.segments,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    // Read in the same row as the words: the version of exactly these words, the base of an edit.
    version: row.editVersion,
  };
}

const toStatus = (job: JobRow): StatusItem => ({
  fileId: job.fileId,
  companyId: job.companyId,
  status: job.status,
  reason: job.reason,
  attempts: job.attempts,
  updatedAt: job.updatedAt.toISOString(),
});

/**
 * A transcript the scope may read, as the API shows it (null: not found). The job is read before
 * the transcript: completeJob writes the job's status and the result in one transaction, so a job
 * seen completed means the row read after it has the words. Read the other way round, a job that
 * completed between the two reads answered "completed" with no words (seen in the distributed suite).
 */
export async function findTranscript(
  db: Db,
  words: TranscriptWords,
  fileId: string,
  scope: Scope,
): Promise<TranscriptDto | null> {
  const job = await jobsRepo.findJob(db, fileId);
  const row = await transcriptsRepo.findByFile(db, fileId, scope);
  return row ? toDto(await words.openRow(db, row), job) : null;
}

/**
 * A transcript without its segments, what opens them when they are sealed (else null), and the
 * version of its row they are to be read at (transcriptsRepo.readSegmentPieces).
 */
export interface TranscriptHeader {
  transcript: TranscriptDto;
  sealed: SegmentsOpening | null;
  rowVersion: string;
}

/**
 * As findTranscript, without the segments (none in the transcript): for a reader that takes them
 * apart in pieces (readSegmentPieces) and parses, when sealed opens, them off the event loop (exports).
 */
export async function findTranscriptHeader(
  db: Db,
  words: TranscriptWords,
  fileId: string,
  scope: Scope,
): Promise<TranscriptHeader | null> {
  const job = await jobsRepo.findJob(db, fileId);
  const row = await transcriptsRepo.findHeader(db, fileId, scope);
  if (!row) return null;
  const { sealed, rowVersion, ...rest } = row;
  return {
    transcript: toDto({ ...rest, segments: [] }, job),
    sealed: sealed ? await words.segmentsOpening(db, row.companyId, row.fileId) : null,
    rowVersion,
  };
}

/**
 * Who may delete a recording or run its transcription again: the person who uploaded it, an ADMIN
 * of its company or a HOST_ADMIN. Reading and correcting words stays open to every member: a
 * company works on its transcripts together, but one member's recording is not another's to drop.
 */
export function mayManage(identity: Identity, row: { companyId: string; uploadedBy: string | null }): boolean {
  if (identity.role === 'HOST_ADMIN') return true;
  if (identity.role === 'ADMIN') return identity.companyId === row.companyId;
  return row.uploadedBy !== null && row.uploadedBy === identity.userId;
}

export interface WordEdit {
  transcriptId: string;
  wordId: string;
  speakerSegmentId: string;
  text: string;
}

/**
 * The routes' logic; every lookup is scoped to the caller's company (a HOST_ADMIN's: any) and, in
 * a b2c company, to the caller's own recordings (another member's is simply not found).
 */
export class TranscriptService {
  private readonly words: TranscriptWords;

  constructor(
    private readonly ctx: ServiceContext<TranscriptionConfig>,
    private readonly onQueued: () => void,
    private readonly choice: EngineChoice,
    private readonly credits: CreditGate,
  ) {
    this.words = wordsOf(ctx);
  }

  /** Read before any transaction: PGlite's one connection would wait on itself inside one. */
  private scope(identity: Identity, requestedCompany?: string): Promise<Scope> {
    return scopeOf(this.ctx.db, identity, requestedCompany);
  }

  async byFile(identity: Identity, input: { fileId: string }): Promise<TranscriptDto> {
    const found = await findTranscript(this.ctx.db, this.words, input.fileId, await this.scope(identity));
    if (!found) throw notFound('Transcript');
    return found;
  }

  async peaks(identity: Identity, input: { fileId: string }) {
    const row = await transcriptsRepo.findPeaks(this.ctx.db, input.fileId, await this.scope(identity));
    if (!row?.peaks) throw notFound('Waveform');
    return row.peaks;
  }

  /** Statuses of the caller's company's files (a HOST_ADMIN: of `companyId`, or of every company). */
  async statuses(identity: Identity, input: { fileIds?: string; companyId?: string }): Promise<StatusItem[]> {
    const ids = input.fileIds ? [...new Set(input.fileIds.toLowerCase().split(','))] : undefined;
    if (ids && ids.length > 200) throw badRequest('Ask for at most 200 files at once', { field: 'query.fileIds' });
    if (ids && !ids.every(isId))
      throw badRequest('Invalid query.fileIds: must be file ids', { field: 'query.fileIds' });
    return (await jobsRepo.listStatuses(this.ctx.db, await this.scope(identity, input.companyId), ids)).map(toStatus);
  }

  /** Queues a file again (retry after failure, or a re-run); a job that is running now is a 409. */
  async transcribe(
    identity: Identity,
    input: { fileId: string },
  ): Promise<{ message: string; fileId: string; status: TranscriptionStatus }> {
    const { fileId } = input;
    const scope = await this.scope(identity);
    // A run again is new AI work: refused for credits, cap or price before anything changes (as an
    // upload is), and outside the transaction (PGlite's one connection).
    const found = await transcriptsRepo.findByFile(this.ctx.db, fileId, scope);
    if (!found) throw notFound('File');
    if (!mayManage(identity, found)) throw forbidden(TRANSCRIPT_MESSAGES.notYours);
    const { engine, modelId } = await this.choice(this.ctx.db);
    await this.credits.assertCanSpend({
      companyId: found.companyId,
      userId: spenderOf(identity),
      feature: 'transcription',
      engine,
      modelId,
    });
    await this.ctx.transact(async (tx, emit) => {
      // Read again in the transaction: the recording may have been deleted since (no job for a file
      // that is gone), or a run may have measured its length. Who may manage it cannot change (its
      // company and uploader are fixed): the check above holds.
      const row = await transcriptsRepo.findByFile(tx, fileId, scope);
      if (!row) throw notFound('File');
      const job = await jobsRepo.findJob(tx, fileId);
      if (!job) {
        await jobsRepo.insertPending(tx, fileId, row.companyId);
      } else if (!(await jobsRepo.requeue(tx, fileId))) {
        throw conflict(TRANSCRIPT_MESSAGES.alreadyRunning);
      }
      // A run again costs again: its length is known exactly once a run has measured it. The event
      // names the engine and model the credits were checked for.
      emit(
        queuedEvent(
          row.companyId,
          fileId,
          { ...estimate(row.duration ?? row.estimatedSeconds), engine, modelId },
          actorOf(identity),
        ),
      );
    });
    this.onQueued();
    return { message: TRANSCRIPT_MESSAGES.queued, fileId, status: 'pending' };
  }

  /**
   * The answer is the spec's message and what redaction hid; the edit's id travels beside it for
   * the undo stack. transcript.word_edited tells the word as stored: with the company's redaction
   * on, a number typed into it is its label (or the label of the number it completes).
   */
  async editWord(
    identity: Identity,
    input: WordEdit & { baseVersion?: number },
  ): Promise<{ message: string; editId: string | null; redacted?: number; version: number }> {
    const { transcriptId, wordId, speakerSegmentId } = input;
    const text = input.text.trim();
    if (!text)
      throw badRequest(TRANSCRIPT_MESSAGES.wordFailed, { field: 'body.text', reason: 'The word cannot be empty' });
    if (text.length > MAX_WORD_LENGTH)
      throw badRequest(TRANSCRIPT_MESSAGES.wordFailed, {
        field: 'body.text',
        reason: `The word can be at most ${MAX_WORD_LENGTH} characters`,
      });
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(text))
      throw badRequest(TRANSCRIPT_MESSAGES.wordFailed, {
        field: 'body.text',
        reason: 'The word cannot contain control characters',
      });
    const scope = await this.scope(identity);
    const { editId, redacted, version } = await this.ctx.transact(async (tx, emit) => {
      const target = await this.words.lockForEdit(tx, { transcriptId }, scope);
      const segment = target?.segments.find((s) => s._id === speakerSegmentId);
      const word = segment?.words.find((w) => w._id === wordId);
      if (!target || !segment || !word) throw notFound('Word');
      checkVersion(target, input.baseVersion);
      // Recorded as an edit (history, undo); other services follow transcript.word_edited as before.
      const change = editWordOp(target, speakerSegmentId, wordId, text);
      const applied = await commitChange(tx, emit, identity, this.words, target, change, false);
      const stored = applied.segments.find((s) => s._id === speakerSegmentId);
      // A hidden span becomes one word with its first word's id: the edited word may be inside it.
      const now = stored?.words.find((w) => w._id === wordId) ?? stored?.words.findLast((w) => w.start <= word.start);
      emit({
        type: 'transcript.word_edited',
        companyId: target.companyId,
        actor: actorOf(identity),
        data: {
          id: transcriptId,
          fileId: target.fileId,
          wordId,
          segmentId: speakerSegmentId,
          segmentText: stored?.text ?? segment.text,
          before: { text: word.text },
          after: { text: now?.text ?? text },
        },
      });
      return applied;
    });
    return { message: TRANSCRIPT_MESSAGES.wordUpdated, editId, version, ...redactedField(redacted) };
  }

  /**
   * Links a transcript to a client of its own company (or unlinks with null). Which clients exist
   * is known from the tenant service's client events: an unknown client, or one of another
   * company, is not found.
   */
  async linkClient(identity: Identity, input: { transcriptId: string; clientId: string | null }) {
    const { transcriptId, clientId } = input;
    const scope = await this.scope(identity);
    return this.ctx.transact(async (tx, emit) => {
      const row = await transcriptsRepo.findByEitherId(tx, transcriptId, scope);
      if (!row) throw notFound('Transcript');
      if (clientId && !(await clientExists(tx, clientId, row.companyId))) throw notFound('Client');
      if (row.clientId !== clientId) {
        await transcriptsRepo.setClient(tx, row.id, clientId);
        await this.words.reindex(tx, row.companyId, row.fileId);
        emit({
          type: 'transcript.client_linked',
          companyId: row.companyId,
          actor: actorOf(identity),
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
  async remove(identity: Identity, input: { id: string }) {
    const scope = await this.scope(identity);
    return this.ctx.transact(async (tx, emit) => {
      const row = await transcriptsRepo.findByEitherId(tx, input.id, scope);
      if (!row) throw notFound('Transcript');
      if (!mayManage(identity, row)) throw forbidden(TRANSCRIPT_MESSAGES.notYours);
      await assertNotHeld(tx, row);
      await transcriptsRepo.remove(tx, row.fileId);
      emit({
        type: 'transcript.deleted',
        companyId: row.companyId,
        actor: actorOf(identity),
        data: { id: row.id, fileId: row.fileId },
      });
      return { message: TRANSCRIPT_MESSAGES.deleted, id: row.id, fileId: row.fileId };
    });
  }
}
