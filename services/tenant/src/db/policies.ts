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
  {
    name: '0012_announce_redaction_policies',
    sql: `
      -- The file, tasks and chat services began keeping each company's redaction mode (to redact
      -- tags, tasks and chat questions) from company.policies_changed: a company whose redaction
      -- was already on is announced once more, its policies unchanged (before = after), so they
      -- learn it without waiting for its next change. A fresh installation has no rows here.
      insert into outbox (id, topic, key, envelope)
      select e.id, 'earshot.tenant', p.company_id::text, jsonb_build_object(
          'id', e.id,
          'type', 'company.policies_changed',
          'version', 1,
          'occurredAt', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'companyId', p.company_id::text,
          'actor', jsonb_build_object('type', 'system', 'id', null),
          'data', jsonb_build_object('id', p.company_id::text, 'before', e.policies, 'after', e.policies))
        from company_policies p
        join companies c on c.id = p.company_id
        cross join lateral (
          select gen_random_uuid() as id, jsonb_build_object(
            'redaction', p.redaction,
            'keepOriginal', p.keep_original,
            'encryption', c.encryption,
            'retention', jsonb_build_object(
              'recordingsDays', p.recordings_days,
              'chatsDays', p.chats_days,
              'auditDays', p.audit_days)) as policies
        ) e
       where p.redaction <> 'off';`,
  },
];
