import { and, asc, count, eq, getTableColumns, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { afterRow, sortKey, type Db, type PageEnd } from '@earshot/kit';
import type { HoldKind } from '@earshot/contracts';
import {
  privacyClients,
  privacyFiles,
  privacyJobs,
  privacyParts,
  type PrivacyJobRow,
  type PrivacyPartRow,
} from '../db/privacy';
import { avatars, companies, fileUsage, sessions, users, type SessionRow, type UserRow } from '../db/schema';

/** A new job waits in its company's line; startDueJobs starts it when its turn has come. */
export async function insertPrivacyJob(
  tx: Db,
  job: Pick<PrivacyJobRow, 'kind' | 'subjectKind' | 'subjectId' | 'companyId' | 'requestedBy' | 'actor'> &
    Partial<Pick<PrivacyJobRow, 'recordings'>>,
): Promise<PrivacyJobRow> {
  const [row] = await tx
    .insert(privacyJobs)
    .values({ ...job, status: 'queued' })
    .returning();
  return row!;
}

/** The line's key of a job's company: the platform's own people (no company) share one line. */
const lineOf = sql`coalesce(${privacyJobs.companyId}, '00000000-0000-0000-0000-000000000000'::uuid)`;

/**
 * Held until the transaction ends: whoever starts jobs sees every start and end before it, so two
 * requests of one company at once never both take its last place. Privacy jobs are few; one
 * lock for all companies keeps the choice of who goes next simple.
 */
export async function lockPrivacyLine(tx: Db): Promise<void> {
  await tx.execute(sql`lock table auth.queue_turns in exclusive mode`);
}

/**
 * The next job to start, or null: among companies with fewer than `cap` jobs running, the one
 * with the fewest running, then the one whose last start is oldest, with its oldest queued job.
 */
export async function nextDueJob(tx: Db, cap: number): Promise<PrivacyJobRow | null> {
  const running = sql`(select count(*) from auth.privacy_jobs r where r.status = 'running'
    and coalesce(r.company_id, '00000000-0000-0000-0000-000000000000'::uuid) = ${lineOf})`;
  const [row] = await tx
    .select()
    .from(privacyJobs)
    .where(and(eq(privacyJobs.status, 'queued'), sql`${running} < ${cap}`))
    .orderBy(
      running,
      sql`(select t.served_at from auth.queue_turns t where t.company_id = ${lineOf}) nulls first`,
      asc(privacyJobs.createdAt),
      asc(privacyJobs.id),
    )
    .limit(1);
  return row ?? null;
}

/** A queued job starts, and its company's turn is taken; null when it had started already. */
export async function startPrivacyJob(tx: Db, id: string): Promise<PrivacyJobRow | null> {
  const [row] = await tx
    .update(privacyJobs)
    .set({ status: 'running', startedAt: new Date() })
    .where(and(eq(privacyJobs.id, id), eq(privacyJobs.status, 'queued')))
    .returning();
  if (!row) return null;
  await tx.execute(sql`insert into auth.queue_turns (company_id, served_at)
    values (coalesce(${row.companyId}::uuid, '00000000-0000-0000-0000-000000000000'::uuid), clock_timestamp())
    on conflict (company_id) do update set served_at = excluded.served_at`);
  return row;
}

/** A queued job's 1-based place in its company's line: the company's queued jobs up to it, oldest first. */
export async function queuePosition(db: Db, jobId: string): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from auth.privacy_jobs q join auth.privacy_jobs j on j.id = ${jobId}
    where q.status = 'queued' and q.company_id is not distinct from j.company_id
      and (q.created_at, q.id) <= (j.created_at, j.id)`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

/** A company's jobs running, and its first `limit` queued ones oldest first (their place is their order). */
export async function companyPrivacyLine(
  db: Db,
  companyId: string,
  limit: number,
): Promise<{ running: number; pending: number; queued: PrivacyJobRow[] }> {
  const [counts] = await db
    .select({
      running: sql<number>`count(*) filter (where ${privacyJobs.status} = 'running')`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${privacyJobs.status} = 'queued')`.mapWith(Number),
    })
    .from(privacyJobs)
    .where(and(eq(privacyJobs.companyId, companyId), inArray(privacyJobs.status, ['queued', 'running'])));
  const queued = await db
    .select()
    .from(privacyJobs)
    .where(and(eq(privacyJobs.companyId, companyId), eq(privacyJobs.status, 'queued')))
    .orderBy(asc(privacyJobs.createdAt), asc(privacyJobs.id))
    .limit(limit);
  return { running: counts?.running ?? 0, pending: counts?.pending ?? 0, queued };
}

export async function findPrivacyJob(db: Db, id: string): Promise<PrivacyJobRow | null> {
  const [row] = await db.select().from(privacyJobs).where(eq(privacyJobs.id, id));
  return row ?? null;
}

/** The job locked for the transaction, so two parts arriving together assemble the ZIP once. */
export async function lockPrivacyJob(tx: Db, id: string): Promise<PrivacyJobRow | null> {
  const [row] = await tx.select().from(privacyJobs).where(eq(privacyJobs.id, id)).for('update');
  return row ?? null;
}

export async function privacyPartsOf(db: Db, jobId: string): Promise<PrivacyPartRow[]> {
  return db.select().from(privacyParts).where(eq(privacyParts.jobId, jobId)).orderBy(asc(privacyParts.service));
}

/** A service's part; a redelivered answer changes nothing. */
export async function insertPrivacyPart(
  tx: Db,
  part: Pick<PrivacyPartRow, 'jobId' | 'service' | 'manifest' | 'counts'>,
): Promise<void> {
  await tx.insert(privacyParts).values(part).onConflictDoNothing();
}

/** A running job is done; false when it was not running (it ended already). */
export async function finishPrivacyJob(tx: Db, id: string, zipKey: string | null): Promise<boolean> {
  const ended = await tx
    .update(privacyJobs)
    .set({ status: 'done', zipKey, finishedAt: new Date() })
    .where(and(eq(privacyJobs.id, id), eq(privacyJobs.status, 'running')))
    .returning({ id: privacyJobs.id });
  return ended.length > 0;
}

/**
 * Done exports whose ZIP is due to go: finished before `before`, or of a company since deleted
 * (its people's data must not outlive its key in a readable copy). At most `limit` at a time.
 */
export async function expiredExports(db: Db, before: Date, limit: number): Promise<{ id: string; zipKey: string }[]> {
  const rows = await db
    .select({ id: privacyJobs.id, zipKey: privacyJobs.zipKey })
    .from(privacyJobs)
    .where(
      and(
        isNotNull(privacyJobs.zipKey),
        or(
          lt(privacyJobs.finishedAt, before),
          inArray(
            privacyJobs.companyId,
            db.select({ id: companies.id }).from(companies).where(isNotNull(companies.deletedAt)),
          ),
        ),
      ),
    )
    .limit(limit);
  return rows.map((row) => ({ id: row.id, zipKey: row.zipKey! }));
}

/** The ZIP is gone: the job stays (the record that the request was answered), without a download. */
export async function forgetZip(db: Db, id: string): Promise<void> {
  await db.update(privacyJobs).set({ zipKey: null }).where(eq(privacyJobs.id, id));
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/** A page of a user's sessions, oldest first, after `after`; each with its sort key. */
export async function sessionsOf(
  db: Db,
  userId: string,
  page: { after: PageEnd | null; limit: number },
): Promise<(SessionRow & PageEnd)[]> {
  return db
    .select({ ...getTableColumns(sessions), sortKey: sortKey(sessions.createdAt) })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), afterRow(sessions.createdAt, sessions.id, page.after)))
    .orderBy(asc(sessions.createdAt), asc(sessions.id))
    .limit(page.limit);
}

/** A client contact's company, or null when no such client (or it was deleted). */
export async function clientCompany(db: Db, clientId: string): Promise<string | null> {
  const [row] = await db.select().from(privacyClients).where(eq(privacyClients.id, clientId));
  return row?.companyId ?? null;
}

export async function saveClient(tx: Db, id: string, companyId: string): Promise<void> {
  await tx.insert(privacyClients).values({ id, companyId }).onConflictDoNothing();
}

export async function forgetClient(tx: Db, id: string): Promise<void> {
  await tx.delete(privacyClients).where(eq(privacyClients.id, id));
}

/** An erased client's row, in its company only; how many went (0 or 1). */
export async function eraseClient(tx: Db, companyId: string, id: string): Promise<number> {
  return (
    await tx
      .delete(privacyClients)
      .where(and(eq(privacyClients.id, id), eq(privacyClients.companyId, companyId)))
      .returning()
  ).length;
}

/** A stored recording's uploader and client (a replay changes nothing). */
export async function recordFile(
  tx: Db,
  file: { fileId: string; companyId: string; uploadedBy: string | null; clientId: string | null },
): Promise<void> {
  await tx.insert(privacyFiles).values(file).onConflictDoNothing();
}

export async function linkFileClient(tx: Db, fileId: string, clientId: string | null): Promise<void> {
  await tx.update(privacyFiles).set({ clientId }).where(eq(privacyFiles.fileId, fileId));
}

export async function forgetFile(tx: Db, fileId: string): Promise<void> {
  await tx.delete(privacyFiles).where(eq(privacyFiles.fileId, fileId));
}

/** A deleted company's recordings and clients (its removal announces no file or client one by one). */
export async function forgetCompanyPrivacy(tx: Db, companyId: string): Promise<void> {
  await tx.delete(privacyFiles).where(eq(privacyFiles.companyId, companyId));
  await tx.delete(privacyClients).where(eq(privacyClients.companyId, companyId));
}

/**
 * The holds in force on the recordings an erasure would delete (a user's uploads, or a client's
 * calls): a recording held itself, or linked to a held client. Read from the kit's legal_holds.
 */
export async function heldRecordings(
  db: Db,
  companyId: string,
  person: { uploadedBy: string } | { clientId: string },
): Promise<{ kind: HoldKind; id: string }[]> {
  const whose =
    'uploadedBy' in person ? sql`f.uploaded_by = ${person.uploadedBy}` : sql`f.client_id = ${person.clientId}`;
  const result = await db.execute(sql`
    select distinct h.kind, h.id from auth.privacy_files f
    join auth.legal_holds h on h.company_id = f.company_id and ((h.kind = 'file' and h.id = f.file_id) or (h.kind = 'client' and h.id = f.client_id))
    where f.company_id = ${companyId} and ${whose}
    order by h.kind, h.id`);
  return (result as unknown as { rows: { kind: HoldKind; id: string }[] }).rows;
}

/** A user's recordings kept under their company: the uploader is no longer known here; how many. */
export async function forgetUploader(tx: Db, companyId: string, userId: string): Promise<number> {
  await tx
    .update(fileUsage)
    .set({ userId: null })
    .where(and(eq(fileUsage.companyId, companyId), eq(fileUsage.userId, userId)));
  return (
    await tx
      .update(privacyFiles)
      .set({ uploadedBy: null })
      .where(and(eq(privacyFiles.companyId, companyId), eq(privacyFiles.uploadedBy, userId)))
      .returning()
  ).length;
}

/** The account locked, in its company only (null: a platform administrator). */
export async function lockAccount(tx: Db, id: string, companyId: string | null): Promise<UserRow | null> {
  const company = companyId ? eq(users.companyId, companyId) : sql`${users.companyId} is null`;
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), company))
    .for('update');
  return row ?? null;
}

export async function hasAvatar(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(avatars).where(eq(avatars.userId, userId));
  return (row?.n ?? 0) > 0;
}
