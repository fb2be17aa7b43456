import { integer, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Migration } from '@earshot/kit';
import { tenant } from './schema';

/**
 * Each service's background encryption of a company's existing data, projected from
 * company.encryption_progressed: one row per (company, service), the newest event's figures.
 * `updated_at` is that event's occurredAt, so an older event arriving late is ignored.
 */
export const encryptionProgress = tenant.table(
  'encryption_progress',
  {
    companyId: uuid('company_id').notNull(),
    service: text('service').notNull(),
    state: text('state').$type<'running' | 'done'>().notNull(),
    done: integer('done').notNull(),
    total: integer('total').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.service] })],
);
export type EncryptionProgressRow = typeof encryptionProgress.$inferSelect;

export const encryptionProgressMigrations: Migration[] = [
  {
    name: '0011_encryption_progress',
    sql: `
      -- Gone with its company (the removal protocol deletes the companies row last).
      create table encryption_progress (
        company_id uuid not null references companies (id) on delete cascade,
        service text not null,
        state text not null check (state in ('running', 'done')),
        done integer not null check (done >= 0),
        total integer not null check (total >= 0),
        updated_at timestamptz not null,
        primary key (company_id, service)
      );`,
  },
];
