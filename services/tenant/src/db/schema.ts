import { bigint, boolean, doublePrecision, integer, jsonb, numeric, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
  credits: numeric('credits', { precision: 18, scale: 4, mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type CompanyRow = typeof companies.$inferSelect;
export type NewCompanyRow = typeof companies.$inferInsert;

export const companyMembers = tenant.table('company_members', {
  userId: text('user_id').primaryKey(),
  companyId: text('company_id').notNull(),
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

export const companyRemovals = tenant.table('company_removals', {
  companyId: uuid('company_id').notNull(),
  service: text('service').notNull(),
  reportedAt: timestamp('reported_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.companyId, t.service] })]);

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

export const emailTemplates = tenant.table('email_templates', {
  id: uuid('id').primaryKey().defaultRandom(),
  type: text('type').notNull(),
  language: text('language').notNull(),
  companyId: uuid('company_id'),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  shipped: boolean('shipped').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type EmailTemplateRow = typeof emailTemplates.$inferSelect;

export const mailMessages = tenant.table('mail_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id'),
  type: text('type').notNull(),
  language: text('language').notNull(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  bodySealed: text('body_sealed'),
  status: text('status').$type<'queued' | 'sending' | 'sent' | 'failed'>().notNull().default('queued'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).defaultNow(),
  claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
  lastError: text('last_error'),
  transport: text('transport').$type<'smtp' | 'file'>(),
  fileName: text('file_name'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
});
export type MailMessageRow = typeof mailMessages.$inferSelect;
export type NewMailMessageRow = typeof mailMessages.$inferInsert;

export const mailRecipients = tenant.table('mail_recipients', {
  userId: text('user_id').primaryKey(),
  companyId: uuid('company_id'),
  email: text('email').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
});
export type MailRecipientRow = typeof mailRecipients.$inferSelect;

export const mailPreferences = tenant.table('mail_preferences', {
  userId: text('user_id').primaryKey(),
  transcriptReady: boolean('transcript_ready').notNull().default(false),
  transcriptionFailed: boolean('transcription_failed').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const mailRecordings = tenant.table('mail_recordings', {
  fileId: text('file_id').primaryKey(),
  companyId: uuid('company_id'),
  uploadedBy: text('uploaded_by'),
  name: text('name').notNull(),
});
