import { count, inArray, sql, sum } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { fileUsage } from '../db/schema';

/** A stored recording as the file service announced it (idempotent: a replay changes nothing). */
export async function recordUpload(
  db: Db,
  file: { fileId: string; companyId: string | null; userId: string | null; size: number },
): Promise<void> {
  await db.insert(fileUsage).values(file).onConflictDoNothing({ target: fileUsage.fileId });
}

export async function forgetUpload(db: Db, fileId: string): Promise<void> {
  await db.delete(fileUsage).where(sql`${fileUsage.fileId} = ${fileId}`);
}

export interface Usage {
  recordings: number;
  storageUsed: number;
}

/** Recordings and bytes per uploader, for one page of users. */
export async function usageOf(db: Db, userIds: string[]): Promise<Map<string, Usage>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: fileUsage.userId, recordings: count(), storageUsed: sum(fileUsage.size) })
    .from(fileUsage)
    .where(inArray(fileUsage.userId, userIds))
    .groupBy(fileUsage.userId);
  return new Map(
    rows.map((r) => [r.userId!, { recordings: Number(r.recordings), storageUsed: Number(r.storageUsed ?? 0) }]),
  );
}
