import { and, asc, count, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { memberSignIns } from '../db/saas';
import { companies, companyMembers, creditLedger } from '../db/schema';

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

/**
 * Use per company and month (UTC, YYYY-MM) since `from`: the credits charged and the seconds of
 * audio transcribed (charges in the audio_minute unit measure seconds). Charges only: reservations
 * are holds, not use (repositories/usage.ts).
 */
export async function monthlyUse(db: Db, from: Date) {
  const month = sql<string>`to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM')`;
  return db
    .select({
      companyId: sql<string>`${creditLedger.companyId}::text`,
      month,
      credits: sql<string>`coalesce(sum(-${creditLedger.amount}), 0)`,
      seconds: sql<string>`coalesce(sum(${creditLedger.measured}) filter (where ${creditLedger.unit} = 'audio_minute'), 0)`,
    })
    .from(creditLedger)
    .where(and(eq(creditLedger.kind, 'charge'), gte(creditLedger.createdAt, from)))
    .groupBy(creditLedger.companyId, month);
}
