import { and, asc, count, desc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import {
  emailTemplates,
  mailMessages,
  mailPreferences,
  mailRecordings,
  type EmailTemplateRow,
  type MailMessageRow,
  type NewMailMessageRow,
} from '../db/schema';

export interface TemplateFilter {
  type?: string;
  language?: string;
  /** A company's overrides; `null` for the platform defaults only; undefined for all. */
  companyId?: string | null;
}

export async function listTemplates(db: Db, filter: TemplateFilter): Promise<EmailTemplateRow[]> {
  const condition = and(
    filter.type ? eq(emailTemplates.type, filter.type) : undefined,
    filter.language ? eq(emailTemplates.language, filter.language) : undefined,
    filter.companyId === undefined
      ? undefined
      : filter.companyId === null
        ? isNull(emailTemplates.companyId)
        : eq(emailTemplates.companyId, filter.companyId),
  );
  return db
    .select()
    .from(emailTemplates)
    .where(condition)
    .orderBy(
      asc(sql`${emailTemplates.companyId} is not null`),
      asc(emailTemplates.companyId),
      asc(emailTemplates.type),
      asc(emailTemplates.language),
    );
}

export async function findTemplate(db: Db, id: string): Promise<EmailTemplateRow | undefined> {
  const [row] = await db.select().from(emailTemplates).where(eq(emailTemplates.id, id));
  return row;
}

export async function findTemplateForUpdate(tx: Db, id: string): Promise<EmailTemplateRow | undefined> {
  const [row] = await tx.select().from(emailTemplates).where(eq(emailTemplates.id, id)).for('update');
  return row;
}

/**
 * The templates that may serve (type, language) for a company, most specific first: the company's
 * own in that language, the platform's in that language, the platform's in English.
 */
export async function templateCandidates(
  db: Db,
  type: string,
  language: string,
  companyId: string | null,
): Promise<EmailTemplateRow[]> {
  const own = companyId
    ? and(eq(emailTemplates.companyId, companyId), eq(emailTemplates.language, language))
    : undefined;
  const platform = and(isNull(emailTemplates.companyId), inArray(emailTemplates.language, [language, 'en']));
  return db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.type, type), own ? or(own, platform) : platform));
}

export async function insertTemplate(tx: Db, row: typeof emailTemplates.$inferInsert): Promise<EmailTemplateRow> {
  const [created] = await tx.insert(emailTemplates).values(row).returning();
  return created!;
}

export async function updateTemplate(
  tx: Db,
  id: string,
  fields: Pick<EmailTemplateRow, 'subject' | 'html' | 'text' | 'shipped'>,
): Promise<EmailTemplateRow> {
  const [updated] = await tx
    .update(emailTemplates)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(emailTemplates.id, id))
    .returning();
  return updated!;
}

export async function deleteTemplate(tx: Db, id: string): Promise<void> {
  await tx.delete(emailTemplates).where(eq(emailTemplates.id, id));
}

/** The platform template of (type, language), whether edited or still as shipped. */
export async function platformTemplate(tx: Db, type: string, language: string): Promise<EmailTemplateRow | undefined> {
  const [row] = await tx
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.type, type), eq(emailTemplates.language, language), isNull(emailTemplates.companyId)))
    .for('update');
  return row;
}

export async function insertMessage(tx: Db, row: NewMailMessageRow): Promise<MailMessageRow> {
  const [created] = await tx.insert(mailMessages).values(row).returning();
  return created!;
}

/**
 * Takes up to `limit` due messages for this sender: queued ones whose time has come, and ones a
 * sender took more than `staleAfterMs` ago without finishing (it died mid-send). SKIP LOCKED lets
 * several replicas share the queue without taking the same message.
 */
export async function claimDue(tx: Db, now: Date, limit: number, staleAfterMs: number): Promise<MailMessageRow[]> {
  const stale = new Date(now.getTime() - staleAfterMs);
  const due = await tx
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(
      or(
        and(eq(mailMessages.status, 'queued'), lte(mailMessages.nextAttemptAt, now)),
        and(eq(mailMessages.status, 'sending'), lte(mailMessages.claimedAt, stale)),
      ),
    )
    .orderBy(asc(mailMessages.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];
  return tx
    .update(mailMessages)
    .set({ status: 'sending', claimedAt: now, attempts: sql`${mailMessages.attempts} + 1` })
    .where(
      inArray(
        mailMessages.id,
        due.map((row) => row.id),
      ),
    )
    .returning();
}

export async function markSent(
  tx: Db,
  id: string,
  fields: Pick<MailMessageRow, 'transport' | 'fileName' | 'bodySealed'>,
  now: Date,
): Promise<void> {
  await tx
    .update(mailMessages)
    .set({ ...fields, status: 'sent', sentAt: now, lastError: null, nextAttemptAt: null, claimedAt: null })
    .where(eq(mailMessages.id, id));
}

export async function markRetry(tx: Db, id: string, error: string, nextAttemptAt: Date): Promise<void> {
  await tx
    .update(mailMessages)
    .set({ status: 'queued', lastError: error, nextAttemptAt, claimedAt: null })
    .where(eq(mailMessages.id, id));
}

export async function markFailed(tx: Db, id: string, error: string): Promise<void> {
  await tx
    .update(mailMessages)
    .set({ status: 'failed', lastError: error, nextAttemptAt: null, claimedAt: null })
    .where(eq(mailMessages.id, id));
}

export async function listMessages(db: Db, status: string | undefined, page: number, pageSize: number) {
  const condition: SQL | undefined = status ? eq(mailMessages.status, status as MailMessageRow['status']) : undefined;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(mailMessages)
      .where(condition)
      .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(mailMessages).where(condition),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function findMessage(db: Db, id: string): Promise<MailMessageRow | undefined> {
  const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
  return row;
}

/** A person's notification choices go with them. */
export async function removePreferences(tx: Db, userId: string): Promise<void> {
  await tx.delete(mailPreferences).where(eq(mailPreferences.userId, userId));
}

export interface Preferences {
  transcriptReady: boolean;
  transcriptionFailed: boolean;
}

export async function findPreferences(db: Db, userId: string): Promise<Preferences> {
  const [row] = await db
    .select({
      transcriptReady: mailPreferences.transcriptReady,
      transcriptionFailed: mailPreferences.transcriptionFailed,
    })
    .from(mailPreferences)
    .where(eq(mailPreferences.userId, userId));
  return row ?? { transcriptReady: false, transcriptionFailed: false };
}

export async function savePreferences(tx: Db, userId: string, preferences: Preferences): Promise<void> {
  await tx
    .insert(mailPreferences)
    .values({ userId, ...preferences, updatedAt: new Date() })
    .onConflictDoUpdate({ target: mailPreferences.userId, set: { ...preferences, updatedAt: new Date() } });
}

export async function upsertRecording(tx: Db, row: typeof mailRecordings.$inferInsert): Promise<void> {
  const { fileId: _id, ...fields } = row;
  await tx.insert(mailRecordings).values(row).onConflictDoUpdate({ target: mailRecordings.fileId, set: fields });
}

export async function removeRecording(tx: Db, fileId: string): Promise<void> {
  await tx.delete(mailRecordings).where(eq(mailRecordings.fileId, fileId));
}

export async function findRecording(db: Db, fileId: string) {
  const [row] = await db.select().from(mailRecordings).where(eq(mailRecordings.fileId, fileId));
  return row;
}

/** Everything mail holds for a deleted company: its templates, messages and recordings. */
export async function removeCompanyMail(tx: Db, companyId: string): Promise<void> {
  await tx.delete(emailTemplates).where(eq(emailTemplates.companyId, companyId));
  await tx.delete(mailMessages).where(eq(mailMessages.companyId, companyId));
  await tx.delete(mailRecordings).where(eq(mailRecordings.companyId, companyId));
}

/** The outgoing queue (queued and being sent) by status, and the age of its oldest message (for /metrics). */
export async function queueState(db: Db): Promise<{ counts: Map<string, number>; oldestSeconds: number }> {
  const rows = await db
    .select({
      status: mailMessages.status,
      count: count(),
      oldest: sql<number | null>`extract(epoch from now() - min(${mailMessages.createdAt}))::float8`,
    })
    .from(mailMessages)
    .where(inArray(mailMessages.status, ['queued', 'sending']))
    .groupBy(mailMessages.status);
  return {
    counts: new Map(rows.map((r) => [r.status, r.count])),
    oldestSeconds: Math.max(0, ...rows.map((r) => Number(r.oldest ?? 0))),
  };
}
