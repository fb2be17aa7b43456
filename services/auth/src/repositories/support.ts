import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { users } from '../db/schema';

/** How many administrators the support page names at most. */
const CONTACTS_MAX = 20;

/**
 * Who helps the people of a company: its active ADMINs; for platform administrators (no company),
 * the other platform administrators.
 */
export async function supportContacts(db: Db, companyId: string | null) {
  const where =
    companyId === null
      ? and(isNull(users.companyId), eq(users.role, 'HOST_ADMIN'), eq(users.status, 'active'))
      : and(eq(users.companyId, companyId), eq(users.role, 'ADMIN'), eq(users.status, 'active'));
  return db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(where)
    .orderBy(asc(users.firstName), asc(users.lastName))
    .limit(CONTACTS_MAX);
}
