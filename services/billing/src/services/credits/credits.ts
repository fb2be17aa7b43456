import {
  SYSTEM_ACTOR,
  type CreditFeature,
  type CreditGrantBody,
  type CreditGrantDto,
  type CreditsDto,
  type CreditSettingsBody,
  type CreditSettingsDto,
  type CreditsQuery,
  type PriceUnit,
} from '@earshot/contracts';
import { actorOf, notFound, type Db, type Identity, type NewEvent, type ServiceContext } from '@earshot/kit';
import type { CreditAccountRow } from '../../db/schema';
import * as repo from '../../repositories/credits';
import * as pricing from '../../repositories/pricing';
import { assertNotDeleting, assertVisible, loadCompany } from '../company-guards';
import { CreditAlerts } from './alerts';
import { fromUnits, monthOf, priceQuantity, toUnits } from './amounts';
import { balanceOf, post, toLedgerEntryDto, type Entry, type Posted } from './ledger';
import { PriceBook } from './price-book';

type Emit = (event: NewEvent) => void;

/** What a usage event used: the quantities of each unit, for one company and person. */
export interface Usage {
  companyId: string;
  /** The usage event's id: the ledger charges it once. */
  eventId: string;
  /** When the work happened: the price in force then applies. */
  occurredAt: Date;
  feature: CreditFeature;
  userId: string | null;
  /** The model's (or engine's) name as reports show it. */
  model: string | null;
  /** Whose price: a configured model or a speech engine; null when the event names neither (charged 0). */
  ref: pricing.PriceRef | null;
  quantities: { unit: PriceUnit; quantity: number }[];
}

const nullableNumber = (value: number | null) => (value === null ? null : Number(value));
const settingsOf = (account: Pick<CreditAccountRow, 'monthlyBudget' | 'monthlyGrant'>): CreditSettingsDto => ({
  monthlyBudget: nullableNumber(account.monthlyBudget),
  monthlyGrant: nullableNumber(account.monthlyGrant),
});

/**
 * Company credits: the balance and ledger, grants and adjustments by the platform administrator,
 * the monthly budget and grant, and the charges, reservations and releases that usage events
 * cause (see metering.ts). Every entry goes through `post` (ledger.ts): the account row is locked
 * in the entry's transaction.
 */
export class CreditService {
  private readonly alerts = new CreditAlerts();

  constructor(private readonly ctx: ServiceContext) {}

  /** The balance, settings and a page of the ledger: the platform administrator's any company, an ADMIN's own. */
  async credits(identity: Identity, companyId: string, query: CreditsQuery): Promise<CreditsDto> {
    assertVisible(identity, companyId);
    await loadCompany(this.ctx.db, companyId);
    // The balance and the ledger from one snapshot: read apart, a charge posted between the two
    // reads showed in the ledger and not yet in the balance.
    const [[account, page], money] = await Promise.all([
      this.ctx.db.transaction(
        async (tx) =>
          [
            await repo.findAccount(tx, companyId),
            await repo.ledgerPage(tx, companyId, query.page, query.pageSize),
          ] as const,
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      ),
      pricing.currency(this.ctx.db),
    ]);
    const figures = account ?? { balance: 0, reserved: 0, monthlyBudget: null, monthlyGrant: null };
    return {
      ...balanceOf(figures),
      currency: money.currency,
      ...settingsOf(figures),
      ledger: {
        items: page.rows.map(toLedgerEntryDto),
        page: query.page,
        pageSize: query.pageSize,
        total: page.total,
        totalPages: Math.ceil(page.total / query.pageSize),
      },
    };
  }

  /** A grant (positive amount) or an adjustment (negative), with its reason; audited by its event. */
  async grant(identity: Identity, companyId: string, body: CreditGrantBody): Promise<CreditGrantDto> {
    assertVisible(identity, companyId);
    return this.ctx.transact(async (tx, emit) => {
      assertNotDeleting(await loadCompany(tx, companyId));
      const units = toUnits(body.amount);
      const posted = await post(tx, companyId, [
        { kind: units > 0 ? 'grant' : 'adjustment', units, reason: body.reason },
      ]);
      if (!posted) throw notFound('Company');
      const entry = posted.entries[0]!;
      const figures = balanceOf(posted.account);
      const actor = actorOf(identity);
      if (entry.kind === 'grant') {
        emit({
          type: 'credits.granted',
          companyId,
          actor,
          data: {
            entryId: entry.id,
            amount: body.amount,
            reason: body.reason,
            monthly: false,
            balance: figures.balance,
          },
        });
      } else {
        emit({
          type: 'credits.adjusted',
          companyId,
          actor,
          data: { entryId: entry.id, amount: body.amount, reason: body.reason, balance: figures.balance },
        });
      }
      return { ...figures, entry: toLedgerEntryDto(entry) };
    });
  }

  /**
   * The monthly budget and grant. A grant switched on starts with next month (the 1st, UTC):
   * this month's credits are the platform administrator's to add by hand.
   */
  async saveSettings(identity: Identity, companyId: string, body: CreditSettingsBody): Promise<CreditSettingsDto> {
    assertVisible(identity, companyId);
    return this.ctx.transact(async (tx, emit) => {
      assertNotDeleting(await loadCompany(tx, companyId));
      const account = await repo.lockAccount(tx, companyId);
      if (!account) throw notFound('Company');
      const before = settingsOf(account);
      const startsNow = account.monthlyGrant === null && body.monthlyGrant !== null;
      const saved = await repo.saveSettings(tx, companyId, {
        ...body,
        ...(startsNow ? { grantedMonth: monthOf(new Date()) } : {}),
      });
      const after = settingsOf(saved);
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        emit({
          type: 'credits.settings_changed',
          companyId,
          actor: actorOf(identity),
          data: { id: companyId, before, after },
        });
      }
      return after;
    });
  }

  /**
   * Applies the monthly grant of every company that has not had this month's yet: once per month
   * and company, whatever the number of replicas or restarts (the account lock and granted_month).
   * Returns how many were granted.
   */
  async applyMonthlyGrants(now = new Date()): Promise<number> {
    const month = monthOf(now);
    let granted = 0;
    for (const companyId of await repo.grantsDue(this.ctx.db, month)) {
      const done = await this.ctx.transact(async (tx, emit) => {
        const account = await repo.lockAccount(tx, companyId);
        if (
          !account ||
          account.monthlyGrant === null ||
          (account.grantedMonth !== null && account.grantedMonth >= month)
        )
          return false;
        const amount = Number(account.monthlyGrant);
        const reason = `Monthly grant ${month}`;
        const posted = (await post(tx, companyId, [{ kind: 'grant', units: toUnits(amount), reason }], now))!;
        await repo.markGranted(tx, companyId, month);
        emit({
          type: 'credits.granted',
          companyId,
          actor: SYSTEM_ACTOR,
          data: {
            entryId: posted.entries[0]!.id,
            amount,
            reason,
            monthly: true,
            balance: balanceOf(posted.account).balance,
          },
        });
        return true;
      });
      if (done) granted += 1;
    }
    return granted;
  }

  /**
   * Charges what usage events used (one, or a batch) at the prices in force when each happened: one
   * entry per event and unit. A unit without a price (or at 0) is still recorded, at 0 credits, so
   * usage is never lost. Work that already ran is charged in full, even below zero. Charged once per
   * event. A batch's events of one company are posted together: one ledger insert, one balance
   * move, one spend update and one alert check.
   */
  async charge(tx: Db, emit: Emit, usages: readonly Usage[]): Promise<void> {
    const book = await PriceBook.load(tx, usages);
    const byCompany = new Map<string, Usage[]>();
    for (const usage of usages) byCompany.set(usage.companyId, [...(byCompany.get(usage.companyId) ?? []), usage]);
    for (const [companyId, list] of byCompany)
      await this.postCharges(
        tx,
        emit,
        companyId,
        list.flatMap((usage) => chargeEntries(usage, book)),
      );
  }

  /**
   * Reserves the estimated cost of long work (a transcription's estimated seconds) when it is
   * queued: taken off the balance at once, shown as reserved. One open reservation per subject: a
   * job queued again keeps the one it has.
   */
  async reserve(tx: Db, usage: Omit<Usage, 'quantities'> & { subject: string; seconds: number }): Promise<void> {
    if (await repo.openReservation(tx, usage.companyId, usage.subject)) return;
    const reservationId = crypto.randomUUID();
    const [entry] = chargeEntries(
      { ...usage, quantities: [{ unit: 'audio_minute', quantity: usage.seconds }] },
      await PriceBook.load(tx, [usage]),
    );
    const posted = await post(tx, usage.companyId, [{ ...entry!, kind: 'reservation', reservationId }]);
    if (posted?.entries.length) {
      await repo.insertReservation(tx, {
        id: reservationId,
        companyId: usage.companyId,
        subject: usage.subject,
        amount: fromUnits(-entry!.units),
        userId: usage.userId,
      });
    }
  }

  /** Settles a reservation: charges what the work really used and releases what was reserved. */
  async settle(tx: Db, emit: Emit, usage: Usage & { subject: string }): Promise<void> {
    const open = await repo.openReservation(tx, usage.companyId, usage.subject);
    const charged = chargeEntries(
      { ...usage, userId: usage.userId ?? open?.userId ?? null },
      await PriceBook.load(tx, [usage]),
    );
    const posted = await this.postCharges(tx, emit, usage.companyId, [
      ...charged,
      ...(open ? [await this.releaseEntry(tx, open, usage.eventId)] : []),
    ]);
    if (open && posted?.entries.some((e) => e.kind === 'release')) await repo.closeReservation(tx, open.id, 'settled');
  }

  /** Posts one company's charges (and what goes with them), then alerts on the thresholds they reached. */
  private async postCharges(tx: Db, emit: Emit, companyId: string, entries: Entry[]): Promise<Posted | undefined> {
    const people = entries.flatMap((e) => (e.kind === 'charge' && e.userId ? [e.userId] : []));
    const caps = await repo.memberCaps(tx, companyId, people);
    const posted = await post(tx, companyId, entries);
    if (posted) await this.alerts.afterCharge(tx, emit, companyId, posted, caps);
    return posted;
  }

  /** Gives back an open reservation of work that failed or was removed before it finished. */
  async release(tx: Db, companyId: string, subject: string, eventId: string): Promise<void> {
    const open = await repo.openReservation(tx, companyId, subject);
    if (!open) return;
    const posted = await post(tx, companyId, [await this.releaseEntry(tx, open, eventId)]);
    if (posted?.entries.length) await repo.closeReservation(tx, open.id, 'released');
  }

  /** Gives back what a reservation took, naming the same quantity and unit price as its line. */
  private async releaseEntry(
    tx: Db,
    open: { id: string; amount: number; userId: string | null },
    eventId: string,
  ): Promise<Entry> {
    const reserved = await repo.reservationLine(tx, open.id);
    return {
      kind: 'release',
      units: toUnits(Number(open.amount)),
      feature: 'transcription',
      eventId,
      userId: open.userId,
      reservationId: open.id,
      unit: 'audio_minute',
      measured: reserved?.measured ?? null,
      quantityUnits: reserved?.quantity == null ? null : toUnits(reserved.quantity),
      priceUnits: reserved?.unitPrice == null ? null : toUnits(reserved.unitPrice),
    };
  }
}

/**
 * A usage event's charge entries, one per unit, at the prices in force when the work happened: each
 * says its unit, quantity and unit price, and costs quantity × unit price (amounts.ts), so the
 * lines of one reply add up to its cost and never read alike.
 */
function chargeEntries(usage: Usage, book: PriceBook): Entry[] {
  return usage.quantities.map(({ unit, quantity }) => {
    const price = book.at(usage.ref, unit, usage.occurredAt);
    const priced = priceQuantity(quantity, unit, price ? Number(price.credits) : 0);
    return {
      kind: 'charge',
      units: -priced.costUnits,
      feature: usage.feature,
      model: usage.model,
      modelId: usage.ref?.modelId ?? null,
      engine: usage.ref?.engine ?? null,
      unit,
      measured: quantity,
      quantityUnits: priced.quantityUnits,
      priceUnits: priced.priceUnits,
      priceId: price?.id ?? null,
      eventId: usage.eventId,
      userId: usage.userId,
    };
  });
}
