import { sql } from 'drizzle-orm';
import { bigserial, boolean, integer, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WebhookDeliveryStatus } from '@earshot/contracts';

export const webhooksSchema = pgSchema('webhooks');

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const endpoints = webhooksSchema.table('endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyId: uuid('company_id').notNull(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  description: text('description').notNull(),
  enabled: boolean('enabled').notNull(),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousUntil: ts('previous_until'),
  failingSince: ts('failing_since'),
  disabledReason: text('disabled_reason'),
  createdAt: ts('created_at')
    .notNull()
    .default(sql`clock_timestamp()`),
  updatedAt: ts('updated_at')
    .notNull()
    .default(sql`clock_timestamp()`),
});
export type EndpointRow = typeof endpoints.$inferSelect;
export type NewEndpointRow = typeof endpoints.$inferInsert;

export const deliveries = webhooksSchema.table('deliveries', {
  id: uuid('id').primaryKey().defaultRandom(),
  seq: bigserial('seq', { mode: 'number' }).notNull(),
  endpointId: uuid('endpoint_id')
    .notNull()
    .references(() => endpoints.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id').notNull(),
  eventId: uuid('event_id').notNull(),
  eventType: text('event_type').notNull(),
  body: text('body').notNull(),
  status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  roundAttempts: integer('round_attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').default(sql`clock_timestamp()`),
  lastAttemptAt: ts('last_attempt_at'),
  lastStatusCode: integer('last_status_code'),
  lastError: text('last_error'),
  lastDurationMs: integer('last_duration_ms'),
  responseExcerpt: text('response_excerpt'),
  createdAt: ts('created_at')
    .notNull()
    .default(sql`clock_timestamp()`),
});
export type DeliveryRow = typeof deliveries.$inferSelect;
export type NewDeliveryRow = typeof deliveries.$inferInsert;
