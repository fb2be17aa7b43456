import { z } from 'zod';
import { PageQuery, paginated } from '../common';
import { CREDIT_DECIMALS, CREDIT_FEATURES, LEDGER_KINDS, PRICE_UNITS } from '../credit-constants';

/*
 * Pricing, credits, usage, statements and in-app notifications. The tenant service
 * answers all of them but the user cap (auth service). Amounts are credits as JSON numbers with at
 * most CREDIT_DECIMALS decimals; the server keeps them exact (numeric(18,4)).
 */

const SCALE = 10 ** CREDIT_DECIMALS;
/** Largest amount one request may name: far inside numeric(18,4) whatever the sums become. */
export const CREDIT_AMOUNT_MAX = 1_000_000_000;

/** A number of credits with at most four decimals (more would be silently rounded: refused instead). */
export const CreditAmount = z
  .number()
  .finite()
  .refine((n) => Math.abs(n) <= CREDIT_AMOUNT_MAX, `must be at most ${CREDIT_AMOUNT_MAX} credits`)
  .refine((n) => Math.abs(Math.round(n * SCALE) - n * SCALE) < 1e-6, `must have at most ${CREDIT_DECIMALS} decimals`);

// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;
const ModelRef = z.string().trim().min(1).max(128).regex(ONE_LINE, 'must not contain control characters');
/** A speech engine's name as the transcription service reports it (`pocketsphinx`, `whisper`, `openai`). */
export const EngineName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'must be an engine name (letters, digits, . _ -)');

/** A calendar day (UTC) `YYYY-MM-DD` that exists. */
export const DayString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'is not a calendar date',
  );
/** A calendar month (UTC) `YYYY-MM`. */
export const MonthString = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month YYYY-MM');

// ---------------------------------------------------------------- pricing

/** A price: credits per unit of one configured model (`modelId`) or one speech engine (`engine`), from `effectiveFrom` on. */
export const PriceDto = z.object({
  _id: z.string(),
  modelId: z.string().nullable(),
  engine: z.string().nullable(),
  /** The model's label as the AI configuration shows it (null for an engine or a model not known yet). */
  modelName: z.string().nullable(),
  unit: z.enum(PRICE_UNITS),
  credits: z.number(),
  effectiveFrom: z.string(),
  createdAt: z.string(),
});
export type PriceDto = z.infer<typeof PriceDto>;

export const CurrencyDto = z.object({ currency: z.string(), creditRate: z.number() });
export type CurrencyDto = z.infer<typeof CurrencyDto>;

/** `GET /pricing`: the display currency, its rate (currency units per credit) and the prices in force now. */
export const PricingDto = CurrencyDto.extend({ prices: z.array(PriceDto) });
export type PricingDto = z.infer<typeof PricingDto>;

export const PriceHistoryQuery = z.object({ modelId: ModelRef.optional(), engine: EngineName.optional() }).strict();
export type PriceHistoryQuery = z.infer<typeof PriceHistoryQuery>;
export const PriceHistoryDto = z.array(PriceDto);
export type PriceHistoryDto = z.infer<typeof PriceHistoryDto>;

/** `POST /pricing`: exactly one of modelId and engine; effectiveFrom defaults to now and is never in the past. */
export const PriceCreateBody = z
  .object({
    modelId: ModelRef.optional(),
    engine: EngineName.optional(),
    unit: z.enum(PRICE_UNITS),
    credits: CreditAmount.refine((n) => n >= 0, 'must be 0 or more'),
    effectiveFrom: z.string().datetime({ offset: true }).optional(),
  })
  .strict()
  .refine((b) => (b.modelId === undefined) !== (b.engine === undefined), {
    message: 'give exactly one of modelId and engine',
    path: ['modelId'],
  });
export type PriceCreateBody = z.infer<typeof PriceCreateBody>;

/** ISO 4217 code, e.g. EUR. */
export const CurrencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code');
export const CurrencyBody = z
  .object({
    currency: CurrencyCode,
    creditRate: z.number().finite().positive().max(1_000_000),
  })
  .strict();
export type CurrencyBody = z.infer<typeof CurrencyBody>;

// ---------------------------------------------------------------- credits and the ledger

/**
 * One ledger entry, newest first. `amount` is its signed effect on the balance: a grant, a release
 * and a positive adjustment add; a charge, a reservation and a negative adjustment take away.
 * A charge, reservation or release names its `unit`, its `quantity` of that unit (thousands of
 * tokens, minutes of audio, to 4 decimals) and the `unitPrice` (credits per unit) in force:
 * |amount| = quantity × unitPrice, rounded half up to 4 decimals. Grants and adjustments have none.
 */
export const LedgerEntryDto = z.object({
  _id: z.string(),
  kind: z.enum(LEDGER_KINDS),
  amount: z.number(),
  reason: z.string().nullable(),
  feature: z.enum(CREDIT_FEATURES).nullable(),
  /** The model's name (or the speech engine's) as it was when charged. */
  model: z.string().nullable(),
  unit: z.enum(PRICE_UNITS).nullable(),
  quantity: z.number().nullable(),
  unitPrice: z.number().nullable(),
  /** The event that caused it (charges, reservations, releases); null for grants and adjustments by hand. */
  eventId: z.string().nullable(),
  userId: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntryDto = z.infer<typeof LedgerEntryDto>;

export const CreditsQuery = PageQuery.strict();
export type CreditsQuery = z.infer<typeof CreditsQuery>;

export const CreditSettingsDto = z.object({
  monthlyBudget: z.number().nullable(),
  monthlyGrant: z.number().nullable(),
});
export type CreditSettingsDto = z.infer<typeof CreditSettingsDto>;

/** `GET /companies/{id}/credits`: `balance` is what can still be spent (open reservations already taken off). */
export const CreditsDto = CreditSettingsDto.extend({
  balance: z.number(),
  reserved: z.number(),
  currency: z.string(),
  ledger: paginated(LedgerEntryDto),
});
export type CreditsDto = z.infer<typeof CreditsDto>;

/** `POST /companies/{id}/credits`: a positive amount is a grant, a negative one an adjustment. */
export const CreditGrantBody = z
  .object({
    amount: CreditAmount.refine((n) => n !== 0, 'must not be 0'),
    // NUL bytes are refused for every JSON string by the kit, naming the field.
    reason: z.string().trim().min(1).max(500),
  })
  .strict();
export type CreditGrantBody = z.infer<typeof CreditGrantBody>;
export const CreditGrantDto = z.object({ balance: z.number(), reserved: z.number(), entry: LedgerEntryDto });
export type CreditGrantDto = z.infer<typeof CreditGrantDto>;

const PositiveCredits = CreditAmount.refine((n) => n > 0, 'must be more than 0');
/** `PUT /companies/{id}/credits/settings`: null switches either off. */
export const CreditSettingsBody = z
  .object({
    /** Credits the company means to spend per calendar month (UTC): its ADMINs are told at 80 % and 100 %. */
    monthlyBudget: PositiveCredits.nullable(),
    /** Credits granted by themselves on the 1st of each month (UTC). */
    monthlyGrant: PositiveCredits.nullable(),
  })
  .strict();
export type CreditSettingsBody = z.infer<typeof CreditSettingsBody>;

// ---------------------------------------------------------------- usage and statements

export const CreditUsageQuery = z
  .object({
    from: DayString.optional(),
    to: DayString.optional(),
    userId: z.string().uuid().optional(),
  })
  .strict();
export type CreditUsageQuery = z.infer<typeof CreditUsageQuery>;
/** `GET /credits/me/usage`: the caller's own charges only. */
export const MyCreditUsageQuery = CreditUsageQuery.omit({ userId: true }).strict();
export type MyCreditUsageQuery = z.infer<typeof MyCreditUsageQuery>;

export const CreditUsageDto = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  creditRate: z.number(),
  total: z.number(),
  byDay: z.array(z.object({ day: z.string(), credits: z.number() })),
  byUser: z.array(z.object({ userId: z.string().nullable(), name: z.string(), credits: z.number() })),
  byModel: z.array(
    z.object({
      model: z.string(),
      credits: z.number(),
      inputTokens: z.number(),
      outputTokens: z.number(),
      seconds: z.number(),
    }),
  ),
  byFeature: z.array(z.object({ feature: z.enum(CREDIT_FEATURES), credits: z.number() })),
});
export type CreditUsageDto = z.infer<typeof CreditUsageDto>;

export const StatementQuery = z.object({ month: MonthString.optional() }).strict();
export type StatementQuery = z.infer<typeof StatementQuery>;
export const StatementDto = z.object({
  companyId: z.string(),
  companyName: z.string(),
  month: z.string(),
  currency: z.string(),
  creditRate: z.number(),
  opening: z.number(),
  grants: z.number(),
  adjustments: z.number(),
  /**
   * Charges by feature, model, unit and unit price (a price changed within the month makes two
   * lines): the quantity charged in that unit, and the credits — the sum of the ledger lines'
   * amounts, each rounded when charged, so it may differ from quantity × unitPrice by at most
   * 0.00005 a ledger line.
   */
  charges: z.array(
    z.object({
      feature: z.enum(CREDIT_FEATURES),
      model: z.string(),
      unit: z.enum(PRICE_UNITS).nullable(),
      quantity: z.number().nullable(),
      unitPrice: z.number().nullable(),
      credits: z.number(),
    }),
  ),
  totalCharges: z.number(),
  closing: z.number(),
});
export type StatementDto = z.infer<typeof StatementDto>;

/** `GET /credits/me`: the caller's monthly cap and spend; the company's balance for administrators only. */
export const MyCreditsDto = z.object({
  monthlyCap: z.number().nullable(),
  spentThisMonth: z.number(),
  remaining: z.number().nullable(),
  /** null for USER and CALLER (and a HOST_ADMIN, who has no company). */
  companyBalance: z.number().nullable(),
});
export type MyCreditsDto = z.infer<typeof MyCreditsDto>;

// ---------------------------------------------------------------- notifications

/**
 * What a notification is about: credit alerts, a task assigned to the person or due today, a
 * transcription of theirs that failed, an analysis run of theirs that finished, a task that
 * mentions them (`@First Last`), a webhook endpoint of their company turned off for failing.
 */
export const NOTIFICATION_KINDS = [
  'credits_threshold',
  'cap_threshold',
  'task_assigned',
  'task_due',
  'transcription_failed',
  'analysis_finished',
  'mention',
  'webhook_disabled',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NotificationDto = z.object({
  _id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type NotificationDto = z.infer<typeof NotificationDto>;

export const NotificationQuery = PageQuery.strict();
export type NotificationQuery = z.infer<typeof NotificationQuery>;
export const NotificationPage = paginated(NotificationDto).extend({ unread: z.number().int() });
export type NotificationPage = z.infer<typeof NotificationPage>;
export const UnreadDto = z.object({ unread: z.number().int() });
export type UnreadDto = z.infer<typeof UnreadDto>;

// ---------------------------------------------------------------- user caps (auth service)

/** `PUT /users/{id}/cap`: the person's monthly credits (null: no cap of their own). */
export const UserCapBody = z.object({ monthlyCredits: PositiveCredits.nullable() }).strict();
export type UserCapBody = z.infer<typeof UserCapBody>;
export const UserCapDto = z.object({ _id: z.string(), monthlyCredits: z.number().nullable() });
export type UserCapDto = z.infer<typeof UserCapDto>;
