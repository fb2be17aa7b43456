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
