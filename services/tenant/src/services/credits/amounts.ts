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

/** How many of a quantity one price unit covers: tokens are priced per 1,000, audio per minute (60 s). */
const PER: Record<PriceUnit, number> = { input_1k: 1000, output_1k: 1000, embedding_1k: 1000, audio_minute: 60 };

/**
 * The cost of a quantity (tokens, or seconds of audio) at a price per unit, in ten-thousandths,
 * rounded to the nearest: 500 output tokens at 4 credits per 1,000 cost 2 credits; audio is charged
 * by the second (90 s at 1 credit a minute cost 1.5).
 */
export function costUnits(quantity: number, unit: PriceUnit, priceCredits: number): number {
  return Math.round((quantity * toUnits(priceCredits)) / PER[unit]);
}

/** The calendar month (UTC) of a moment: 'YYYY-MM'. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);
