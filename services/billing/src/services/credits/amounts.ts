import { CREDIT_DECIMALS, type PriceUnit } from '@earshot/contracts';

/*
 * Credits are computed in whole ten-thousandths (integers), never in floating point: 0.1 + 0.2
 * credits must be 0.3 in the ledger, and a balance after a thousand charges must be exact.
 * PostgreSQL keeps them as numeric(18,4) and sums them exactly.
 */

const SCALE = 10 ** CREDIT_DECIMALS;

/** Credits (at most four decimals) as ten-thousandths. */
export const toUnits = (credits: number): number => Math.round(credits * SCALE);

/** Ten-thousandths as credits. */
export const fromUnits = (units: number): number => units / SCALE;

/** Ten-thousandths as the exact decimal text PostgreSQL's numeric takes (no float on the way). */
export function unitsText(units: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / SCALE)}.${String(abs % SCALE).padStart(CREDIT_DECIMALS, '0')}`;
}

/** How much of what the work reports one price unit covers: tokens are priced per 1,000, audio per minute (60 s). */
const PER: Record<PriceUnit, number> = { input_1k: 1000, output_1k: 1000, embedding_1k: 1000, audio_minute: 60 };

/** A priced line: how many of its unit, at what price, for how much, every figure in ten-thousandths. */
export interface Priced {
  quantityUnits: number;
  priceUnits: number;
  costUnits: number;
}

/**
 * Prices what the work reported (tokens, or seconds of audio) so that a ledger line can be checked
 * by hand: the quantity in the price's unit (thousands of tokens, minutes) is rounded to 4 decimals
 * first (tokens never round; audio rounds to 0.0001 minute, 6 ms, finer than the second it is
 * measured in), then cost = quantity × price, rounded half up to 4 decimals. 1,234 input tokens at
 * 0.7 per 1,000 are 1.234 × 0.7 = 0.8638 credits; 90 s at 1 credit a minute are 1.5 × 1 = 1.5.
 * Integer arithmetic (BigInt for the product): no floating-point drift, whatever the size.
 */
export function priceQuantity(measured: number, unit: PriceUnit, priceCredits: number): Priced {
  const quantityUnits = Math.round((measured * SCALE) / PER[unit]);
  const priceUnits = toUnits(priceCredits);
  const product = BigInt(quantityUnits) * BigInt(priceUnits);
  return { quantityUnits, priceUnits, costUnits: Number((product + BigInt(SCALE / 2)) / BigInt(SCALE)) };
}

/** The calendar month (UTC) of a moment: 'YYYY-MM'. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);
