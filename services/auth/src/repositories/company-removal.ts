import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { users } from '../db/schema';

/** Deletes a company's users; their refresh tokens, two-step challenges and resets go with them (on delete cascade). */
export async function deleteCompanyUsers(tx: Db, companyId: string): Promise<void> {
  await tx.delete(users).where(eq(users.companyId, companyId));
}
