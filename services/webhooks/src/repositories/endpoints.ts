import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import { endpoints, type EndpointRow, type NewEndpointRow } from '../db/schema';

/** Whose endpoints a caller reaches: one company's, or (null) every company's for the platform administrator. */
const visible = (id: string, companyId: string | null) =>
  and(eq(endpoints.id, id), companyId === null ? undefined : eq(endpoints.companyId, companyId));

export async function listEndpoints(db: Db, companyId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(endpoints)
    .where(eq(endpoints.companyId, companyId))
    .orderBy(asc(endpoints.createdAt), asc(endpoints.id));
}

export async function findEndpoint(db: Db, id: string, companyId: string | null): Promise<EndpointRow | undefined> {
  const [row] = await db.select().from(endpoints).where(visible(id, companyId));
  return row;
}

/** The endpoint locked until the transaction ends: two changes of one endpoint apply one after the other. */
export async function lockEndpoint(tx: Db, id: string, companyId: string | null): Promise<EndpointRow | undefined> {
  const [row] = await tx.select().from(endpoints).where(visible(id, companyId)).for('update');
  return row;
}

/**
 * How many endpoints a company has, counted under a per-company advisory lock held to the end of
 * the transaction, so two creations at once cannot both pass the limit.
 */
export async function countForCreate(tx: Db, companyId: string): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${companyId}`}))`);
  const [row] = await tx.select({ n: count() }).from(endpoints).where(eq(endpoints.companyId, companyId));
  return row?.n ?? 0;
}

export async function insertEndpoint(tx: Db, values: NewEndpointRow): Promise<EndpointRow> {
  const [row] = await tx.insert(endpoints).values(values).returning();
  return row!;
}

export async function updateEndpoint(tx: Db, id: string, patch: Partial<NewEndpointRow>): Promise<EndpointRow> {
  const [row] = await tx
    .update(endpoints)
    .set({ ...patch, updatedAt: sql`clock_timestamp()` })
    .where(eq(endpoints.id, id))
    .returning();
  return row!;
}

export async function deleteEndpoint(tx: Db, id: string): Promise<void> {
  await tx.delete(endpoints).where(eq(endpoints.id, id));
}

/** The company's enabled endpoints that asked for an event type. */
export async function subscribedTo(tx: Db, companyId: string, type: string): Promise<EndpointRow[]> {
  return tx
    .select()
    .from(endpoints)
    .where(
      and(eq(endpoints.companyId, companyId), eq(endpoints.enabled, true), sql`${type} = any(${endpoints.events})`),
    );
}

/** A success clears the failing streak. */
export async function markSucceeded(tx: Db, id: string): Promise<void> {
  await tx
    .update(endpoints)
    .set({ failingSince: null })
    .where(and(eq(endpoints.id, id), sql`${endpoints.failingSince} is not null`));
}

/** A failure starts the failing streak (when none runs) and answers the endpoint as it now is. */
export async function markFailed(tx: Db, id: string): Promise<EndpointRow | undefined> {
  const [row] = await tx
    .update(endpoints)
    .set({ failingSince: sql`coalesce(${endpoints.failingSince}, clock_timestamp())` })
    .where(eq(endpoints.id, id))
    .returning();
  return row;
}

/**
 * Turns the endpoint off when it is still on and has failed every delivery since `before`: true
 * when this call did it (so one process, once, tells the company).
 */
export async function disableIfFailingSince(tx: Db, id: string, before: Date, reason: string): Promise<boolean> {
  const rows = await tx
    .update(endpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: sql`clock_timestamp()` })
    .where(
      and(
        eq(endpoints.id, id),
        eq(endpoints.enabled, true),
        sql`${endpoints.failingSince} <= ${before.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: endpoints.id });
  return rows.length > 0;
}

export async function deleteCompanyEndpoints(tx: Db, companyId: string): Promise<void> {
  await tx.delete(endpoints).where(eq(endpoints.companyId, companyId));
}
