import { asc, count, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { memberSignIns } from '../db/saas';
import { companies, companyMembers } from '../db/schema';

/** Records a sign-in; an older one arriving late changes nothing. */
export async function recordSignIn(tx: Db, userId: string, at: Date): Promise<void> {
  await tx
    .insert(memberSignIns)
    .values({ userId, lastSignInAt: at })
    .onConflictDoUpdate({
      target: memberSignIns.userId,
      set: { lastSignInAt: at },
      setWhere: sql`${memberSignIns.lastSignInAt} < ${at}`,
    });
}

export async function companyList(db: Db) {
  return db
    .select({ id: companies.id, name: companies.name, status: companies.status, maxStorage: companies.maxStorage })
    .from(companies)
    .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id));
}

/** Members per company who signed in since `since`. */
export async function activeMembers(db: Db, since: Date) {
  return db
    .select({ companyId: companyMembers.companyId, active: count() })
    .from(companyMembers)
    .innerJoin(memberSignIns, eq(memberSignIns.userId, companyMembers.userId))
    .where(gte(memberSignIns.lastSignInAt, since))
    .groupBy(companyMembers.companyId);
}
