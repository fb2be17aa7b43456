// The credits panel's forms over the contracts' bodies: a grant (positive) or adjustment (negative)
// with its reason, and the monthly budget and grant (blank = none). Amounts are typed as text; the
// form's own rule (translated) speaks first, then the contract's field has the last word.
import { z } from 'zod';
import { CreditGrantBody, CreditSettingsBody } from '@earshot/contracts';
import { creditsText, optionalPositiveCreditsText } from '../../entities/credits';

export const GrantFormSchema = z.object({
  amount: creditsText('amountInvalid', { signed: true, nonZero: true }).pipe(CreditGrantBody.shape.amount),
  reason: CreditGrantBody.shape.reason,
});
export type GrantFormValues = z.input<typeof GrantFormSchema>;

/** Blank → null (switched off), else a positive amount. */
export const SettingsFormSchema = z.object({
  monthlyBudget: optionalPositiveCreditsText('invalid').pipe(CreditSettingsBody.shape.monthlyBudget),
  monthlyGrant: optionalPositiveCreditsText('invalid').pipe(CreditSettingsBody.shape.monthlyGrant),
});
export type SettingsFormValues = z.input<typeof SettingsFormSchema>;

export const numberOrBlank = (value: number | null): string => (value === null ? '' : String(value));
