import { boolean, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Migration } from '@earshot/kit';
import { tenant } from './schema';

/**
 * Legal holds on clients and companies: one row per object ever held; `held` says
 * whether it is now, `reason`, `heldBy` and `changedAt` are the last change's (placing or lifting).
 * Gone with the client or the company (neither can be deleted while held).
 */
const holdColumns = {
  held: boolean('held').notNull(),
  reason: text('reason').notNull(),
  heldBy: text('held_by').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true, mode: 'date' }).notNull(),
};
export const clientHolds = tenant.table('client_holds', {
  clientId: uuid('client_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  ...holdColumns,
});
export const companyHolds = tenant.table('company_holds', {
  companyId: uuid('company_id').primaryKey(),
  ...holdColumns,
});
export type HoldRow = typeof companyHolds.$inferSelect;

export const holdMigrations: Migration[] = [
  {
    name: '0009_legal_holds',
    sql: `
      create table client_holds (
        client_id uuid primary key references clients (id) on delete cascade,
        company_id uuid not null,
        held boolean not null,
        reason text not null,
        held_by text not null,
        changed_at timestamptz not null
      );
      create table company_holds (
        company_id uuid primary key references companies (id) on delete cascade,
        held boolean not null,
        reason text not null,
        held_by text not null,
        changed_at timestamptz not null
      );`,
  },
];
