import { and, count, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import {
  people,
  creditAccounts,
  creditAlerts,
  creditLedger,
  creditReservations,
  creditSpend,
  type CreditAccountRow,
  type LedgerRow,
  type NewLedgerRow,
  type ReservationRow,
} from '../db/schema';

/** The company-wide row of credit_spend (a person's rows carry their user id). */
export const COMPANY_SPEND = '';

export async function findAccount(db: Db, companyId: string): Promise<CreditAccountRow | undefined> {
  const [row] = await db.select().from(creditAccounts).where(eq(creditAccounts.companyId, companyId));
  return row;
}

/**
 * Locks the company's account row for the rest of the transaction: every change of its settings
 * or monthly grant takes this lock, so concurrent ones apply one after the other. The row is made
 * with the company (and by migration for older ones); undefined when the company does not exist.
 */
export async function lockAccount(tx: Db, companyId: string): Promise<CreditAccountRow | undefined> {
  const [row] = await tx.select().from(creditAccounts).where(eq(creditAccounts.companyId, companyId)).for('update');
  return row;
}

/** Opens the company's account; false when it had one already. */
export async function createAccount(tx: Db, companyId: string): Promise<boolean> {
  const rows = await tx
    .insert(creditAccounts)
    .values({ companyId })
    .onConflictDoNothing()
    .returning({ companyId: creditAccounts.companyId });
  return rows.length > 0;
}

/** What each of these companies can still spend (those without an account are left out). */
export async function balancesOf(db: Db, companyIds: readonly string[]): Promise<Map<string, number>> {
  if (companyIds.length === 0) return new Map();
  const rows = await db
    .select({ companyId: sql<string>`${creditAccounts.companyId}::text`, balance: creditAccounts.balance })
    .from(creditAccounts)
    .where(inArray(creditAccounts.companyId, [...companyIds]));
  return new Map(rows.map((r) => [r.companyId, Number(r.balance)]));
}

/** Appends entries; one whose event already made an entry of its kind and unit is skipped. */
export async function appendEntries(tx: Db, entries: NewLedgerRow[]): Promise<LedgerRow[]> {
  if (entries.length === 0) return [];
  return tx.insert(creditLedger).values(entries).onConflictDoNothing().returning();
}

/**
 * Adds to the account's balance and reserved amounts (credits with four decimals). The UPDATE takes
 * the row's lock (the lock SELECT … FOR UPDATE takes) until the transaction ends, so concurrent
 * entries of one company apply one after the other; taken as late as possible, it is held for
 * this statement, the spend's and the commit only.
 */
export async function moveAccount(
  tx: Db,
  companyId: string,
  balance: string,
  reserved: string,
): Promise<CreditAccountRow | undefined> {
  const [row] = await tx
    .update(creditAccounts)
    .set({
      balance: sql`${creditAccounts.balance} + ${balance}::numeric`,
      reserved: sql`${creditAccounts.reserved} + ${reserved}::numeric`,
      updatedAt: sql`now()`,
    })
    .where(eq(creditAccounts.companyId, companyId))
    .returning();
  return row;
}

export async function saveSettings(
  tx: Db,
  companyId: string,
  values: { monthlyBudget: number | null; monthlyGrant: number | null; grantedMonth?: string | null },
): Promise<CreditAccountRow> {
  const [row] = await tx
    .update(creditAccounts)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(creditAccounts.companyId, companyId))
    .returning();
  return row!;
}

export async function markGranted(tx: Db, companyId: string, month: string): Promise<void> {
  await tx.update(creditAccounts).set({ grantedMonth: month }).where(eq(creditAccounts.companyId, companyId));
}

/** Companies whose monthly grant has not been applied for `month` yet. */
export async function grantsDue(db: Db, month: string): Promise<string[]> {
  const rows = await db
    .select({ companyId: creditAccounts.companyId })
    .from(creditAccounts)
    .where(
      and(
        isNotNull(creditAccounts.monthlyGrant),
        or(isNull(creditAccounts.grantedMonth), lt(creditAccounts.grantedMonth, month)),
      ),
    );
  return rows.map((r) => r.companyId);
}

/**
 * Adds charges to the month's company-wide row and to each person's, in one statement; the totals
 * after. Called after moveAccount (whose row lock orders every entry of the company), so the totals
 * are exact. `people`: each person's share, as numeric text.
 */
export async function addSpend(
  tx: Db,
  companyId: string,
  month: string,
  total: string,
  people: ReadonlyMap<string, string>,
): Promise<{ company: number; people: Map<string, number> }> {
  const amount = (credits: string) => sql`${credits}::numeric` as unknown as number;
  const rows = await tx
    .insert(creditSpend)
    .values([
      { companyId, userId: COMPANY_SPEND, month, credits: amount(total) },
      ...[...people].map(([userId, credits]) => ({ companyId, userId, month, credits: amount(credits) })),
    ])
    .onConflictDoUpdate({
      target: [creditSpend.companyId, creditSpend.userId, creditSpend.month],
      set: { credits: sql`${creditSpend.credits} + excluded.credits` },
    })
    .returning({ userId: creditSpend.userId, credits: creditSpend.credits });
  const totals = new Map(rows.map((r) => [r.userId, Number(r.credits)]));
  const company = totals.get(COMPANY_SPEND) ?? 0;
  totals.delete(COMPANY_SPEND);
  return { company, people: totals };
}

/** What the credit gate weighs, read in one statement. */
export interface SpendingState {
  balance: number;
  monthlyBudget: number | null;
  /** This month's spend of the company, and of the person (0 without one). */
  companySpent: number;
  userSpent: number;
  /** The person's monthly cap; null without one (or without a person). */
  cap: number | null;
}

/**
 * The balance, budget, this month's spend of the company and of the person, and the person's cap,
 * in one round trip: the gate asks before every piece of AI work. Undefined without an account
 * (a company that does not exist).
 */
export async function spendingState(
  db: Db,
  companyId: string,
  userId: string | null,
  month: string,
): Promise<SpendingState | undefined> {
  const spentBy = (who: string | null) => sql<string | null>`(select ${creditSpend.credits} from ${creditSpend}
    where ${creditSpend.companyId} = ${companyId} and ${creditSpend.userId} = ${who} and ${creditSpend.month} = ${month})`;
  const [row] = await db
    .select({
      balance: creditAccounts.balance,
      monthlyBudget: creditAccounts.monthlyBudget,
      companySpent: spentBy(COMPANY_SPEND),
      userSpent: spentBy(userId),
      cap: sql<string | null>`(select ${people.monthlyCredits} from ${people}
      where ${people.userId} = ${userId} and ${people.companyId} = ${companyId})`,
    })
    .from(creditAccounts)
    .where(eq(creditAccounts.companyId, companyId));
  if (!row) return undefined;
  return {
    balance: Number(row.balance),
    monthlyBudget: row.monthlyBudget === null ? null : Number(row.monthlyBudget),
    companySpent: Number(row.companySpent ?? 0),
    userSpent: Number(row.userSpent ?? 0),
    cap: row.cap === null ? null : Number(row.cap),
  };
}

export async function ledgerPage(
  db: Db,
  companyId: string,
  page: number,
  pageSize: number,
): Promise<{ rows: LedgerRow[]; total: number }> {
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.companyId, companyId))
      .orderBy(desc(creditLedger.seq))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(creditLedger).where(eq(creditLedger.companyId, companyId)),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function openReservation(db: Db, companyId: string, subject: string): Promise<ReservationRow | undefined> {
  const [row] = await db
    .select()
    .from(creditReservations)
    .where(
      and(
        eq(creditReservations.companyId, companyId),
        eq(creditReservations.subject, subject),
        eq(creditReservations.state, 'open'),
      ),
    );
  return row;
}

/** The quantity and unit price a reservation's ledger line took, for the release that gives it back. */
export async function reservationLine(
  db: Db,
  reservationId: string,
): Promise<Pick<LedgerRow, 'measured' | 'quantity' | 'unitPrice'> | undefined> {
  const [row] = await db
    .select({ measured: creditLedger.measured, quantity: creditLedger.quantity, unitPrice: creditLedger.unitPrice })
    .from(creditLedger)
    .where(and(eq(creditLedger.reservationId, reservationId), eq(creditLedger.kind, 'reservation')));
  return row;
}

export async function insertReservation(tx: Db, values: typeof creditReservations.$inferInsert): Promise<void> {
  await tx.insert(creditReservations).values(values);
}

export async function closeReservation(tx: Db, id: string, state: 'settled' | 'released'): Promise<void> {
  await tx
    .update(creditReservations)
    .set({ state, closedAt: sql`now()` })
    .where(eq(creditReservations.id, id));
}

/** Records a threshold as alerted; false when it already was (this month, this company or person). */
export async function recordAlert(
  tx: Db,
  values: { companyId: string; userId: string; month: string; threshold: number },
): Promise<boolean> {
  const rows = await tx
    .insert(creditAlerts)
    .values(values)
    .onConflictDoNothing()
    .returning({ threshold: creditAlerts.threshold });
  return rows.length > 0;
}

/** The caps of these members of a company (a member without one, or unknown, is left out). */
export async function memberCaps(db: Db, companyId: string, userIds: readonly string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: people.userId, cap: people.monthlyCredits })
    .from(people)
    .where(
      and(
        eq(people.companyId, companyId),
        inArray(people.userId, [...new Set(userIds)]),
        isNotNull(people.monthlyCredits),
      ),
    );
  return new Map(rows.map((r) => [r.userId, Number(r.cap)]));
}

/** Everything credits holds for a deleted company, its account too. */
export async function removeCompanyCredits(tx: Db, companyId: string): Promise<void> {
  await tx.delete(creditAccounts).where(eq(creditAccounts.companyId, companyId));
  await tx.delete(creditLedger).where(eq(creditLedger.companyId, companyId));
  await tx.delete(creditReservations).where(eq(creditReservations.companyId, companyId));
  await tx.delete(creditSpend).where(eq(creditSpend.companyId, companyId));
  await tx.delete(creditAlerts).where(eq(creditAlerts.companyId, companyId));
}

/** Credits charged to every company since the start (the company-wide spend of every month, for /metrics). */
export async function totalCharged(db: Db): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${creditSpend.credits}), 0)::float8` })
    .from(creditSpend)
    .where(eq(creditSpend.userId, COMPANY_SPEND));
  return Number(row?.total ?? 0);
}
