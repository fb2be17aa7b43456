import type { CreditFeature, LedgerEntryDto, LedgerKind, PriceUnit } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import type { CreditAccountRow, LedgerRow } from '../../db/schema';
import * as repo from '../../repositories/credits';
import { fromUnits, monthOf, toUnits, unitsText } from './amounts';

/** One entry to append; `units` is its signed effect on the balance in ten-thousandths. */
export interface Entry {
  kind: LedgerKind;
  units: number;
  reason?: string | null;
  feature?: CreditFeature | null;
  model?: string | null;
  modelId?: string | null;
  engine?: string | null;
  unit?: PriceUnit | null;
  /** What the work reported: tokens or seconds. */
  measured?: number | null;
  /** How many of `unit`, and its price, in ten-thousandths. */
  quantityUnits?: number | null;
  priceUnits?: number | null;
  priceId?: string | null;
  eventId?: string | null;
  userId?: string | null;
  reservationId?: string | null;
}

export interface Posted {
  account: CreditAccountRow;
  /** The entries written (an entry its event had already made is not written again). */
  entries: LedgerRow[];
  /** This month's spend after the entries, when they charged something: the company's and each charged person's. */
  spend: { month: string; company: number; people: Map<string, number> } | null;
}

/**
 * Appends entries to a company's ledger and moves its balance, reserved amount and monthly spend
 * in the caller's transaction. The entries go in first, outside any lock (an entry its event
 * already made is skipped by the ledger's unique key, and moves nothing); then the account row is
 * updated, which locks it until commit, and the month's spend follows under that lock: concurrent
 * entries of one company queue on the row, so none is lost or counted twice, and the lock is held
 * for two statements and the commit, however many entries (a batch of events) go in at once.
 * Undefined for a company that no longer exists.
 */
// numeric columns take exact decimal text (drizzle's number type says otherwise).
const decimalOf = (units: number | null | undefined) =>
  units == null ? null : (unitsText(units) as unknown as number);

export async function post(
  tx: Db,
  companyId: string,
  entries: readonly Entry[],
  now = new Date(),
): Promise<Posted | undefined> {
  // The account is made with the company: without one the company is gone, and nothing is written.
  const found = await repo.findAccount(tx, companyId);
  if (!found) return undefined;
  const written = await repo.appendEntries(
    tx,
    entries.map((e) => ({
      companyId,
      kind: e.kind,
      amount: decimalOf(e.units)!,
      reason: e.reason ?? null,
      feature: e.feature ?? null,
      model: e.model ?? null,
      modelId: e.modelId ?? null,
      engine: e.engine ?? null,
      unit: e.unit ?? null,
      measured: e.measured ?? null,
      quantity: decimalOf(e.quantityUnits),
      unitPrice: decimalOf(e.priceUnits),
      priceId: e.priceId ?? null,
      eventId: e.eventId ?? null,
      userId: e.userId ?? null,
      reservationId: e.reservationId ?? null,
    })),
  );
  let balance = 0;
  let reserved = 0;
  let charged = 0;
  const people = new Map<string, number>();
  for (const row of written) {
    const units = toUnits(Number(row.amount));
    balance += units;
    // A reservation takes from the balance into `reserved`; its release gives it back.
    if (row.kind === 'reservation' || row.kind === 'release') reserved -= units;
    if (row.kind !== 'charge') continue;
    charged -= units;
    if (row.userId) people.set(row.userId, (people.get(row.userId) ?? 0) - units);
  }
  // Nothing written (every entry was already made by its event): the account is as it was read.
  const account = written.length
    ? await repo.moveAccount(tx, companyId, unitsText(balance), unitsText(reserved))
    : found;
  if (!account) return undefined;
  if (!written.some((r) => r.kind === 'charge')) return { account, entries: written, spend: null };
  const month = monthOf(now);
  const shares = new Map([...people].map(([userId, units]) => [userId, unitsText(units)]));
  const spend = await repo.addSpend(tx, companyId, month, unitsText(charged), shares);
  return { account, entries: written, spend: { month, ...spend } };
}

export function toLedgerEntryDto(row: LedgerRow): LedgerEntryDto {
  return {
    _id: row.id,
    kind: row.kind,
    amount: Number(row.amount),
    reason: row.reason,
    feature: row.feature,
    model: row.model,
    unit: row.unit,
    quantity: row.quantity === null ? null : Number(row.quantity),
    unitPrice: row.unitPrice === null ? null : Number(row.unitPrice),
    eventId: row.eventId,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An account's figures as the API shows them. */
export const balanceOf = (account: Pick<CreditAccountRow, 'balance' | 'reserved'>) => ({
  balance: fromUnits(toUnits(Number(account.balance))),
  reserved: fromUnits(toUnits(Number(account.reserved))),
});
