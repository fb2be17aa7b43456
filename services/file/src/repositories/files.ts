import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { files, type FileRow, type NewFileRow } from '../db/schema';

/** Only `owner`'s files when there is one (a member of a b2c company sees their own alone). */
const ownedBy = (owner: string | null | undefined) => (owner ? eq(files.uploadedBy, owner) : undefined);

/** Files of one company (or of all, for `null`), optionally of one client and one uploader, newest first. */
export async function listFiles(db: Db, companyId: string | null, clientId: string | undefined, page: number, pageSize: number, owner?: string | null): Promise<{ rows: FileRow[]; total: number }> {
  const where = and(companyId ? eq(files.companyId, companyId) : undefined, clientId ? eq(files.clientId, clientId) : undefined, ownedBy(owner));
  const rows = await db
    .select()
    .from(files)
    .where(where)
    .orderBy(desc(files.uploadedAt), desc(files.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [totals] = await db.select({ total: count() }).from(files).where(where);
  return { rows, total: Number(totals?.total ?? 0) };
}

/** One file, only when it belongs to `companyId` (any company for `null`) and, when given, to `owner`. */
export async function findFile(db: Db, id: string, companyId: string | null, owner?: string | null): Promise<FileRow | undefined> {
  const where = and(eq(files.id, id), companyId ? eq(files.companyId, companyId) : undefined, ownedBy(owner));
  const [row] = await db.select().from(files).where(where).limit(1);
  return row;
}

export async function findFileByKey(db: Db, storageKey: string, companyId: string | null, owner?: string | null): Promise<FileRow | undefined> {
  const where = and(eq(files.storageKey, storageKey), companyId ? eq(files.companyId, companyId) : undefined, ownedBy(owner));
  const [row] = await db.select().from(files).where(where).limit(1);
  return row;
}

export async function insertFile(db: Db, row: NewFileRow): Promise<FileRow> {
  const [created] = await db.insert(files).values(row).returning();
  return created!;
}

/** Bytes the company's files take. */
export async function usedStorage(db: Db, companyId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(eq(files.companyId, companyId));
  return Number(row?.used ?? 0);
}

export async function setTranscriptionStatus(db: Db, id: string, companyId: string | null, status: string, error: string | null): Promise<void> {
  const where = companyId ? and(eq(files.id, id), eq(files.companyId, companyId)) : eq(files.id, id);
  await db.update(files).set({ transcriptionStatus: status, transcriptionError: error }).where(where);
}

export async function deleteFile(db: Db, id: string, companyId: string | null): Promise<FileRow | undefined> {
  const where = companyId ? and(eq(files.id, id), eq(files.companyId, companyId)) : eq(files.id, id);
  const [row] = await db.delete(files).where(where).returning();
  return row;
}

export async function setClient(db: Db, id: string, companyId: string | null, clientId: string | null): Promise<void> {
  const where = companyId ? and(eq(files.id, id), eq(files.companyId, companyId)) : eq(files.id, id);
  await db.update(files).set({ clientId }).where(where);
}
