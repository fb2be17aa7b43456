import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { files } from '../db/schema';

/** Deletes a company's file rows; the storage keys of their objects. */
export async function deleteCompanyFiles(tx: Db, companyId: string): Promise<string[]> {
  const rows = await tx.delete(files).where(eq(files.companyId, companyId)).returning({ storageKey: files.storageKey });
  return rows.map((r) => r.storageKey);
}
