import { and, count, desc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import type { WebhookDeliveryQuery } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { deliveries, endpoints, type DeliveryRow, type NewDeliveryRow } from '../db/schema';

/**
 * Records deliveries; one already recorded for the same endpoint and event is left as it is, so an
 * event handled twice (a redelivery from the bus) is sent once.
 */
export async function insertDeliveries(tx: Db, rows: NewDeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(deliveries).values(rows).onConflictDoNothing();
}

export async function insertDelivery(tx: Db, row: NewDeliveryRow): Promise<DeliveryRow> {
  const [inserted] = await tx.insert(deliveries).values(row).returning();
  return inserted!;
}

export async function deliveryPage(
  db: Db,
  endpointId: string,
  query: WebhookDeliveryQuery,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = and(
    eq(deliveries.endpointId, endpointId),
    query.status ? eq(deliveries.status, query.status) : undefined,
  );
  const rows = await db
    .select()
    .from(deliveries)
    .where(where)
    .orderBy(desc(deliveries.seq))
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await db.select({ n: count() }).from(deliveries).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findDelivery(db: Db, endpointId: string, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.id, id), eq(deliveries.endpointId, endpointId)));
  return row;
}

/** Queues a delivery again from the start of the schedule (its id, and so its webhook-id, stay). */
export async function requeue(tx: Db, id: string): Promise<void> {
  await tx
    .update(deliveries)
    .set({ status: 'pending', roundAttempts: 0, nextAttemptAt: sql`clock_timestamp()` })
    .where(eq(deliveries.id, id));
}

/** A claimed delivery with what sending it needs from its endpoint. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  companyId: string;
  eventType: string;
  body: string;
  roundAttempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousUntil: Date | null;
}

/**
 * Claims up to `limit` deliveries that are due, at most one per endpoint and only the oldest
 * pending one of each (so an endpoint receives its events in order, and a delivery waiting for its
 * retry holds back those after it). The rows are locked with SKIP LOCKED while claimed, then leased
 * for `leaseMs`: another worker passes them by, and one whose worker died is tried again after it.
 */
export async function claimDue(tx: Db, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const result = await tx.execute(sql`
    with heads as (
      select distinct on (d.endpoint_id) d.id, d.next_attempt_at
      from ${deliveries} d
      join ${endpoints} e on e.id = d.endpoint_id and e.enabled
      where d.status = 'pending'
      order by d.endpoint_id, d.seq
    ),
    due as (
      select d.id from ${deliveries} d
      where d.id in (select id from heads where next_attempt_at <= clock_timestamp())
      order by d.next_attempt_at
      limit ${limit}
      for update of d skip locked
    )
    update ${deliveries} d
    set next_attempt_at = clock_timestamp() + make_interval(secs => ${leaseMs / 1000}),
        attempts = d.attempts + 1,
        round_attempts = d.round_attempts + 1,
        last_attempt_at = clock_timestamp()
    from due, ${endpoints} e
    where d.id = due.id and e.id = d.endpoint_id
    returning d.id, d.endpoint_id, d.company_id, d.event_type, d.body, d.round_attempts,
      e.url, e.secret, e.previous_secret, e.previous_until`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return rows.map((r) => ({
    id: r.id as string,
    endpointId: r.endpoint_id as string,
    companyId: r.company_id as string,
    eventType: r.event_type as string,
    body: r.body as string,
    roundAttempts: Number(r.round_attempts),
    url: r.url as string,
    secret: r.secret as string,
    previousSecret: (r.previous_secret as string | null) ?? null,
    previousUntil: r.previous_until ? new Date(r.previous_until as string) : null,
  }));
}

/** What one attempt came to. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string | null;
}

/**
 * Records an attempt: `next` null with `ok` ends the delivery as succeeded, null without it as
 * failed; a date keeps it pending until then.
 */
export async function recordAttempt(
  tx: Db,
  id: string,
  outcome: AttemptOutcome,
  ok: boolean,
  next: Date | null,
): Promise<void> {
  await tx
    .update(deliveries)
    .set({
      status: ok ? 'succeeded' : next ? 'pending' : 'failed',
      nextAttemptAt: next,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      lastDurationMs: outcome.durationMs,
      responseExcerpt: outcome.excerpt,
    })
    .where(eq(deliveries.id, id));
}

export async function deleteCompanyDeliveries(tx: Db, companyId: string): Promise<void> {
  await tx.delete(deliveries).where(eq(deliveries.companyId, companyId));
}

/**
 * A person's deliveries in their company: those whose body names them (a user's or client
 * contact's id appears quoted in the JSON body, as `userId`, `uploadedBy`, `assigneeId` or
 * `clientId`; an id is a UUID, so the quoted match names nothing else).
 */
/** A page of the deliveries whose body names the person, in the order they were made, after the one `afterSeq` (null: from the first). */
export async function deliveriesOfPerson(
  tx: Db,
  companyId: string,
  personId: string,
  page: { afterSeq: number | null; limit: number },
): Promise<DeliveryRow[]> {
  return tx
    .select()
    .from(deliveries)
    .where(
      and(
        eq(deliveries.companyId, companyId),
        sql`strpos(${deliveries.body}, ${`"${personId}"`}) > 0`,
        page.afterSeq === null ? undefined : gt(deliveries.seq, page.afterSeq),
      ),
    )
    .orderBy(deliveries.seq)
    .limit(page.limit);
}

export async function deleteDeliveriesOfPerson(tx: Db, companyId: string, personId: string): Promise<number> {
  const removed = await tx
    .delete(deliveries)
    .where(and(eq(deliveries.companyId, companyId), sql`strpos(${deliveries.body}, ${`"${personId}"`}) > 0`))
    .returning({ id: deliveries.id });
  return removed.length;
}

/**
 * Drops up to `limit` finished deliveries (succeeded or failed) created before `before`; pending
 * ones stay whatever their age, so retention never loses an event still to be sent.
 */
export async function deleteFinishedBefore(tx: Db, before: Date, limit: number): Promise<number> {
  const due = tx
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(and(ne(deliveries.status, 'pending'), lt(deliveries.createdAt, before)))
    .limit(limit);
  const removed = await tx.delete(deliveries).where(inArray(deliveries.id, due)).returning({ id: deliveries.id });
  return removed.length;
}
