import { boolean, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RedactionMode } from '@earshot/contracts';
import type { Migration } from '@earshot/kit';
import { tenant } from './schema';

/**
 * A company's data policies, kept apart from the companies table: a company without a
 * row has the defaults (no redaction, nothing kept, retention forever). `encryption` stays the
 * companies column the spec defines.
 */
export const companyPolicies = tenant.table('company_policies', {
  companyId: uuid('company_id').primaryKey(),
  redaction: text('redaction').$type<RedactionMode>().notNull(),
  keepOriginal: boolean('keep_original').notNull(),
  recordingsDays: integer('recordings_days'),
  chatsDays: integer('chats_days'),
  auditDays: integer('audit_days'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
export type CompanyPolicyRow = typeof companyPolicies.$inferSelect;

export const policyMigrations: Migration[] = [
  {
    name: '0008_company_policies',
    sql: `
      -- Gone with its company (the removal protocol deletes the companies row last).
      create table company_policies (
        company_id uuid primary key references companies (id) on delete cascade,
        redaction text not null check (redaction in ('off', 'text', 'text_audio')),
        keep_original boolean not null,
        recordings_days integer check (recordings_days >= 1),
        chats_days integer check (chats_days >= 1),
        audit_days integer check (audit_days >= 365),
        updated_at timestamptz not null default now()
      );`,
  },
];
