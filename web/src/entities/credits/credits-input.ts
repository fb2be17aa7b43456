// A credits amount typed into a form, as text: the form's own rule (with the form's translated
// message) speaks first, then the caller pipes the number to the contract's field, which has the
// last word. Up to 12 digits and CREDIT_DECIMALS decimals, as the server keeps them. Built on zod:
// for the forms of the lazy administration chunks only.
import { z } from 'zod';
import { CREDIT_DECIMALS } from '@earshot/contracts/constants';

const DIGITS = `\\d{1,12}(\\.\\d{1,${CREDIT_DECIMALS}})?`;
const UNSIGNED = new RegExp(`^${DIGITS}$`);
const SIGNED = new RegExp(`^-?${DIGITS}$`);

/** Text → credits: zero or more (`signed`: a minus is allowed; `nonZero`: 0 is refused); else `message`. */
export function creditsText(
  message: string,
  { signed = false, nonZero = false }: { signed?: boolean; nonZero?: boolean } = {},
) {
  const text = z
    .string()
    .trim()
    .regex(signed ? SIGNED : UNSIGNED, message);
  return (nonZero ? text.refine((value) => Number(value) !== 0, message) : text).transform(Number);
}

/** Text → credits or null: blank is null (none), else more than 0; else `message`. */
export function optionalPositiveCreditsText(message: string) {
  return z
    .string()
    .trim()
    .refine((value) => value === '' || (UNSIGNED.test(value) && Number(value) > 0), message)
    .transform((value) => (value === '' ? null : Number(value)));
}
