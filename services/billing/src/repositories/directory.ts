import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companies, people, type CompanyRow, type PersonRow } from '../db/schema';

// The companies and people billing needs, kept from the tenant and auth services' events (never
// read from their tables).

export async function upsertCompany(tx: Db, row: CompanyRow): Promise<void> {
  const { id: _id, ...fields } = row;
  await tx.insert(companies).values(row).onConflictDoUpdate({ target: companies.id, set: fields });
}

export async function findCompany(db: Db, companyId: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, companyId));
  return row;
}

export async function removeCompany(tx: Db, companyId: string): Promise<void> {
  await tx.delete(companies).where(eq(companies.id, companyId));
}

/** A person's company, role, cap and name; a cap left undefined (an event from before caps) keeps the known one. */
export async function upsertPerson(
  tx: Db,
  row: Omit<PersonRow, 'monthlyCredits'> & { monthlyCredits?: number | null },
): Promise<void> {
  const { userId: _id, monthlyCredits, ...fields } = row;
  const set = { ...fields, ...(monthlyCredits !== undefined ? { monthlyCredits } : {}) };
  await tx
    .insert(people)
    .values({ ...row, monthlyCredits: monthlyCredits ?? null })
    .onConflictDoUpdate({ target: people.userId, set });
}

export async function removePerson(tx: Db, userId: string): Promise<void> {
  await tx.delete(people).where(eq(people.userId, userId));
}
