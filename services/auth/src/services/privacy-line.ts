import { SYSTEM_ACTOR, type PrivacyQueueDto } from '@earshot/contracts';
import { badRequest, companyScope, type Db, type Emit, type Identity, type NewEvent } from '@earshot/kit';
import type { PrivacyJobRow } from '../db/privacy';
import {
  companyPrivacyLine,
  finishPrivacyJob,
  lockPrivacyLine,
  nextDueJob,
  startPrivacyJob,
} from '../repositories/privacy';
import type { AuthBase } from './context';

/** How many of a company's waiting jobs its queue lists (the count is always whole). */
const LINE_LISTED = 100;

/** The event that asks every service for its part of a job: sent when the job starts, not when it is asked for. */
function requestedEvent(job: PrivacyJobRow): NewEvent {
  const actor = job.actor ?? SYSTEM_ACTOR;
  const subject = { kind: job.subjectKind, id: job.subjectId };
  return job.kind === 'export'
    ? { type: 'privacy.export_requested', companyId: job.companyId, actor, data: { jobId: job.id, subject } }
    : {
        type: 'privacy.erase_requested',
        companyId: job.companyId,
        actor,
        data: { jobId: job.id, subject, recordings: job.recordings ?? 'keep' },
      };
}

/**
 * Starts every queued job whose turn has come, in the caller's transaction, each with its event
 * in the same outbox: a company with `cap` jobs running waits; among the others the one with the
 * fewest running goes first, then the one whose last start is oldest, each with its oldest job. A
 * job starts once (only a queued one starts), so a redelivered end or a restart starts nothing twice.
 */
export async function startDueJobs(tx: Db, emit: Emit, cap: number): Promise<void> {
  await lockPrivacyLine(tx);
  for (let job = await nextDueJob(tx, cap); job; job = await nextDueJob(tx, cap)) {
    const started = await startPrivacyJob(tx, job.id);
    if (started) emit(requestedEvent(started));
  }
}

/** A running job is done, and the next in line starts in the same transaction (once: a second end is nothing). */
export async function endPrivacyJob(
  tx: Db,
  emit: Emit,
  cap: number,
  jobId: string,
  zipKey: string | null,
): Promise<void> {
  if (await finishPrivacyJob(tx, jobId, zipKey)) await startDueJobs(tx, emit, cap);
}

/**
 * A company's share of the privacy jobs, for its ADMIN (HOST_ADMIN names the company): the cap,
 * what runs and waits, and each waiting job's place in the company's line.
 */
export async function companyQueue(
  ctx: AuthBase,
  identity: Identity,
  input: { companyId?: string },
): Promise<PrivacyQueueDto> {
  const companyId = companyScope(identity, input.companyId);
  if (companyId === null) throw badRequest('Name the company whose queue to show', { field: 'query.companyId' });
  const line = await companyPrivacyLine(ctx.db, companyId, LINE_LISTED);
  return {
    companyId,
    cap: ctx.config.PRIVACY_COMPANY_CONCURRENCY,
    running: line.running,
    pending: line.pending,
    items: line.queued.map((job, index) => ({
      jobId: job.id,
      kind: job.kind,
      subject: { kind: job.subjectKind, id: job.subjectId },
      position: index + 1,
      createdAt: job.createdAt.toISOString(),
    })),
  };
}
