import { and, asc, desc, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { CreditFeature, PriceUnit } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import { creditLedger, people } from '../db/schema';

/**
 * Reads of the ledger for usage reports and statements. Usage is the ledger's charges only:
 * reservations and their releases are holds on long work, not use; a settled transcription is
 * a charge like any other. A charge's amount takes away from the balance, so its use is −amount.
 */

/** Charges of one company (one person's when userId is set) in [from, to). */
export interface ChargeScope {
  companyId: string;
  userId?: string;
  from: Date;
  to: Date;
}

function charges(scope: ChargeScope): SQL {
  return and(
    eq(creditLedger.companyId, scope.companyId),
    eq(creditLedger.kind, 'charge'),
    gte(creditLedger.createdAt, scope.from),
    lt(creditLedger.createdAt, scope.to),
    scope.userId === undefined ? undefined : eq(creditLedger.userId, scope.userId),
  )!;
}

// numeric sums come back as exact decimal strings: callers turn them into numbers once.
const used = sql<string>`coalesce(sum(-${creditLedger.amount}), 0)`;
/** What the work reported (tokens, seconds) in these units. */
const measuredIn = (units: readonly PriceUnit[]) =>
  sql<string>`coalesce(sum(${creditLedger.measured}) filter (where ${inArray(creditLedger.unit, [...units])}), 0)`;
/** The day of an entry in UTC, whatever the session's time zone. */
const utcDay = sql<string>`to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
/** What a charge is reported under: the model's name as charged, else the engine. */
const modelLabel = sql<string>`coalesce(${creditLedger.model}, ${creditLedger.engine}, '')`;
/** A person's name from the user projection; '' when the person is gone or unknown. */
const personName = sql<string>`coalesce(trim(${people.firstName} || ' ' || ${people.lastName}), '')`;

export async function usageTotals(db: Db, scope: ChargeScope) {
  const where = charges(scope);
  const [byDay, byUser, byModel, byFeature] = await Promise.all([
    db.select({ day: utcDay, credits: used }).from(creditLedger).where(where).groupBy(utcDay).orderBy(asc(utcDay)),
    db
      .select({ userId: creditLedger.userId, name: sql<string>`min(${personName})`, credits: used })
      .from(creditLedger)
      .leftJoin(people, eq(people.userId, creditLedger.userId))
      .where(where)
      .groupBy(creditLedger.userId)
      .orderBy(desc(used), asc(creditLedger.userId)),
    db
      .select({
        model: modelLabel,
        credits: used,
        // Embeddings are text sent to the model: their tokens count as input.
        inputTokens: measuredIn(['input_1k', 'embedding_1k']),
        outputTokens: measuredIn(['output_1k']),
        seconds: measuredIn(['audio_minute']),
      })
      .from(creditLedger)
      .where(where)
      .groupBy(modelLabel)
      .orderBy(desc(used), asc(modelLabel)),
    db
      .select({ feature: creditLedger.feature, credits: used })
      .from(creditLedger)
      .where(where)
      .groupBy(creditLedger.feature)
      .orderBy(desc(used), asc(creditLedger.feature)),
  ]);
  return { byDay, byUser, byModel, byFeature };
}

export interface ChargeLine {
  seq: number;
  createdAt: Date;
  userId: string | null;
  name: string;
  feature: CreditFeature | null;
  model: string;
  /** The usage event that caused it: the lines of one reply share it. */
  eventId: string | null;
  unit: PriceUnit | null;
  /** How many of the unit, and credits per unit (numeric text). */
  quantity: string | null;
  unitPrice: string | null;
  credits: string;
}

/** Charges one by one, oldest first, after a position (keyset: the ledger's sequence). */
export async function chargeLines(db: Db, scope: ChargeScope, afterSeq: number, limit: number): Promise<ChargeLine[]> {
  return db
    .select({
      seq: creditLedger.seq,
      createdAt: creditLedger.createdAt,
      userId: creditLedger.userId,
      name: personName,
      feature: creditLedger.feature,
      model: modelLabel,
      eventId: creditLedger.eventId,
      unit: creditLedger.unit,
      quantity: sql<string | null>`${creditLedger.quantity}::text`,
      unitPrice: sql<string | null>`${creditLedger.unitPrice}::text`,
      credits: sql<string>`(-${creditLedger.amount})::text`,
    })
    .from(creditLedger)
    .leftJoin(people, eq(people.userId, creditLedger.userId))
    .where(and(charges(scope), gt(creditLedger.seq, afterSeq)))
    .orderBy(asc(creditLedger.seq))
    .limit(limit);
}

/** The booked kinds: what was given, taken back and spent. Reservations and releases are holds. */
const BOOKED = ['grant', 'adjustment', 'charge'] as const;

/** The booked balance of a company before a moment: the sum of its grants, adjustments and charges. */
export async function bookedBalanceBefore(db: Db, companyId: string, before: Date): Promise<string> {
  const [row] = await db
    .select({ balance: sql<string>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.companyId, companyId),
        inArray(creditLedger.kind, [...BOOKED]),
        lt(creditLedger.createdAt, before),
      ),
    );
  return row?.balance ?? '0';
}

/** Grants and adjustments of a company in [from, to), each summed (signed). */
export async function movementsIn(
  db: Db,
  companyId: string,
  from: Date,
  to: Date,
): Promise<{ grants: string; adjustments: string }> {
  const sumOf = (kind: 'grant' | 'adjustment') =>
    sql<string>`coalesce(sum(${creditLedger.amount}) filter (where ${creditLedger.kind} = ${kind}), 0)`;
  const [row] = await db
    .select({ grants: sumOf('grant'), adjustments: sumOf('adjustment') })
    .from(creditLedger)
    .where(
      and(eq(creditLedger.companyId, companyId), gte(creditLedger.createdAt, from), lt(creditLedger.createdAt, to)),
    );
  return { grants: row?.grants ?? '0', adjustments: row?.adjustments ?? '0' };
}

/**
 * Charges of a company in [from, to) by feature, model, unit and unit price (a price changed within
 * the month makes two lines), with the quantity charged. Credits are the sum of the ledger lines'
 * amounts, each rounded when charged.
 */
export async function chargesByFeatureAndModel(db: Db, companyId: string, from: Date, to: Date) {
  return db
    .select({
      feature: creditLedger.feature,
      model: modelLabel,
      unit: creditLedger.unit,
      quantity: sql<string | null>`sum(${creditLedger.quantity})::text`,
      unitPrice: sql<string | null>`${creditLedger.unitPrice}::text`,
      credits: used,
    })
    .from(creditLedger)
    .where(charges({ companyId, from, to }))
    .groupBy(creditLedger.feature, modelLabel, creditLedger.unit, creditLedger.unitPrice)
    .orderBy(asc(creditLedger.feature), asc(modelLabel), asc(creditLedger.unit), asc(creditLedger.unitPrice));
}

/**
 * Use per company and month (UTC, YYYY-MM) since `from`: the credits charged and the seconds of
 * audio transcribed (charges in the audio_minute unit measure seconds). Charges only: reservations
 * are holds, not use.
 */
export async function monthlyUse(db: Db, from: Date) {
  const month = sql<string>`to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM')`;
  return db
    .select({
      companyId: sql<string>`${creditLedger.companyId}::text`,
      month,
      credits: sql<string>`coalesce(sum(-${creditLedger.amount}), 0)`,
      seconds: sql<string>`coalesce(sum(${creditLedger.measured}) filter (where ${creditLedger.unit} = 'audio_minute'), 0)`,
    })
    .from(creditLedger)
    .where(and(eq(creditLedger.kind, 'charge'), gte(creditLedger.createdAt, from)))
    .groupBy(creditLedger.companyId, month);
}
