import type {
  CreditFeature,
  CreditUsageDto,
  CreditUsageQuery,
  MyCreditsDto,
  MyCreditUsageQuery,
} from '@earshot/contracts';
import { badRequest, csvLine, type Identity, type ServiceContext } from '@earshot/kit';
import { spendingState } from '../repositories/credits';
import { currency } from '../repositories/pricing';
import * as repo from '../repositories/usage';
import { assertVisible, loadCompany } from './company-guards';
import { fromUnits, monthOf, toUnits } from './credits/amounts';

const DAY_MS = 86_400_000;
/** The longest period one usage report covers (a day per bar on the chart). */
const MAX_USAGE_DAYS = 366;
/** Charges read per query while a CSV download streams. */
const CSV_BATCH = 500;
/**
 * One line per ledger charge: its unit, quantity of that unit and unit price (credits = quantity ×
 * unit_price, rounded half up to 4 decimals); the lines of one reply share their event.
 */
const USAGE_CSV_COLUMNS = [
  'date',
  'user',
  'feature',
  'model',
  'event',
  'unit',
  'quantity',
  'unit_price',
  'credits',
] as const;

/** Who a charge without a person is for: the company's API key or its own background work. */
const COMPANY_ACCOUNT_NAME = 'Company account';
/** Someone whose user is gone (or not projected here yet): the charge stays, the name does not. */
const FORMER_MEMBER_NAME = 'Former member';

const day = (at: Date) => at.toISOString().slice(0, 10);
const startOfDay = (text: string) => new Date(`${text}T00:00:00.000Z`);

/** [from, to) of a calendar month in UTC. */
export function monthBounds(month: string): { from: Date; to: Date } {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, index - 1, 1)), to: new Date(Date.UTC(year, index, 1)) };
}

export interface UsagePeriod {
  /** First and last day, inclusive, as the answer names them. */
  from: string;
  to: string;
  /** The same as [start, end) instants in UTC. */
  start: Date;
  end: Date;
}

const invalid = (field: string, message: string) => badRequest(`Invalid ${field}: ${message}`, [{ field, message }]);

/**
 * The days a report covers, in UTC: `from` defaults to the first day of `to`'s month and `to` to the
 * last day of `from`'s month; with neither, the current month.
 */
function usagePeriod(query: { from?: string; to?: string }, now: Date): UsagePeriod {
  const anchor = query.from ?? query.to ?? day(now);
  const month = monthBounds(anchor.slice(0, 7));
  const from = query.from ?? day(month.from);
  const to = query.to ?? day(new Date(month.to.getTime() - DAY_MS));
  if (to < from) throw invalid('query.to', 'must not be before from');
  const start = startOfDay(from);
  const end = new Date(startOfDay(to).getTime() + DAY_MS);
  if ((end.getTime() - start.getTime()) / DAY_MS > MAX_USAGE_DAYS)
    throw invalid('query.from', `the period must be at most ${MAX_USAGE_DAYS} days`);
  return { from, to, start, end };
}

/** numeric text (or null) as a number. */
export const decimalOrNull = (text: string | null) => (text === null ? null : Number(text));

const nameOf = (userId: string | null, name: string) =>
  userId === null ? COMPANY_ACCOUNT_NAME : name || FORMER_MEMBER_NAME;

/** Every day of the period with its credits (0 for days without charges), for a continuous chart. */
function everyDay(period: UsagePeriod, rows: { day: string; credits: string }[]): CreditUsageDto['byDay'] {
  const used = new Map(rows.map((r) => [r.day, Number(r.credits)]));
  const days: CreditUsageDto['byDay'] = [];
  for (let at = period.start.getTime(); at < period.end.getTime(); at += DAY_MS) {
    const text = day(new Date(at));
    days.push({ day: text, credits: used.get(text) ?? 0 });
  }
  return days;
}

/** A charge always names its feature; a row without one would be a ledger bug, reported under none. */
const withFeature = <T extends { feature: CreditFeature | null }>(rows: T[]) =>
  rows.filter((r): r is T & { feature: CreditFeature } => r.feature !== null);

/**
 * Usage of credits: a company's (its platform administrator any, its ADMIN their own), a person's
 * own, and the chargeback CSV. Everything is summed in SQL over the ledger's charges; days are UTC.
 */
export class UsageService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async companyUsage(identity: Identity, companyId: string, query: CreditUsageQuery): Promise<CreditUsageDto> {
    assertVisible(identity, companyId);
    await loadCompany(this.ctx.db, companyId);
    return this.report({ companyId, userId: query.userId }, usagePeriod(query, this.now()));
  }

  /** The caller's own charges in their company; someone without a company has none. */
  async myUsage(identity: Identity, query: MyCreditUsageQuery): Promise<CreditUsageDto> {
    const period = usagePeriod(query, this.now());
    if (!identity.companyId) return this.report(null, period);
    return this.report({ companyId: identity.companyId, userId: identity.userId }, period);
  }

  /** The caller's cap and this month's spend; the company's balance only for its administrators. */
  async me(identity: Identity): Promise<MyCreditsDto> {
    const companyId = identity.companyId;
    if (!companyId) return { monthlyCap: null, spentThisMonth: 0, remaining: null, companyBalance: null };
    const isAdmin = identity.role === 'ADMIN' || identity.role === 'HOST_ADMIN';
    // What the credit gate reads, in one round trip (the header asks every minute: no ledger sum).
    const state = await spendingState(this.ctx.db, companyId, identity.userId, monthOf(this.now()));
    const cap = state?.cap ?? null;
    const spent = state?.userSpent ?? 0;
    return {
      monthlyCap: cap,
      spentThisMonth: spent,
      remaining: cap === null ? null : fromUnits(toUnits(cap) - toUnits(spent)),
      companyBalance: isAdmin ? (state?.balance ?? 0) : null,
    };
  }

  /**
   * The chargeback CSV: one line per charge, oldest first, read in batches as the download is
   * consumed. Access and the query are checked before the first byte, so refusals are proper errors.
   */
  async companyCsv(
    identity: Identity,
    companyId: string,
    query: CreditUsageQuery,
  ): Promise<{ filename: string; lines: AsyncIterable<string> }> {
    assertVisible(identity, companyId);
    const company = await loadCompany(this.ctx.db, companyId);
    const period = usagePeriod(query, this.now());
    const scope: repo.ChargeScope = { companyId, userId: query.userId, from: period.start, to: period.end };
    return {
      filename: `usage-${company.code.toLowerCase()}-${period.from}-${period.to}.csv`,
      lines: this.csvLines(scope),
    };
  }

  private async *csvLines(scope: repo.ChargeScope): AsyncGenerator<string> {
    yield csvLine(USAGE_CSV_COLUMNS);
    for (let after = 0; ;) {
      const batch = await repo.chargeLines(this.ctx.db, scope, after, CSV_BATCH);
      if (batch.length === 0) return;
      yield batch
        .map((c) =>
          csvLine([
            c.createdAt.toISOString(),
            nameOf(c.userId, c.name),
            c.feature,
            c.model,
            c.eventId,
            c.unit,
            decimalOrNull(c.quantity),
            decimalOrNull(c.unitPrice),
            Number(c.credits),
          ]),
        )
        .join('');
      after = batch[batch.length - 1]!.seq;
    }
  }

  private async report(
    scope: Omit<repo.ChargeScope, 'from' | 'to'> | null,
    period: UsagePeriod,
  ): Promise<CreditUsageDto> {
    const [money, totals] = await Promise.all([
      currency(this.ctx.db),
      scope ? repo.usageTotals(this.ctx.db, { ...scope, from: period.start, to: period.end }) : null,
    ]);
    return {
      from: period.from,
      to: period.to,
      ...money,
      // The days add up to the whole period (in ten-thousandths: no floating-point drift).
      total: fromUnits((totals?.byDay ?? []).reduce((sum, d) => sum + toUnits(Number(d.credits)), 0)),
      byDay: everyDay(period, totals?.byDay ?? []),
      byUser: (totals?.byUser ?? []).map((r) => ({
        userId: r.userId,
        name: nameOf(r.userId, r.name),
        credits: Number(r.credits),
      })),
      byModel: (totals?.byModel ?? []).map((r) => ({
        model: r.model,
        credits: Number(r.credits),
        inputTokens: Number(r.inputTokens),
        outputTokens: Number(r.outputTokens),
        seconds: Number(r.seconds),
      })),
      byFeature: withFeature(totals?.byFeature ?? []).map((r) => ({ feature: r.feature, credits: Number(r.credits) })),
    };
  }
}
