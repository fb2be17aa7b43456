// Constants of pricing, credits and metering (zod-free, so the console may import them).

/** The units a price is set in: tokens are priced per 1,000, audio per minute (charged by the second). */
export const PRICE_UNITS = ['input_1k', 'output_1k', 'audio_minute', 'embedding_1k'] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];

/** What a ledger entry is. The balance is derived from these; nothing is ever updated or deleted. */
export const LEDGER_KINDS = ['grant', 'charge', 'reservation', 'release', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** The product areas AI use is metered and reported by. */
export const CREDIT_FEATURES = ['chat', 'analysis', 'transcription', 'embeddings', 'custom_gpt'] as const;
export type CreditFeature = (typeof CREDIT_FEATURES)[number];

/** Credits are kept to this many decimal places (tokens × price ÷ 1,000 rounds here). */
export const CREDIT_DECIMALS = 4;

/** Share of a monthly budget or cap at which the ADMINs (and the person, for a cap) are told. */
export const CREDIT_ALERT_THRESHOLDS = [80, 100] as const;

export const CREDIT_CODES = {
  CREDITS_EXHAUSTED: 'CREDITS_EXHAUSTED',
  USER_CAP_REACHED: 'USER_CAP_REACHED',
  MODEL_NOT_PRICED: 'MODEL_NOT_PRICED',
} as const;
export type CreditCode = (typeof CREDIT_CODES)[keyof typeof CREDIT_CODES];

export const CREDIT_MESSAGES = {
  CREDITS_EXHAUSTED: 'Your company has no credits left: ask your administrator',
  USER_CAP_REACHED: 'You have used your monthly credits: ask your administrator',
  MODEL_NOT_PRICED: 'This model has no price yet: ask your platform administrator to set one',
} as const satisfies Record<CreditCode, string>;
