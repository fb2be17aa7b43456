import { bigint, boolean, doublePrecision, integer, jsonb, numeric, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
