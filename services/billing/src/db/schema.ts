import {
  bigint,
  doublePrecision,
  integer,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CreditFeature, LedgerKind, PriceUnit } from '@earshot/contracts';

export const billing = pgSchema('billing');

const credits = (name: string) => numeric(name, { precision: 18, scale: 4, mode: 'number' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Prices per unit of a model or an engine, from a date on; rows are never changed (history). */
export const prices = billing.table('prices', {
  id: uuid('id').primaryKey().defaultRandom(),
  modelId: text('model_id'),
  engine: text('engine'),
  unit: text('unit').$type<PriceUnit>().notNull(),
  credits: credits('credits').notNull(),
  effectiveFrom: ts('effective_from').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  createdBy: text('created_by'),
});
export type PriceRow = typeof prices.$inferSelect;

/** One row: the display currency and its rate (currency units per credit). */
export const pricingSettings = billing.table('pricing_settings', {
  id: integer('id').primaryKey(),
  currency: text('currency').notNull(),
  creditRate: doublePrecision('credit_rate').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The AI configuration's models (from the prompt service's events): names for prices and charges. */
export const pricedModels = billing.table('priced_models', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  label: text('label').notNull(),
  purpose: text('purpose').notNull(),
});

/**
 * Each company's balance (what can still be spent, open reservations taken off) and open
 * reservations, kept in the transaction of every ledger entry under this row's lock; its monthly
 * budget and grant; and this month's spend, so checks and alerts never sum the ledger.
 */
export const creditAccounts = billing.table('credit_accounts', {
  companyId: uuid('company_id').primaryKey(),
  balance: credits('balance').notNull().default(0),
  reserved: credits('reserved').notNull().default(0),
  monthlyBudget: credits('monthly_budget'),
  monthlyGrant: credits('monthly_grant'),
  /** 'YYYY-MM' of the last monthly grant applied. */
  grantedMonth: text('granted_month'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type CreditAccountRow = typeof creditAccounts.$inferSelect;

/**
 * The append-only ledger. `amount` is the signed effect on the balance (grant, release, positive
 * adjustment +; charge, reservation, negative adjustment −). Charges keep what was used: the unit,
 * the quantity (tokens or seconds), the model or engine and the price applied. An event charges
 * once: (event_id, kind, unit) is unique where event_id is set.
 */
export const creditLedger = billing.table('credit_ledger', {
  id: uuid('id').primaryKey().defaultRandom(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  companyId: uuid('company_id').notNull(),
  kind: text('kind').$type<LedgerKind>().notNull(),
  amount: credits('amount').notNull(),
  reason: text('reason'),
  feature: text('feature').$type<CreditFeature>(),
  /** The model's (or engine's) name shown in reports, as it was when charged. */
  model: text('model'),
  modelId: text('model_id'),
  engine: text('engine'),
  unit: text('unit').$type<PriceUnit>(),
  /** What the work reported: tokens (input, output, embedding) or seconds of audio. */
  measured: numeric('measured', { precision: 18, scale: 4, mode: 'number' }),
  /** How many of `unit` (thousands of tokens, minutes): amount = −quantity × unitPrice, rounded to 4 decimals. */
  quantity: numeric('quantity', { precision: 18, scale: 4, mode: 'number' }),
  /** Credits per `unit`, from the price row in force (0 when there was none). */
  unitPrice: credits('unit_price'),
  priceId: uuid('price_id'),
  eventId: text('event_id'),
  userId: text('user_id'),
  reservationId: uuid('reservation_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
export type LedgerRow = typeof creditLedger.$inferSelect;
export type NewLedgerRow = typeof creditLedger.$inferInsert;

/** Reservations of long work (a transcription), open until settled by its completion or released by its failure. */
export const creditReservations = billing.table('credit_reservations', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  /** What it is for: the recording's file id. */
  subject: text('subject').notNull(),
  amount: credits('amount').notNull(),
  userId: text('user_id'),
  state: text('state').$type<'open' | 'settled' | 'released'>().notNull().default('open'),
  createdAt: ts('created_at').notNull().defaultNow(),
  closedAt: ts('closed_at'),
});
export type ReservationRow = typeof creditReservations.$inferSelect;

/** Spend per calendar month (UTC): the company's (user_id '') and each person's. */
export const creditSpend = billing.table(
  'credit_spend',
  {
    companyId: uuid('company_id').notNull(),
    userId: text('user_id').notNull(),
    month: text('month').notNull(),
    credits: credits('credits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId, t.month] })],
);

/** Thresholds already alerted: one row per company or person, threshold and month. */
export const creditAlerts = billing.table(
  'credit_alerts',
  {
    companyId: uuid('company_id').notNull(),
    userId: text('user_id').notNull(),
    month: text('month').notNull(),
    threshold: integer('threshold').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId, t.month, t.threshold] })],
);

/**
 * The companies, from the tenant service's events (and from the company creation's call that opens
 * the account): a route checks the company exists and is not being deleted; the CSV and PDF names
 * carry its code, the statement its name.
 */
export const companies = billing.table('companies', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  code: text('code').notNull(),
  status: text('status').notNull(),
});
export type CompanyRow = typeof companies.$inferSelect;

/**
 * People, from the auth service's user events: their company and role, their monthly cap (the
 * gate and the alerts weigh it) and their name (usage reports and statements say who spent).
 */
export const people = billing.table('people', {
  userId: text('user_id').primaryKey(),
  companyId: text('company_id'),
  role: text('role'),
  monthlyCredits: numeric('monthly_credits', { precision: 18, scale: 4, mode: 'number' }),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
});
export type PersonRow = typeof people.$inferSelect;
