import { asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { aiModels, aiProviders, type NewProviderRow, type ProviderRow } from '../db/schema';
import { contains } from './like';

export async function listProviders(db: Db, search: string | undefined, page: number, pageSize: number) {
  const condition = search ? ilike(aiProviders.name, contains(search)) : undefined;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(aiProviders)
      .where(condition)
      .orderBy(asc(sql`lower(${aiProviders.name})`), asc(aiProviders.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(aiProviders).where(condition),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function providerDropdown(db: Db) {
  return db
    .select({ _id: aiProviders.id, name: aiProviders.name })
    .from(aiProviders)
    .orderBy(asc(sql`lower(${aiProviders.name})`), asc(aiProviders.id));
}

export async function findProvider(db: Db, id: string): Promise<ProviderRow | undefined> {
  const [row] = await db.select().from(aiProviders).where(eq(aiProviders.id, id));
  return row;
}

/** Locks the row for the rest of the transaction (concurrent changes apply one after the other). */
export async function findProviderForUpdate(tx: Db, id: string): Promise<ProviderRow | undefined> {
  const [row] = await tx.select().from(aiProviders).where(eq(aiProviders.id, id)).for('update');
  return row;
}

export async function insertProvider(tx: Db, values: NewProviderRow): Promise<ProviderRow> {
  const [row] = await tx.insert(aiProviders).values(values).returning();
  return row!;
}

export async function updateProvider(tx: Db, id: string, patch: Partial<NewProviderRow>): Promise<ProviderRow> {
  const [row] = await tx
    .update(aiProviders)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(aiProviders.id, id))
    .returning();
  return row!;
}

export async function countModelsOf(tx: Db, providerId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(aiModels).where(eq(aiModels.providerId, providerId));
  return row?.n ?? 0;
}

export async function deleteProvider(tx: Db, id: string): Promise<void> {
  await tx.delete(aiProviders).where(eq(aiProviders.id, id));
}

/**
 * Whether any provider exists, asked under a transaction-wide advisory lock so that two replicas
 * starting together cannot both find none and both register the local-AI servers.
 */
export async function anyProviderLocked(tx: Db): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('earshot.prompt.local-ai'))`);
  const [row] = await tx.select({ id: aiProviders.id }).from(aiProviders).limit(1);
  return row !== undefined;
}
