import { and, desc, eq, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { pricedModels, prices, pricingSettings, type PriceRow } from '../db/schema';

/** What a price is for: one configured model (its `_id`) or one speech engine. */
export type PriceRef = { modelId: string; engine?: undefined } | { engine: string; modelId?: undefined };

/** Whose price a piece of work pays: the configured model's when one did it, else the speech engine's (names in lower case). */
export const priceRefOf = (modelId: string | null | undefined, engine?: string | null): PriceRef | null =>
  modelId ? { modelId } : engine ? { engine: engine.toLowerCase() } : null;

const refCondition = (ref: PriceRef): SQL =>
  ref.modelId !== undefined ? eq(prices.modelId, ref.modelId) : eq(prices.engine, ref.engine);

export async function insertPrice(tx: Db, values: typeof prices.$inferInsert): Promise<PriceRow> {
  const [row] = await tx.insert(prices).values(values).returning();
  return row!;
}

/**
 * Every price of these models and engines effective on or before `until`, latest effective first
 * (of two set for the same moment, the later one first): the first that matches a unit and a
 * moment is the one in force then. One query for a whole batch of usage.
 */
export async function pricesUntil(db: Db, refs: readonly PriceRef[], until: Date): Promise<PriceRow[]> {
  const modelIds = [...new Set(refs.flatMap((r) => (r.modelId !== undefined ? [r.modelId] : [])))];
  const engines = [...new Set(refs.flatMap((r) => (r.engine !== undefined ? [r.engine] : [])))];
  if (modelIds.length === 0 && engines.length === 0) return [];
  const which = [
    ...(modelIds.length ? [inArray(prices.modelId, modelIds)] : []),
    ...(engines.length ? [inArray(prices.engine, engines)] : []),
  ];
  return db
    .select()
    .from(prices)
    .where(and(or(...which), lte(prices.effectiveFrom, until)))
    .orderBy(desc(prices.effectiveFrom), desc(prices.createdAt));
}

/** Whether the model or engine has a price (of any unit) in force at `at`. */
export async function hasPriceAt(db: Db, ref: PriceRef, at: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: prices.id })
    .from(prices)
    .where(and(refCondition(ref), lte(prices.effectiveFrom, at)))
    .limit(1);
  return row !== undefined;
}

/** For every model or engine and unit, the price in force at `at`. */
export async function pricesInForce(db: Db, at: Date): Promise<PriceRow[]> {
  return db
    .selectDistinctOn([prices.modelId, prices.engine, prices.unit])
    .from(prices)
    .where(lte(prices.effectiveFrom, at))
    .orderBy(prices.modelId, prices.engine, prices.unit, desc(prices.effectiveFrom), desc(prices.createdAt));
}

/** Every price set, newest effective first (future ones included), optionally of one model or engine. */
export async function priceHistory(db: Db, filter: { modelId?: string; engine?: string }): Promise<PriceRow[]> {
  const parts: SQL[] = [];
  if (filter.modelId !== undefined) parts.push(eq(prices.modelId, filter.modelId));
  if (filter.engine !== undefined) parts.push(eq(prices.engine, filter.engine));
  return db
    .select()
    .from(prices)
    .where(and(...parts))
    .orderBy(desc(prices.effectiveFrom), desc(prices.createdAt))
    .limit(1000);
}

export async function currency(db: Db): Promise<{ currency: string; creditRate: number }> {
  const [row] = await db
    .select({ currency: pricingSettings.currency, creditRate: pricingSettings.creditRate })
    .from(pricingSettings)
    .where(eq(pricingSettings.id, 1));
  return row ?? { currency: 'EUR', creditRate: 0.01 };
}

/** Locks the settings row: two changes at once each see the other's result as their "before". */
export async function currencyForUpdate(tx: Db): Promise<{ currency: string; creditRate: number }> {
  const [row] = await tx
    .select({ currency: pricingSettings.currency, creditRate: pricingSettings.creditRate })
    .from(pricingSettings)
    .where(eq(pricingSettings.id, 1))
    .for('update');
  return row ?? { currency: 'EUR', creditRate: 0.01 };
}

export async function saveCurrency(tx: Db, value: { currency: string; creditRate: number }): Promise<void> {
  await tx
    .insert(pricingSettings)
    .values({ id: 1, ...value })
    .onConflictDoUpdate({ target: pricingSettings.id, set: { ...value, updatedAt: sql`now()` } });
}

/** Keeps the AI configuration's models (from the prompt service's events) for their names. */
export async function upsertModel(tx: Db, model: typeof pricedModels.$inferInsert): Promise<void> {
  await tx
    .insert(pricedModels)
    .values(model)
    .onConflictDoUpdate({
      target: pricedModels.id,
      set: { name: model.name, label: model.label, purpose: model.purpose },
    });
}

/** Label (else name) of each known model among these ids. */
export async function modelNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(pricedModels)
    .where(inArray(pricedModels.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.label || r.name]));
}
