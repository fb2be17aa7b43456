import { and, asc, count, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companies, type CompanyRow, type NewCompanyRow } from '../db/schema';

export interface CompanyFilter {
  /** Only this company (a caller scoped to one company). */
  id?: string;
  q?: string;
  status?: string;
  type?: string;
}

/** LIKE pattern for a literal substring: %, _ and \ in what a person typed match themselves. */
export const contains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

function where(filter: CompanyFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.id) parts.push(eq(companies.id, filter.id));
  if (filter.q) {
    const pattern = contains(filter.q);
    parts.push(or(ilike(companies.name, pattern), ilike(companies.code, pattern), ilike(companies.domain, pattern)));
  }
  if (filter.status) parts.push(eq(companies.status, filter.status));
  if (filter.type) parts.push(eq(companies.type, filter.type));
  return and(...parts);
}

export async function listCompanies(db: Db, filter: CompanyFilter, page: number, pageSize: number) {
  const condition = where(filter);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(companies)
      .where(condition)
      .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(companies).where(condition),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function companyDropdown(db: Db, id?: string) {
  return db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(id ? eq(companies.id, id) : undefined)
    .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id));
}

export async function findCompany(db: Db, id: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  return row;
}

/** Locks the row for the rest of the transaction (concurrent updates apply one after the other). */
export async function findCompanyForUpdate(tx: Db, id: string): Promise<CompanyRow | undefined> {
  const [row] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
  return row;
}

export async function findCompanyByDomain(db: Db, domain: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.domain, domain));
  return row;
}

/** The company whose current API key has this SHA-256 (the column is unique). */
export async function findCompanyByApiKeyHash(
  db: Db,
  hash: string,
): Promise<Pick<CompanyRow, 'id' | 'status'> | undefined> {
  const [row] = await db
    .select({ id: companies.id, status: companies.status })
    .from(companies)
    .where(eq(companies.apiKeyHash, hash));
  return row;
}

/** Which of the unique fields another company already uses. */
export async function takenFields(
  db: Db,
  values: { code?: string; domain?: string },
  exceptId?: string,
): Promise<('code' | 'domain')[]> {
  const checks: SQL[] = [];
  if (values.code !== undefined) checks.push(eq(companies.code, values.code));
  if (values.domain !== undefined) checks.push(eq(companies.domain, values.domain));
  if (checks.length === 0) return [];
  const rows = await db
    .select({ code: companies.code, domain: companies.domain })
    .from(companies)
    .where(and(or(...checks), exceptId ? ne(companies.id, exceptId) : undefined));
  const taken: ('code' | 'domain')[] = [];
  if (values.code !== undefined && rows.some((r) => r.code === values.code)) taken.push('code');
  if (values.domain !== undefined && rows.some((r) => r.domain === values.domain)) taken.push('domain');
  return taken;
}

export async function insertCompany(tx: Db, values: NewCompanyRow): Promise<CompanyRow> {
  const [row] = await tx.insert(companies).values(values).returning();
  return row!;
}

export async function updateCompany(tx: Db, id: string, patch: Partial<NewCompanyRow>): Promise<CompanyRow> {
  const [row] = await tx
    .update(companies)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(companies.id, id))
    .returning();
  return row!;
}

export async function deleteCompany(tx: Db, id: string): Promise<void> {
  await tx.delete(companies).where(eq(companies.id, id));
}

/** Names of the companies that have this one as their partner. */
export async function partneredBy(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.partnerCompanyId, id))
    .orderBy(asc(companies.name));
  return rows.map((r) => r.name);
}
