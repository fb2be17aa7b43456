import {
  type CurrencyBody,
  type CurrencyDto,
  type EventOf,
  type PriceCreateBody,
  type PriceDto,
  type PriceHistoryQuery,
  type PriceUnit,
  type PricingDto,
  SYSTEM_ACTOR,
} from '@earshot/contracts';
import { actorOf, badRequest, type Db, type Emit, type Identity, type ServiceContext } from '@earshot/kit';
import type { PriceRow } from '../db/schema';
import * as repo from '../repositories/pricing';

/** A client's clock may run a little behind ours: "now" sent by it is still now, never the past. */
const CLOCK_SKEW_MS = 5_000;

function toPriceDto(row: PriceRow, names: ReadonlyMap<string, string>): PriceDto {
  return {
    _id: row.id,
    modelId: row.modelId,
    engine: row.engine,
    modelName: row.modelId ? (names.get(row.modelId) ?? null) : null,
    unit: row.unit,
    credits: Number(row.credits),
    effectiveFrom: row.effectiveFrom.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

async function withNames(db: Db, rows: PriceRow[]): Promise<PriceDto[]> {
  const names = await repo.modelNames(db, [...new Set(rows.flatMap((r) => (r.modelId ? [r.modelId] : [])))]);
  return rows.map((r) => toPriceDto(r, names));
}

/**
 * Prices (credits per unit of a model or engine) with effective dates, and the display currency.
 * A price is never changed or removed: a new one takes over from its date, so every past charge
 * keeps the price it was made at.
 */
export class PricingService {
  constructor(private readonly ctx: ServiceContext) {}

  async pricing(): Promise<PricingDto> {
    const [money, rows] = await Promise.all([repo.currency(this.ctx.db), repo.pricesInForce(this.ctx.db, new Date())]);
    return { ...money, prices: await withNames(this.ctx.db, rows) };
  }

  async history(query: PriceHistoryQuery): Promise<PriceDto[]> {
    return withNames(this.ctx.db, await repo.priceHistory(this.ctx.db, query));
  }

  async setPrice(identity: Identity, body: PriceCreateBody): Promise<PriceDto> {
    const now = Date.now();
    const requested = body.effectiveFrom ? Date.parse(body.effectiveFrom) : now;
    if (requested < now - CLOCK_SKEW_MS) {
      const message = 'must not be in the past: a price never rewrites charges already made';
      throw badRequest(`Invalid body.effectiveFrom: ${message}`, [{ field: 'body.effectiveFrom', message }]);
    }
    const effectiveFrom = new Date(Math.max(requested, now));
    const row = await this.ctx.transact(async (tx, emit) => {
      const created = await repo.insertPrice(tx, {
        modelId: body.modelId ?? null,
        engine: body.engine ?? null,
        unit: body.unit,
        credits: body.credits,
        effectiveFrom,
        createdBy: identity.userId,
      });
      emit({
        type: 'price.set',
        companyId: null,
        actor: actorOf(identity),
        data: {
          id: created.id,
          modelId: created.modelId,
          engine: created.engine,
          unit: created.unit,
          credits: body.credits,
          effectiveFrom: effectiveFrom.toISOString(),
        },
      });
      return created;
    });
    return (await withNames(this.ctx.db, [row]))[0]!;
  }

  async setCurrency(identity: Identity, body: CurrencyBody): Promise<CurrencyDto> {
    return this.ctx.transact(async (tx, emit) => {
      const before = await repo.currencyForUpdate(tx);
      await repo.saveCurrency(tx, body);
      if (before.currency !== body.currency || before.creditRate !== body.creditRate) {
        emit({
          type: 'pricing.currency_changed',
          companyId: null,
          actor: actorOf(identity),
          data: { before, after: body },
        });
      }
      return body;
    });
  }

  /**
   * Keeps the AI configuration's model names (prompt service events) for prices and charges. A
   * deleted model keeps its name here: its prices stay in the history under it.
   */
  async applyModelEvent(tx: Db, event: EventOf<'ai_model.created' | 'ai_model.updated'>, emit: Emit): Promise<void> {
    const after = event.data.after;
    if (after)
      await repo.upsertModel(tx, { id: event.data.id, name: after.name, label: after.label, purpose: after.purpose });
    if ('prices' in event.data && event.data.prices)
      await this.startingPrices(tx, emit, event.data.id, event.data.prices, new Date(event.occurredAt));
  }

  /**
   * The prices a model starts at, proposed by the service that created it (the local-AI servers it
   * registers at first start are free). Only a model without any price takes them: a price the
   * platform administrator set is never replaced by an event.
   */
  private async startingPrices(
    tx: Db,
    emit: Emit,
    modelId: string,
    starting: { unit: PriceUnit; credits: number }[],
    at: Date,
  ): Promise<void> {
    if (starting.length === 0 || (await repo.priceHistory(tx, { modelId })).length > 0) return;
    for (const { unit, credits } of starting) {
      const created = await repo.insertPrice(tx, {
        modelId,
        engine: null,
        unit,
        credits,
        effectiveFrom: at,
        createdBy: null,
      });
      emit({
        type: 'price.set',
        companyId: null,
        actor: SYSTEM_ACTOR,
        data: { id: created.id, modelId, engine: null, unit, credits, effectiveFrom: at.toISOString() },
      });
    }
  }
}
