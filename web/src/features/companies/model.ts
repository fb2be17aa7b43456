// The companies screen's data: the company as the list shows it (the contract's CompanyDto plus
// the usage and deletion fields the tenant service adds), and the form's values ↔ the API body.
// This is a lazy admin chunk, so the contracts' zod schemas may be used here (validation runs
// with the same rules as the server).
import { z } from 'zod';
import {
  CompanyCreateBody,
  COMPANY_STATUSES,
  COMPANY_TYPES,
  HexColour,
  LANGUAGES,
  type CompanyDto,
} from '@earshot/contracts';

export { COMPANY_STATUSES, COMPANY_TYPES, LANGUAGES };
export type CompanyType = (typeof COMPANY_TYPES)[number];
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];
export const THEME_KEYS = ['primary', 'primaryLight', 'primaryDark', 'secondary', 'accent'] as const;
export type ThemeKey = (typeof THEME_KEYS)[number];
export const IMAGE_KINDS = ['logo', 'favIcon', 'mainPageLogo'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/** A company in the list, with its use and, while it is being deleted, the services still removing its data. */
export type Company = CompanyDto;

export interface CompanyPage {
  items: Company[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export interface CompanyListArgs {
  q?: string;
  status?: CompanyStatus;
  type?: CompanyType;
  page: number;
  pageSize: number;
}

export const STORAGE_UNITS = { MB: 1024 ** 2, GB: 1024 ** 3 } as const;
export type StorageUnit = keyof typeof STORAGE_UNITS;

const fields = CompanyCreateBody.shape;
const blankOr = <T extends z.ZodType>(schema: T) => z.union([z.literal(''), schema]);

/**
 * The form: the contract's fields, except that limits are typed as text (blank = unlimited) and
 * storage is entered in MB or GB. Messages are the form's own (translated per field), so each
 * issue only says which field failed.
 */
export const CompanyFormSchema = z.object({
  name: fields.name,
  code: fields.code,
  domain: fields.domain,
  type: z.enum(COMPANY_TYPES),
  status: z.enum(COMPANY_STATUSES),
  maxUsers: blankOr(
    z
      .string()
      .trim()
      .regex(/^[1-9]\d{0,6}$/)
      .refine((v) => Number(v) <= 1_000_000),
  ),
  maxStorage: blankOr(
    z
      .string()
      .trim()
      .regex(/^\d{1,9}(\.\d{1,3})?$/),
  ),
  storageUnit: z.enum(['MB', 'GB']),
  language: z.enum(LANGUAGES),
  partnerCompanyId: z.string(),
  theme: z.object(
    Object.fromEntries(THEME_KEYS.map((key) => [key, blankOr(HexColour)])) as Record<
      ThemeKey,
      ReturnType<typeof blankOr<typeof HexColour>>
    >,
  ),
});
export type CompanyFormValues = z.input<typeof CompanyFormSchema>;

export const EMPTY_FORM: CompanyFormValues = {
  name: '',
  code: '',
  domain: '',
  type: 'business',
  status: 'active',
  maxUsers: '',
  maxStorage: '',
  storageUnit: 'GB',
  language: 'en',
  partnerCompanyId: '',
  theme: { primary: '', primaryLight: '', primaryDark: '', secondary: '', accent: '' },
};

/** MB/GB as typed → bytes (blank = unlimited). */
export function toBytes(amount: string, unit: StorageUnit): number | null {
  return amount.trim() === '' ? null : Math.round(Number(amount) * STORAGE_UNITS[unit]);
}

const round3 = (value: number) => String(Math.round(value * 1000) / 1000);

/** Bytes → GB from 1 GB up, else MB (at most three decimals). */
export function fromBytes(bytes: number | null): { amount: string; unit: StorageUnit } {
  if (bytes === null) return { amount: '', unit: 'GB' };
  return bytes >= STORAGE_UNITS.GB
    ? { amount: round3(bytes / STORAGE_UNITS.GB), unit: 'GB' }
    : { amount: round3(bytes / STORAGE_UNITS.MB), unit: 'MB' };
}

export function formFromCompany(company: Company): CompanyFormValues {
  const storage = fromBytes(company.maxStorage);
  const theme = company.settings?.theme ?? {};
  return {
    name: company.name,
    code: company.code,
    domain: company.domain,
    type: company.type,
    status: company.status === 'deleting' ? 'inactive' : company.status,
    maxUsers: company.maxUsers === null ? '' : String(company.maxUsers),
    maxStorage: storage.amount,
    storageUnit: storage.unit,
    language: company.language,
    partnerCompanyId: company.partnerCompanyId ?? '',
    theme: Object.fromEntries(THEME_KEYS.map((key) => [key, theme[key] ?? ''])) as CompanyFormValues['theme'],
  };
}

/**
 * The body of POST /companies or PUT /companies/:id (a PUT sends every field the form shows).
 * Encryption at rest is left out: it is set, with its checks and confirmation, in the data policies.
 */
export function bodyFromForm(values: z.output<typeof CompanyFormSchema>): Record<string, unknown> {
  const theme = Object.fromEntries(
    THEME_KEYS.filter((key) => values.theme[key]).map((key) => [key, values.theme[key]]),
  );
  return {
    name: values.name,
    code: values.code,
    domain: values.domain,
    type: values.type,
    status: values.status,
    maxUsers: values.maxUsers === '' ? null : Number(values.maxUsers),
    maxStorage: toBytes(values.maxStorage, values.storageUnit),
    language: values.language,
    partnerCompanyId: values.partnerCompanyId || null,
    settings: { theme },
  };
}

/**
 * How the companies page's dialogs and their sections report an outcome (a toast). Kept here, not in
 * company-dialog.tsx, so the sections the dialog renders do not import the dialog back.
 */
export type Notify = (ok: boolean, title: string, detail?: string | null) => void;
