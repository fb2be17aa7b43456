import { and, asc, count, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { afterRow, type Db } from '@earshot/kit';
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

export async function insertPrivacyJob(
  tx: Db,
  job: Pick<PrivacyJobRow, 'kind' | 'subjectKind' | 'subjectId' | 'companyId' | 'requestedBy'> &
    Partial<Pick<PrivacyJobRow, 'recordings'>>,
): Promise<PrivacyJobRow> {
  const [row] = await tx.insert(privacyJobs).values(job).returning();
  return row!;
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

export async function finishPrivacyJob(tx: Db, id: string, zipKey: string | null): Promise<void> {
  await tx
    .update(privacyJobs)
    .set({ status: 'done', zipKey, finishedAt: new Date() })
    .where(and(eq(privacyJobs.id, id), eq(privacyJobs.status, 'running')));
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

/** A page of a user's sessions, oldest first, after the one `afterId` names. */
export async function sessionsOf(
  db: Db,
  userId: string,
  page: { afterId: string | null; limit: number },
): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), afterRow(sessions, sessions.createdAt, sessions.id, page.afterId)))
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
