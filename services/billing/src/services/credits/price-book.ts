import type { PriceUnit } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import type { PriceRow } from '../../db/schema';
import { pricesUntil, type PriceRef } from '../../repositories/pricing';

/**
 * The prices that a batch of usage needs, read once: for each piece, the price in force when the
 * work happened (the latest effective on or before that moment), never today's.
 */
export class PriceBook {
  private constructor(private readonly rows: readonly PriceRow[]) {}

  static async load(db: Db, uses: readonly { ref: PriceRef | null; occurredAt: Date }[]): Promise<PriceBook> {
    const refs = uses.flatMap((u) => (u.ref ? [u.ref] : []));
    if (refs.length === 0) return new PriceBook([]);
    const until = new Date(Math.max(...uses.map((u) => u.occurredAt.getTime())));
    return new PriceBook(await pricesUntil(db, refs, until));
  }

  /** The price of a unit in force at `at`; undefined when the model or engine had none then. */
  at(ref: PriceRef | null, unit: PriceUnit, at: Date): PriceRow | undefined {
    if (!ref) return undefined;
    return this.rows.find(
      (row) =>
        row.unit === unit &&
        row.effectiveFrom <= at &&
        (ref.modelId !== undefined ? row.modelId === ref.modelId : row.engine === ref.engine),
    );
  }
}
