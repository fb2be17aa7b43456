import { count, eq, inArray, sql, sum } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companyFiles, companyMembers, companyRemovals } from '../db/schema';

/** Records a stored file of a company (from file.uploaded); a redelivery changes nothing. */
export async function addFile(tx: Db, fileId: string, companyId: string, size: number): Promise<void> {
  await tx.insert(companyFiles).values({ fileId, companyId, size }).onConflictDoNothing();
}

export async function removeFile(tx: Db, fileId: string): Promise<void> {
  await tx.delete(companyFiles).where(eq(companyFiles.fileId, fileId));
}

export interface CompanyFigures {
  userCount: number;
  storageUsed: number;
  /** The services that reported the company's data removed (while it is being deleted). */
  reported: string[];
}

/** Users, bytes stored and removal reports of each of these companies (absent ones: zeros). */
export async function figuresOf(db: Db, ids: readonly string[]): Promise<Map<string, CompanyFigures>> {
  const figures = new Map<string, CompanyFigures>(
    ids.map((id) => [id, { userCount: 0, storageUsed: 0, reported: [] }]),
  );
  if (ids.length === 0) return figures;
  const [users, storage, reports] = await Promise.all([
    db
      .select({ id: companyMembers.companyId, n: count() })
      .from(companyMembers)
      .where(inArray(companyMembers.companyId, [...ids]))
      .groupBy(companyMembers.companyId),
    db
      .select({ id: sql<string>`${companyFiles.companyId}::text`, bytes: sum(companyFiles.size) })
      .from(companyFiles)
      .where(inArray(companyFiles.companyId, [...ids]))
      .groupBy(companyFiles.companyId),
    db
      .select({ id: sql<string>`${companyRemovals.companyId}::text`, service: companyRemovals.service })
      .from(companyRemovals)
      .where(inArray(companyRemovals.companyId, [...ids])),
  ]);
  for (const row of users) figures.get(row.id)!.userCount = row.n;
  for (const row of storage) figures.get(row.id)!.storageUsed = Number(row.bytes ?? 0);
  for (const row of reports) figures.get(row.id)!.reported.push(row.service);
  return figures;
}
