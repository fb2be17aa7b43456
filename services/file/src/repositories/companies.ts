import { eq } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companies, type CompanyRow } from '../db/schema';

export async function upsertCompany(db: Db, id: string, maxStorage: number | null): Promise<void> {
  await db
    .insert(companies)
    .values({ id, maxStorage, updatedAt: new Date() })
    .onConflictDoUpdate({ target: companies.id, set: { maxStorage, updatedAt: new Date() } });
}

export async function removeCompany(db: Db, id: string): Promise<void> {
  await db.delete(companies).where(eq(companies.id, id));
}

export async function findCompany(db: Db, id: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

/** The company row locked until the transaction ends: uploads of one company commit one at a time. */
export async function lockCompany(db: Db, id: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).for('update').limit(1);
  return row;
}
