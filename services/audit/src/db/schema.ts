import { bigserial, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Actor } from '@earshot/contracts';

export const audit = pgSchema('audit');

export const entries = audit.table('entries', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  id: uuid('id').notNull(),
  occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
  recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  type: text('type').notNull(),
  version: integer('version').notNull(),
  companyId: text('company_id'),
  actor: jsonb('actor').$type<Actor>().notNull(),
  actorId: text('actor_id'),
  targetType: text('target_type').notNull(),
  targetId: text('target_id'),
  before: jsonb('before'),
  after: jsonb('after'),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
});
export type EntryRow = typeof entries.$inferSelect;
export type NewEntryRow = typeof entries.$inferInsert;
