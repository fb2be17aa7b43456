import { boolean, integer, pgSchema, text, timestamp, uuid, jsonb } from 'drizzle-orm/pg-core';
import type { NotificationKind } from '@earshot/contracts';

export const messaging = pgSchema('messaging');
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const emailTemplates = messaging.table('email_templates', {
  id: uuid('id').primaryKey().defaultRandom(),
  type: text('type').notNull(),
  language: text('language').notNull(),
  companyId: uuid('company_id'),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  shipped: boolean('shipped').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type EmailTemplateRow = typeof emailTemplates.$inferSelect;

export const mailMessages = messaging.table('mail_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id'),
  type: text('type').notNull(),
  language: text('language').notNull(),
  toAddress: text('to_address').notNull(),
  /** The person the mail went to, when it is one of the platform's people (their inbox lists it). */
  userId: text('user_id'),
  /** Where the mail's call to action points inside the console (the inbox's link), or null. */
  link: text('link'),
  /** The plain-text part, kept for the recipient's inbox (never for mail carrying a sign-in link). */
  textBody: text('text_body'),
  readAt: ts('read_at'),
  subject: text('subject').notNull(),
  bodySealed: text('body_sealed'),
  status: text('status').$type<'queued' | 'sending' | 'sent' | 'failed'>().notNull().default('queued'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').defaultNow(),
  claimedAt: ts('claimed_at'),
  lastError: text('last_error'),
  transport: text('transport').$type<'smtp' | 'file'>(),
  fileName: text('file_name'),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
});
export type MailMessageRow = typeof mailMessages.$inferSelect;
export type NewMailMessageRow = typeof mailMessages.$inferInsert;

export const mailPreferences = messaging.table('mail_preferences', {
  userId: text('user_id').primaryKey(),
  transcriptReady: boolean('transcript_ready').notNull().default(false),
  transcriptionFailed: boolean('transcription_failed').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const mailRecordings = messaging.table('mail_recordings', {
  fileId: text('file_id').primaryKey(),
  companyId: uuid('company_id'),
  uploadedBy: text('uploaded_by'),
  name: text('name').notNull(),
});

/** In-app notifications (the header's bell and the inbox), one per recipient. */
export const notifications = messaging.table('notifications', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id').notNull(),
  companyId: uuid('company_id'),
  kind: text('kind').$type<NotificationKind>().notNull(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  link: text('link'),
  /** The mail that told the person of the same event (the inbox lists the pair once), or null. */
  mailId: uuid('mail_id'),
  readAt: ts('read_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
export type NotificationRow = typeof notifications.$inferSelect;

/** The people mail and notifications go to, from the auth service's user events. */
export const people = messaging.table('people', {
  userId: text('user_id').primaryKey(),
  companyId: uuid('company_id'),
  role: text('role'),
  email: text('email').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
});
export type PersonRow = typeof people.$inferSelect;

/** What mail needs of a company (name, language, address, branding), from the tenant service's events. */
export const companies = messaging.table('companies', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  language: text('language').notNull().default('en'),
  domain: text('domain').notNull(),
  logo: text('logo'),
  theme: jsonb('theme').$type<Record<string, string>>().notNull().default({}),
});
export type CompanyRow = typeof companies.$inferSelect;
