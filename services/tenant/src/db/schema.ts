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
