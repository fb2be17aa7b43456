import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { privacyClients, privacyJobs, privacyParts, type PrivacyJobRow, type PrivacyPartRow } from '../db/privacy';
import { sessions, users, type SessionRow, type UserRow } from '../db/schema';

export async function insertPrivacyJob(tx: Db, job: Pick<PrivacyJobRow, 'kind' | 'subjectKind' | 'subjectId' | 'companyId' | 'requestedBy'>): Promise<PrivacyJobRow> {
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
export async function insertPrivacyPart(tx: Db, part: Pick<PrivacyPartRow, 'jobId' | 'service' | 'manifest' | 'counts'>): Promise<void> {
  await tx.insert(privacyParts).values(part).onConflictDoNothing();
}

export async function finishPrivacyJob(tx: Db, id: string, zipKey: string | null): Promise<void> {
  await tx.update(privacyJobs).set({ status: 'done', zipKey, finishedAt: new Date() }).where(and(eq(privacyJobs.id, id), eq(privacyJobs.status, 'running')));
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function sessionsOf(db: Db, userId: string): Promise<SessionRow[]> {
  return db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt));
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
