// The credits panel's forms: a grant (positive) or adjustment (negative) with its reason, and the
// monthly budget and grant (blank = none). Amounts keep at most four decimals, as the ledger does.
import { z } from 'zod';

const AMOUNT = /^-?\d{1,12}(\.\d{1,4})?$/;
const POSITIVE = /^\d{1,12}(\.\d{1,4})?$/;

export const GrantFormSchema = z.object({
  amount: z.string().trim().regex(AMOUNT, 'amountInvalid').refine((value) => Number(value) !== 0, 'amountInvalid'),
  reason: z.string().trim().min(1, 'reasonInvalid').max(500, 'reasonInvalid'),
});
export type GrantFormValues = z.input<typeof GrantFormSchema>;

const optionalPositive = z.string().trim().refine((value) => value === '' || (POSITIVE.test(value) && Number(value) > 0), 'invalid');

export const SettingsFormSchema = z.object({ monthlyBudget: optionalPositive, monthlyGrant: optionalPositive });
export type SettingsFormValues = z.input<typeof SettingsFormSchema>;

export const blankOrNumber = (value: string): number | null => (value === '' ? null : Number(value));
export const numberOrBlank = (value: number | null): string => (value === null ? '' : String(value));
