import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { users } from '../db/schema';
import { deleteCompanySso } from './sso';

/**
 * Deletes a company's users (their refresh tokens, two-step challenges and resets go with them, on
 * delete cascade) and its single sign-on provider, domains and linked identities.
 */
export async function deleteCompanyUsers(tx: Db, companyId: string): Promise<void> {
  await deleteCompanySso(tx, companyId);
  await tx.delete(users).where(eq(users.companyId, companyId));
}
