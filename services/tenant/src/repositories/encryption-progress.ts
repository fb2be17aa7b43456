import { eq, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companies } from '../db/schema';
import { encryptionProgress, type EncryptionProgressRow } from '../db/encryption-progress';

export async function listProgress(db: Db, companyId: string): Promise<EncryptionProgressRow[]> {
  return db.select().from(encryptionProgress).where(eq(encryptionProgress.companyId, companyId));
}

/**
 * Keeps a service's figures for a company unless a newer event's are already there (the same
 * event again changes nothing). A company already removed keeps nothing.
 */
export async function recordProgress(tx: Db, row: EncryptionProgressRow): Promise<void> {
  const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, row.companyId));
  if (!company) return;
  await tx
    .insert(encryptionProgress)
    .values(row)
    .onConflictDoUpdate({
      target: [encryptionProgress.companyId, encryptionProgress.service],
      set: { state: row.state, done: row.done, total: row.total, updatedAt: row.updatedAt },
      setWhere: sql`${encryptionProgress.updatedAt} < ${row.updatedAt}`,
    });
}
