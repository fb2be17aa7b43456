// Credits are numbers with up to four decimals (CREDIT_DECIMALS); the screens show them in the
// page's language and, beside them, what they are worth in the display currency.
import { CREDIT_DECIMALS } from '@earshot/contracts/constants';

export function formatCredits(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: CREDIT_DECIMALS }).format(value);
}

/** `credits × rate` in `currency` (an ISO 4217 code); an unknown code falls back to the number and the code. */
export function formatMoney(credits: number, rate: number, currency: string, language: string): string {
  const amount = credits * rate;
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency, maximumFractionDigits: 4 }).format(amount);
  } catch {
    return `${new Intl.NumberFormat(language, { maximumFractionDigits: 4 }).format(amount)} ${currency}`;
  }
}

/** 'YYYY-MM' of a date, in UTC (statements are by calendar month, UTC). */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** 'YYYY-MM-DD' of a date, in UTC. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

// The contracts' DayString and MonthString, as plain predicates: the usage and statement pages are
// not administration chunks, so they may not load zod (scripts/bench-bundle.mjs fails the build if
// they do). credits-format.test.ts checks these agree with the contracts' schemas.

/** A calendar day (UTC) 'YYYY-MM-DD' that exists (2024-02-29 yes, 2024-02-31 no). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/** A calendar month (UTC) 'YYYY-MM'. */
export function isMonth(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}
