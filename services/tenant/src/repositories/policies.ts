import { eq, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { companyPolicies, type CompanyPolicyRow } from '../db/policies';

export type PolicyValues = Omit<CompanyPolicyRow, 'companyId' | 'updatedAt'>;

export async function findPolicies(db: Db, companyId: string): Promise<CompanyPolicyRow | null> {
  const [row] = await db.select().from(companyPolicies).where(eq(companyPolicies.companyId, companyId));
  return row ?? null;
}

export async function savePolicies(tx: Db, companyId: string, values: PolicyValues): Promise<void> {
  await tx
    .insert(companyPolicies)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: companyPolicies.companyId, set: { ...values, updatedAt: sql`now()` } });
}
