import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import type { TranscriptionStatus } from '@earshot/contracts';
import { jobs, transcripts, type JobRow } from '../db/schema';
import type { Scope } from './transcripts';

interface RawJob {
  file_id: string;
  company_id: string;
  status: TranscriptionStatus;
  attempts: number;
  reason: string | null;
  locked_by: string | null;
}

/** What a worker holds after a claim. */
export interface ClaimedJob {
  fileId: string;
  companyId: string;
  attempts: number;
  workerId: string;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const inMs = (ms: number) => sql`now() + (${ms} * interval '1 millisecond')`;

export async function insertPending(tx: Db, fileId: string, companyId: string): Promise<boolean> {
  const rows = await tx
    .insert(jobs)
    .values({ fileId, companyId, status: 'pending' })
    .onConflictDoNothing()
    .returning({ fileId: jobs.fileId });
  return rows.length > 0;
}

/** Puts a job back in the queue from any state but 'processing' (retry or re-run); null when it is running. */
export async function requeue(tx: Db, fileId: string): Promise<JobRow | null> {
  const [row] = await tx
    .update(jobs)
    .set({
      status: 'pending',
      attempts: 0,
      reason: null,
      nextAttemptAt: sql`now()`,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.fileId, fileId), sql`${jobs.status} <> 'processing'`))
    .returning();
  return row ?? null;
}

export async function findJob(db: Db, fileId: string): Promise<JobRow | null> {
  const [row] = await db.select().from(jobs).where(eq(jobs.fileId, fileId)).limit(1);
  return row ?? null;
}

/**
 * Jobs whose lease ran out after their last allowed attempt: they fail rather than loop forever
 * (a recording that crashes every worker that touches it). Row locks make two sweeping workers
 * see each job once.
 */
export async function failAbandoned(
  tx: Db,
  maxAttempts: number,
  reason: string,
): Promise<{ fileId: string; companyId: string; attempts: number }[]> {
  const rows = rowsOf<RawJob>(
    await tx.execute(sql`
    update transcription.jobs set status = 'failed', reason = ${reason}, locked_by = null, locked_until = null, updated_at = now()
    where status = 'processing' and locked_until < now() and attempts >= ${maxAttempts}
    returning file_id, company_id, attempts`),
  );
  return rows.map((r) => ({ fileId: r.file_id, companyId: r.company_id, attempts: r.attempts }));
}

/**
 * Claims one job that is due (pending and past its back-off) or abandoned (processing with an
 * expired lease: its worker died). SKIP LOCKED lets many workers claim at once without waiting on
 * or taking each other's rows.
 */
export async function claim(tx: Db, workerId: string, leaseMs: number): Promise<ClaimedJob | null> {
  const rows = rowsOf<RawJob>(
    await tx.execute(sql`
    with candidate as (
      select file_id from transcription.jobs
      where (status = 'pending' and next_attempt_at <= now())
         or (status = 'processing' and locked_until < now())
      order by next_attempt_at, file_id
      limit 1
      for update skip locked)
    update transcription.jobs j
    set status = 'processing', attempts = j.attempts + 1, locked_by = ${workerId}, locked_until = ${inMs(leaseMs)}, updated_at = now()
    from candidate where j.file_id = candidate.file_id
    returning j.file_id, j.company_id, j.attempts`),
  );
  const row = rows[0];
  return row ? { fileId: row.file_id, companyId: row.company_id, attempts: row.attempts, workerId } : null;
}

/** Jobs some worker holds right now (a lease that has not run out): whose temporary files are in use. */
export async function liveLeases(db: Db): Promise<{ fileId: string; workerId: string }[]> {
  const rows = await db
    .select({ fileId: jobs.fileId, workerId: jobs.lockedBy })
    .from(jobs)
    .where(and(eq(jobs.status, 'processing'), sql`${jobs.lockedUntil} > now()`));
  return rows.flatMap((r) => (r.workerId ? [{ fileId: r.fileId, workerId: r.workerId }] : []));
}

/** Extends the lease; false when the job is no longer this worker's (expired and re-claimed, or deleted). */
export async function heartbeat(db: Db, fileId: string, workerId: string, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: inMs(leaseMs) })
    .where(and(eq(jobs.fileId, fileId), eq(jobs.lockedBy, workerId), eq(jobs.status, 'processing')))
    .returning({ fileId: jobs.fileId });
  return rows.length > 0;
}

/**
 * Locks the job row if this worker still holds it. Every final write of a worker goes through
 * this in the same transaction, so a worker that lost its lease can never write a result.
 */
export async function lockIfOwned(tx: Db, fileId: string, workerId: string): Promise<JobRow | null> {
  const [row] = await tx
    .select()
    .from(jobs)
    .where(and(eq(jobs.fileId, fileId), eq(jobs.lockedBy, workerId), eq(jobs.status, 'processing')))
    .for('update');
  return row ?? null;
}

export async function finish(
  tx: Db,
  fileId: string,
  status: 'completed' | 'failed',
  reason: string | null,
): Promise<void> {
  await tx
    .update(jobs)
    .set({ status, reason, lockedBy: null, lockedUntil: null, updatedAt: sql`now()` })
    .where(eq(jobs.fileId, fileId));
}

export async function scheduleRetry(tx: Db, fileId: string, reason: string, delayMs: number): Promise<void> {
  await tx
    .update(jobs)
    .set({
      status: 'pending',
      reason,
      nextAttemptAt: inMs(delayMs),
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(eq(jobs.fileId, fileId));
}

/** A worker shutting down hands its job back at once; the interrupted attempt does not count. */
export async function release(tx: Db, fileId: string): Promise<void> {
  await tx
    .update(jobs)
    .set({
      status: 'pending',
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
      nextAttemptAt: sql`now()`,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(eq(jobs.fileId, fileId));
}

export const STATUS_LIST_LIMIT = 1000;

export async function listStatuses(db: Db, scope: Scope, fileIds?: string[]): Promise<JobRow[]> {
  const parts: (SQL | undefined)[] = [];
  if (scope.companyId) parts.push(eq(jobs.companyId, scope.companyId));
  if (scope.owner)
    parts.push(
      inArray(
        jobs.fileId,
        db.select({ fileId: transcripts.fileId }).from(transcripts).where(eq(transcripts.uploadedBy, scope.owner)),
      ),
    );
  if (fileIds) parts.push(inArray(jobs.fileId, fileIds));
  return db
    .select()
    .from(jobs)
    .where(and(...parts))
    .orderBy(desc(jobs.updatedAt), desc(jobs.fileId))
    .limit(STATUS_LIST_LIMIT);
}
