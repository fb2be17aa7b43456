// The credits panel's forms over the contracts' bodies: a grant (positive) or adjustment (negative)
// with its reason, and the monthly budget and grant (blank = none). Amounts are typed as text; the
// form's own rule (translated) speaks first, then the contract's field has the last word.
import { z } from 'zod';
import { CreditGrantBody, CreditSettingsBody } from '@earshot/contracts';

const AMOUNT = /^-?\d{1,12}(\.\d{1,4})?$/;
const POSITIVE = /^\d{1,12}(\.\d{1,4})?$/;

export const GrantFormSchema = z.object({
  amount: z.string().trim().regex(AMOUNT, 'amountInvalid').refine((value) => Number(value) !== 0, 'amountInvalid').transform(Number).pipe(CreditGrantBody.shape.amount),
  reason: CreditGrantBody.shape.reason,
});
export type GrantFormValues = z.input<typeof GrantFormSchema>;

/** Blank → null (switched off), else a positive amount. */
function optionalPositive(field: typeof CreditSettingsBody.shape.monthlyBudget) {
  return z.string().trim().refine((value) => value === '' || (POSITIVE.test(value) && Number(value) > 0), 'invalid')
    .transform((value) => (value === '' ? null : Number(value))).pipe(field);
}

export const SettingsFormSchema = z.object({
  monthlyBudget: optionalPositive(CreditSettingsBody.shape.monthlyBudget),
  monthlyGrant: optionalPositive(CreditSettingsBody.shape.monthlyGrant),
});
export type SettingsFormValues = z.input<typeof SettingsFormSchema>;

export const numberOrBlank = (value: number | null): string => (value === null ? '' : String(value));
