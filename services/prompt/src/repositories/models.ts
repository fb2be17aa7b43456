import { and, asc, count, eq, getTableColumns, ne, sql, type SQL } from 'drizzle-orm';
import type { ModelPurpose } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { aiModels, aiProviders, type ModelRow, type NewModelRow } from '../db/schema';

export type ModelWithProvider = ModelRow & { providerName: string };

const withProvider = { ...getTableColumns(aiModels), providerName: aiProviders.name };

export interface ModelFilter {
  purpose?: ModelPurpose;
  providerId?: string;
}

function where(filter: ModelFilter): SQL | undefined {
  return and(
    filter.purpose ? eq(aiModels.purpose, filter.purpose) : undefined,
    filter.providerId ? eq(aiModels.providerId, filter.providerId) : undefined,
  );
}

export async function listModels(db: Db, filter: ModelFilter, page: number, pageSize: number) {
  const condition = where(filter);
  const [rows, [totals]] = await Promise.all([
    db
      .select(withProvider)
      .from(aiModels)
      .innerJoin(aiProviders, eq(aiProviders.id, aiModels.providerId))
      .where(condition)
      .orderBy(asc(aiModels.purpose), asc(sql`lower(${aiModels.label})`), asc(aiModels.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(aiModels).where(condition),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

/** Enabled models of enabled providers: the default of each purpose first. */
export async function modelDropdown(db: Db, purpose: ModelPurpose | undefined) {
  return db
    .select({ _id: aiModels.id, name: aiModels.label, purpose: aiModels.purpose, isDefault: aiModels.isDefault })
    .from(aiModels)
    .innerJoin(aiProviders, eq(aiProviders.id, aiModels.providerId))
    .where(
      and(
        eq(aiModels.enabled, true),
        eq(aiProviders.enabled, true),
        purpose ? eq(aiModels.purpose, purpose) : undefined,
      ),
    )
    .orderBy(
      asc(aiModels.purpose),
      sql`${aiModels.isDefault} desc`,
      asc(sql`lower(${aiModels.label})`),
      asc(aiModels.id),
    );
}

export async function findModel(db: Db, id: string): Promise<ModelWithProvider | undefined> {
  const [row] = await db
    .select(withProvider)
    .from(aiModels)
    .innerJoin(aiProviders, eq(aiProviders.id, aiModels.providerId))
    .where(eq(aiModels.id, id));
  return row;
}

export async function findModelForUpdate(tx: Db, id: string): Promise<ModelRow | undefined> {
  const [row] = await tx.select().from(aiModels).where(eq(aiModels.id, id)).for('update');
  return row;
}

/**
 * Serialises default changes of one purpose until the transaction ends, so two models made the
 * default at once end with exactly one default rather than a unique-index error.
 */
export async function lockDefaults(tx: Db, purpose: ModelPurpose): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`prompt.default-model.${purpose}`}))`);
}

/** Clears the purpose's default (other than `exceptId`); returns the rows as they were, for events. */
export async function clearDefault(
  tx: Db,
  purpose: ModelPurpose,
  exceptId?: string,
): Promise<{ before: ModelRow; after: ModelRow }[]> {
  const previous = await tx
    .select()
    .from(aiModels)
    .where(
      and(
        eq(aiModels.purpose, purpose),
        eq(aiModels.isDefault, true),
        exceptId ? ne(aiModels.id, exceptId) : undefined,
      ),
    )
    .for('update');
  const cleared: { before: ModelRow; after: ModelRow }[] = [];
  for (const before of previous) {
    const [after] = await tx
      .update(aiModels)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(eq(aiModels.id, before.id))
      .returning();
    cleared.push({ before, after: after! });
  }
  return cleared;
}

export async function modelNameTaken(
  tx: Db,
  providerId: string,
  name: string,
  purpose: ModelPurpose,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: aiModels.id })
    .from(aiModels)
    .where(
      and(
        eq(aiModels.providerId, providerId),
        eq(aiModels.name, name),
        eq(aiModels.purpose, purpose),
        exceptId ? ne(aiModels.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertModel(tx: Db, values: NewModelRow): Promise<ModelRow> {
  const [row] = await tx.insert(aiModels).values(values).returning();
  return row!;
}

export async function updateModel(tx: Db, id: string, patch: Partial<NewModelRow>): Promise<ModelRow> {
  const [row] = await tx
    .update(aiModels)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(aiModels.id, id))
    .returning();
  return row!;
}

export async function deleteModel(tx: Db, id: string): Promise<void> {
  await tx.delete(aiModels).where(eq(aiModels.id, id));
}

/** The chat model analysis uses: the default chat model, else the oldest usable one (as the other services pick it). */
export async function usableChatModel(db: Db): Promise<ModelRow | undefined> {
  const [row] = await db
    .select(getTableColumns(aiModels))
    .from(aiModels)
    .innerJoin(aiProviders, eq(aiProviders.id, aiModels.providerId))
    .where(and(eq(aiModels.purpose, 'chat'), eq(aiModels.enabled, true), eq(aiProviders.enabled, true)))
    .orderBy(sql`${aiModels.isDefault} desc`, asc(aiModels.createdAt), asc(aiModels.id))
    .limit(1);
  return row;
}
