import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companies, mailPreferences, people, type CompanyRow, type PersonRow } from '../db/schema';

// The people and companies mail and notifications need, kept from the auth and tenant services'
// events (never read from their tables).

export async function upsertPerson(tx: Db, row: PersonRow): Promise<void> {
  const { userId: _id, ...fields } = row;
  await tx.insert(people).values(row).onConflictDoUpdate({ target: people.userId, set: fields });
}

/** A person leaves with their notification choices. */
export async function removePerson(tx: Db, userId: string): Promise<void> {
  await tx.delete(people).where(eq(people.userId, userId));
  await tx.delete(mailPreferences).where(eq(mailPreferences.userId, userId));
}

export async function findPerson(db: Db, userId: string): Promise<PersonRow | undefined> {
  const [row] = await db.select().from(people).where(eq(people.userId, userId));
  return row;
}

/** Everyone of the company (whom a task's text may mention). */
export async function peopleOf(db: Db, companyId: string): Promise<PersonRow[]> {
  return db.select().from(people).where(eq(people.companyId, companyId)).orderBy(people.userId);
}

/** The company's people with one of these roles (e.g. its ADMINs, told of credit thresholds). */
export async function peopleWithRole(db: Db, companyId: string, roles: readonly string[]): Promise<PersonRow[]> {
  return db
    .select()
    .from(people)
    .where(and(eq(people.companyId, companyId), inArray(people.role, [...roles])))
    .orderBy(people.userId);
}

export async function upsertCompany(tx: Db, row: CompanyRow): Promise<void> {
  const { id: _id, ...fields } = row;
  await tx.insert(companies).values(row).onConflictDoUpdate({ target: companies.id, set: fields });
}

export async function findCompany(db: Db, companyId: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, companyId));
  return row;
}

/** A deleted company's row and its people go (their notifications and mail go with the company's). */
export async function removeCompany(tx: Db, companyId: string): Promise<void> {
  await tx.delete(people).where(eq(people.companyId, companyId));
  await tx.delete(companies).where(eq(companies.id, companyId));
}
