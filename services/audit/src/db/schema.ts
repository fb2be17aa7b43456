import { bigint, bigserial, date, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
  prevHash: text('prev_hash'),
  hash: text('hash'),
});
export type EntryRow = typeof entries.$inferSelect;
export type NewEntryRow = typeof entries.$inferInsert;

/** Each chain's last link ('' = the platform's chain); its row lock serialises the chain's appends. */
export const chainHeads = audit.table('chain_heads', {
  chainKey: text('chain_key').primaryKey(),
  seq: bigint('seq', { mode: 'number' }),
  hash: text('hash'),
  entries: bigint('entries', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The chain heads as written out once per UTC day. */
export const anchors = audit.table('anchors', {
  day: date('day', { mode: 'string' }).primaryKey(),
  writtenAt: timestamp('written_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  heads: jsonb('heads').$type<{ chain: string | null; entries: number; head: string | null }[]>().notNull(),
});
