import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companies, type CompanyRow } from '../db/schema';

/** A live (not deleted) company of the projection. */
export async function findCompany(db: Db, id: string, lock = false): Promise<CompanyRow | undefined> {
  const query = db
    .select()
    .from(companies)
    .where(and(eq(companies.id, id), isNull(companies.deletedAt)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function findCompanyByDomain(db: Db, domain: string): Promise<CompanyRow | undefined> {
  const [row] = await db
    .select()
    .from(companies)
    .where(and(eq(companies.domain, domain), isNull(companies.deletedAt)));
  return row;
}

export async function companiesByIds(db: Db, ids: string[]): Promise<Map<string, CompanyRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(companies)
    .where(
      sql`${companies.id} in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return new Map(rows.map((r) => [r.id, r]));
}

export interface CompanyFacts {
  id: string;
  domain: string;
  name: string;
  type: string | null;
  status: string;
  maxUsers: number | null;
}

export async function upsertCompany(db: Db, company: CompanyFacts): Promise<void> {
  const values = {
    domain: company.domain.toLowerCase(),
    name: company.name,
    type: company.type,
    status: company.status,
    maxUsers: company.maxUsers,
  };
  await db
    .insert(companies)
    .values({ id: company.id, ...values })
    .onConflictDoUpdate({ target: companies.id, set: { ...values, updatedAt: sql`now()` } });
}

export async function markCompanyDeleted(db: Db, id: string): Promise<void> {
  await db
    .update(companies)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(companies.id, id));
}
