import {
  bigint,
  bigserial,
  date,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
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
  /** Retention: the last entry cut from the chain's start, its hash (what the first kept entry links to), and how many were cut. */
  baseSeq: bigint('base_seq', { mode: 'number' }),
  baseHash: text('base_hash'),
  pruned: bigint('pruned', { mode: 'number' }).notNull().default(0),
});

/** Every cut retention made at a chain's start: the new base and what went. */
export const chainCheckpoints = audit.table(
  'chain_checkpoints',
  {
    chainKey: text('chain_key').notNull(),
    baseSeq: bigint('base_seq', { mode: 'number' }).notNull(),
    baseHash: text('base_hash').notNull(),
    removed: bigint('removed', { mode: 'number' }).notNull(),
    olderThan: timestamp('older_than', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chainKey, t.baseSeq] })],
);

/** The chain heads as written out once per UTC day. */
export const anchors = audit.table('anchors', {
  day: date('day', { mode: 'string' }).primaryKey(),
  writtenAt: timestamp('written_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  heads: jsonb('heads').$type<{ chain: string | null; entries: number; head: string | null }[]>().notNull(),
});
