import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { activeTrace, type Db } from '@earshot/kit';
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
  traceparent: string | null;
}

/** What a worker holds after a claim. */
export interface ClaimedJob {
  fileId: string;
  companyId: string;
  attempts: number;
  workerId: string;
  /** The trace that queued it (the upload's, or the re-run's): the job's span continues it. */
  traceparent: string | null;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const inMs = (ms: number) => sql`now() + (${ms} * interval '1 millisecond')`;

export async function insertPending(tx: Db, fileId: string, companyId: string): Promise<boolean> {
  const rows = await tx
    .insert(jobs)
    .values({ fileId, companyId, status: 'pending', traceparent: activeTrace()?.traceparent ?? null })
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
      traceparent: activeTrace()?.traceparent ?? null,
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
 * How many of each company's due jobs are candidates of one claim: its first is the company's
 * turn; the next ones are there for a claim that finds the first held by a concurrent claim (SKIP
 * LOCKED), so it takes another job rather than none.
 */
const HEAD_DEPTH = 4;

/**
 * Claims one due job, fairly between companies: each company's oldest due jobs are candidates,
 * and the company with the fewest jobs running, then the one whose last claim is oldest
 * (round-robin), goes first; a company with `companyCap` jobs running waits. So a company that
 * queued a hundred recordings delays another's single one by at most one job per worker. A job
 * whose lease ran out (its worker died) goes before any company's turn: it was started already.
 * Indexed all the way: the companies with pending jobs are found by skipping through
 * jobs_company_due_idx (one probe per company, not a read of every queued job), and each one's
 * first jobs are read from the same index. SKIP LOCKED lets many workers claim at once without
 * waiting on or taking each other's rows.
 */
export async function claim(
  tx: Db,
  workerId: string,
  leaseMs: number,
  companyCap: number,
): Promise<(ClaimedJob & { waitedSeconds: number }) | null> {
  const rows = rowsOf<RawJob & { waited_seconds: number }>(
    await tx.execute(claimStatement(workerId, leaseMs, companyCap)),
  );
  const row = rows[0];
  return row
    ? {
        fileId: row.file_id,
        companyId: row.company_id,
        attempts: row.attempts,
        workerId,
        waitedSeconds: Math.max(0, Number(row.waited_seconds)),
        traceparent: row.traceparent,
      }
    : null;
}

/** The claim's statement (see claim), on its own for the benchmark that explains its plan. */
export function claimStatement(workerId: string, leaseMs: number, companyCap: number): SQL {
  return sql`
    with recursive companies as (
      (select company_id from transcription.jobs where status = 'pending' order by company_id limit 1)
      union all
      select (select j.company_id from transcription.jobs j
              where j.status = 'pending' and j.company_id > c.company_id order by j.company_id limit 1)
      from companies c where c.company_id is not null),
    running as (
      select company_id, count(*)::int as n from transcription.jobs
      where status = 'processing' and locked_until >= now()
      group by company_id),
    heads as (
      select h.file_id, h.place from companies c
      cross join lateral (
        select j.file_id, row_number() over (order by j.next_attempt_at, j.file_id) as place
        from transcription.jobs j
        where j.company_id = c.company_id and j.status = 'pending' and j.next_attempt_at <= now()
        order by j.next_attempt_at, j.file_id
        limit ${HEAD_DEPTH}) h
      where c.company_id is not null
      union all
      select file_id, 0 from transcription.jobs where status = 'processing' and locked_until < now()),
    candidate as (
      select j.file_id, j.company_id from transcription.jobs j
      join heads d on d.file_id = j.file_id
      left join running r on r.company_id = j.company_id
      left join transcription.queue_turns t on t.company_id = j.company_id
      where coalesce(r.n, 0) < ${companyCap}
      order by d.place, coalesce(r.n, 0), t.served_at nulls first, j.next_attempt_at, j.file_id
      limit 1
      for update of j skip locked),
    turn as (
      insert into transcription.queue_turns (company_id, served_at)
      select company_id, clock_timestamp() from candidate
      on conflict (company_id) do update set served_at = excluded.served_at)
    update transcription.jobs j
    set status = 'processing', attempts = j.attempts + 1, locked_by = ${workerId}, locked_until = ${inMs(leaseMs)}, updated_at = now()
    from candidate where j.file_id = candidate.file_id
    returning j.file_id, j.company_id, j.attempts, extract(epoch from now() - j.next_attempt_at)::float8 as waited_seconds, j.traceparent`;
}

/** A company's share of the queue: its jobs running and waiting, and each waiting one's place. */
export interface CompanyQueue {
  running: number;
  pending: { fileId: string; position: number; nextAttemptAt: Date }[];
}

/**
 * The company's running jobs and its waiting ones in the order its claims will take them (the
 * claim's order within one company: next attempt, then id). Position 1 is the next to start.
 */
export async function companyQueue(db: Db, companyId: string, limit: number): Promise<CompanyQueue> {
  const [counts] = rowsOf<{ running: number }>(
    await db.execute(sql`
    select count(*)::int as running from transcription.jobs
    where company_id = ${companyId} and status = 'processing' and locked_until >= now()`),
  );
  const pending = rowsOf<{ file_id: string; next_attempt_at: Date | string }>(
    await db.execute(sql`
    select file_id, next_attempt_at from transcription.jobs
    where company_id = ${companyId} and status = 'pending'
    order by next_attempt_at, file_id
    limit ${limit}`),
  );
  return {
    running: counts?.running ?? 0,
    pending: pending.map((r, i) => ({
      fileId: r.file_id,
      position: i + 1,
      nextAttemptAt: new Date(r.next_attempt_at),
    })),
  };
}

/** How many jobs of the company wait in the queue (all of them, past any list limit). */
export async function countPending(db: Db, companyId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from transcription.jobs where company_id = ${companyId} and status = 'pending'`,
    ),
  );
  return row?.n ?? 0;
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

/** Every job counted by status (for /metrics). */
export async function countByStatus(db: Db): Promise<{ status: TranscriptionStatus; count: number }[]> {
  return rowsOf<{ status: TranscriptionStatus; count: number }>(
    await db.execute(sql`select status, count(*)::int as count from transcription.jobs group by status`),
  );
}

/** Seconds the longest-waiting claimable job has waited since it became due (0 when none waits). */
export async function oldestDueWaitSeconds(db: Db): Promise<number> {
  const [row] = rowsOf<{ waited: number | null }>(
    await db.execute(sql`
    select extract(epoch from now() - min(next_attempt_at))::float8 as waited
    from transcription.jobs where status = 'pending' and next_attempt_at <= now()`),
  );
  return Math.max(0, Number(row?.waited ?? 0));
}
