import { SYSTEM_ACTOR, textParts, type Actor, type TranscriptionStatus } from '@earshot/contracts';
import type { NewEvent, ServiceContext } from '@earshot/kit';
import * as jobsRepo from '../repositories/jobs';
import { segmentFacts, speakersEvent } from './facts';
import { redactedForCompany, type AudioRedaction } from '../redaction/policy';
import { wordsOf } from './words-encryption';
import type { ClaimedJob } from '../repositories/jobs';
import type { TranscriptResult } from '../repositories/transcripts';
import type { JobError } from './job-error';
import { queueWait } from '../metrics';

export type { ClaimedJob } from '../repositories/jobs';

export interface QueueSettings {
  leaseMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** Jobs of one company running at once across every worker. */
  companyConcurrency: number;
}

export const ABANDONED_REASON = 'The transcription worker stopped responding on every attempt';
/** Back-off never waits longer than this between two attempts. */
const MAX_RETRY_DELAY_MS = 3_600_000;

export function statusEvent(
  companyId: string,
  fileId: string,
  status: TranscriptionStatus,
  reason: string | null,
  attempt?: number,
  actor: Actor = SYSTEM_ACTOR,
): NewEvent {
  return {
    type: 'transcript.status_changed',
    companyId,
    actor,
    data: { fileId, status, reason, ...(attempt !== undefined ? { attempt } : {}) },
  };
}

/** What a queued job is expected to cost: its length and the engine (and configured model) that will transcribe it. */
export interface QueuedFacts {
  estimatedSeconds?: number;
  engine: string;
  modelId: string | null;
}

/** A job queued (first, or again by a person): the status event carries what credits reserve for it. */
export function queuedEvent(
  companyId: string,
  fileId: string,
  facts: QueuedFacts,
  actor: Actor = SYSTEM_ACTOR,
): NewEvent {
  const event = statusEvent(companyId, fileId, 'pending', null, 0, actor);
  return { ...event, data: { ...event.data, ...facts } };
}

/** The delay before attempt `attempts + 1`: base, 2×base, 4×base... */
export function retryDelayMs(settings: QueueSettings, attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, settings.retryBaseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Claims the next job for `workerId`, fairly between companies (and first fails jobs abandoned after their last attempt).
 * The claim and its status event commit together.
 */
export async function claimNext(
  ctx: ServiceContext,
  workerId: string,
  settings: QueueSettings,
): Promise<ClaimedJob | null> {
  const claimed = await ctx.transact(async (tx, emit) => {
    for (const dead of await jobsRepo.failAbandoned(tx, settings.maxAttempts, ABANDONED_REASON)) {
      emit(statusEvent(dead.companyId, dead.fileId, 'failed', ABANDONED_REASON, dead.attempts));
    }
    const job = await jobsRepo.claim(tx, workerId, settings.leaseMs, settings.companyConcurrency);
    if (job) emit(statusEvent(job.companyId, job.fileId, 'processing', null, job.attempts));
    return job;
  });
  if (!claimed) return null;
  const { waitedSeconds, ...job } = claimed;
  queueWait.observe(waitedSeconds);
  return job;
}

/**
 * Stores the result if, and only if, the job is still this worker's: the lease check and the
 * transcript write share one transaction. False means another worker owns it now (or it was
 * deleted): the result is dropped, so a job is never completed twice.
 */
export async function completeJob(
  ctx: ServiceContext,
  job: ClaimedJob,
  result: TranscriptResult,
  modelId: string | null = null,
  audio: AudioRedaction | null = null,
): Promise<boolean> {
  return ctx.transact(async (tx, emit) => {
    if (!(await jobsRepo.lockIfOwned(tx, job.fileId, job.workerId))) return false;
    // Redacted before anything is stored or published: the search index, the events (and so the
    // chat, prompt and AI providers' copies) and exports only ever see the labels.
    const stored = await redactedForCompany(tx, job.companyId, result);
    // Stored sealed when the company encrypts its words, and indexed.
    const { id, originalName } = await wordsOf(ctx).saveResult(tx, job.companyId, job.fileId, stored);
    await jobsRepo.finish(tx, job.fileId, 'completed', null);
    emit(statusEvent(job.companyId, job.fileId, 'completed', null, job.attempts));
    completionEvents(job.companyId, { id, fileId: job.fileId, fileName: originalName }, stored, modelId).forEach(emit);
    if (audio)
      emit({
        type: 'transcript.audio_redacted',
        companyId: job.companyId,
        actor: SYSTEM_ACTOR,
        data: { fileId: job.fileId, ...audio },
      });
    return true;
  });
}

/**
 * transcript.completed and, after it, the text in bounded transcript.text_published parts (no
 * event grows with the recording: a 3-hour transcript is about 30 parts of at most 64 KB), then
 * transcript.speakers_changed with the speakers' names.
 * `modelId` is the configured speech-to-text model that transcribed it (null: the engine of the
 * server's own configuration), for its price.
 */
export function completionEvents(
  companyId: string,
  transcript: { id: string; fileId: string; fileName: string },
  result: TranscriptResult,
  modelId: string | null = null,
): NewEvent[] {
  const parts = textParts(segmentFacts(result.segments, result.speakers));
  const words = result.segments.reduce((n, s) => n + s.words.length, 0);
  const event = (type: NewEvent['type'], data: NewEvent['data']): NewEvent => ({
    type,
    companyId,
    actor: SYSTEM_ACTOR,
    data,
  });
  return [
    event('transcript.completed', {
      ...transcript,
      engine: result.engine,
      duration: result.duration,
      speakers: result.speakers.length,
      words,
      parts: parts.length,
      modelId,
    }),
    ...parts.map((segments, part) =>
      event('transcript.text_published', { ...transcript, part, parts: parts.length, segments }),
    ),
    // The speakers by name, as after a rename: the file service filters its list by them.
    speakersEvent(companyId, { id: transcript.id, fileId: transcript.fileId }, result.speakers, SYSTEM_ACTOR),
  ];
}

/** Records a failed attempt: retried later with back-off while attempts remain and it may help, else failed. */
export async function failJob(
  ctx: ServiceContext,
  job: ClaimedJob,
  error: JobError,
  settings: QueueSettings,
): Promise<'retry' | 'failed' | 'lost'> {
  return ctx.transact(async (tx, emit) => {
    if (!(await jobsRepo.lockIfOwned(tx, job.fileId, job.workerId))) return 'lost';
    if (error.retryable && job.attempts < settings.maxAttempts) {
      await jobsRepo.scheduleRetry(tx, job.fileId, error.reason, retryDelayMs(settings, job.attempts));
      emit(statusEvent(job.companyId, job.fileId, 'pending', error.reason, job.attempts));
      return 'retry';
    }
    await jobsRepo.finish(tx, job.fileId, 'failed', error.reason);
    emit(statusEvent(job.companyId, job.fileId, 'failed', error.reason, job.attempts));
    return 'failed';
  });
}

/** A stopping worker gives its job back for another worker to take at once. */
export async function releaseJob(ctx: ServiceContext, job: ClaimedJob): Promise<void> {
  await ctx.transact(async (tx, emit) => {
    if (!(await jobsRepo.lockIfOwned(tx, job.fileId, job.workerId))) return;
    await jobsRepo.release(tx, job.fileId);
    emit(statusEvent(job.companyId, job.fileId, 'pending', null));
  });
}
