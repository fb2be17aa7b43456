import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CreditFeature, LedgerKind, PriceUnit } from '@earshot/contracts';

export const tenant = pgSchema('tenant');

export const companies = tenant.table('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  code: text('code').notNull(),
  domain: text('domain').notNull(),
  type: text('type').notNull(),
  status: text('status').notNull(),
  maxUsers: integer('max_users'),
  maxStorage: bigint('max_storage', { mode: 'number' }),
  language: text('language').notNull(),
  encryption: boolean('encryption').notNull().default(false),
  apiKeyHash: text('api_key_hash'),
  apiKeyLast4: text('api_key_last4'),
  partnerCompanyId: uuid('partner_company_id'),
  favIcon: text('fav_icon'),
  logo: text('logo'),
  mainPageLogo: text('main_page_logo'),
  theme: jsonb('theme').$type<Record<string, string>>().notNull().default({}),
  features: jsonb('features').$type<Record<string, boolean>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type CompanyRow = typeof companies.$inferSelect;
export type NewCompanyRow = typeof companies.$inferInsert;

export const companyMembers = tenant.table('company_members', {
  userId: text('user_id').primaryKey(),
  companyId: text('company_id').notNull(),
  /** From the user events: ADMINs are told of credit thresholds; the cap limits the person's monthly spend. */
  role: text('role'),
  monthlyCredits: numeric('monthly_credits', { precision: 18, scale: 4, mode: 'number' }),
});

export const clients = tenant.table('clients', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id').notNull(),
  name: text('name').notNull(),
  organisation: text('organisation'),
  email: text('email'),
  phone: text('phone'),
  externalId: text('external_id'),
  notes: text('notes'),
  ownerId: text('owner_id'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type ClientRow = typeof clients.$inferSelect;
export type NewClientRow = typeof clients.$inferInsert;

export const clientRecordings = tenant.table('client_recordings', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  clientId: uuid('client_id'),
  name: text('name'),
  status: text('status').notNull().default('pending'),
  duration: doublePrecision('duration'),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true, mode: 'date' }),
});
export type ClientRecordingRow = typeof clientRecordings.$inferSelect;

export const companyRemovals = tenant.table(
  'company_removals',
  {
    companyId: uuid('company_id').notNull(),
    service: text('service').notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.service] })],
);

export const companyFiles = tenant.table('company_files', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
});

export const platformSwitches = tenant.table('platform_switches', {
  key: text('key').primaryKey(),
  enabled: boolean('enabled').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * People's names (and addresses), from the auth service's user events: the usage statement names
 * who spent. The table kept its first name when mail moved to the messaging service.
 */
export const mailRecipients = tenant.table('mail_recipients', {
  userId: text('user_id').primaryKey(),
  companyId: uuid('company_id'),
  email: text('email').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
});
export type MailRecipientRow = typeof mailRecipients.$inferSelect;

const credits = (name: string) => numeric(name, { precision: 18, scale: 4, mode: 'number' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Prices per unit of a model or an engine, from a date on; rows are never changed (history). */
export const prices = tenant.table('prices', {
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
export const pricingSettings = tenant.table('pricing_settings', {
  id: integer('id').primaryKey(),
  currency: text('currency').notNull(),
  creditRate: doublePrecision('credit_rate').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The AI configuration's models (from the prompt service's events): names for prices and charges. */
export const pricedModels = tenant.table('priced_models', {
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
export const creditAccounts = tenant.table('credit_accounts', {
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
export const creditLedger = tenant.table('credit_ledger', {
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
export const creditReservations = tenant.table('credit_reservations', {
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
export const creditSpend = tenant.table(
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
export const creditAlerts = tenant.table(
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
