import { jsonb, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Migration } from '@earshot/kit';
import { auth } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A person's data asked for (issue 25). The auth service coordinates: it records the job, the
 * services answer with their parts (privacy.part_ready), and it assembles the ZIP once all have.
 * `company_id` is the person's company (null: a platform administrator), for who may see the job.
 */
export const privacyJobs = auth.table('privacy_jobs', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').$type<'export' | 'erase'>().notNull(),
  subjectKind: text('subject_kind').$type<'user' | 'client'>().notNull(),
  subjectId: uuid('subject_id').notNull(),
  companyId: uuid('company_id'),
  requestedBy: text('requested_by').notNull(),
  status: text('status').$type<'running' | 'done' | 'failed'>().notNull().default('running'),
  /** The assembled ZIP's object key (an export that is done). */
  zipKey: text('zip_key'),
  createdAt: ts('created_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
});
export type PrivacyJobRow = typeof privacyJobs.$inferSelect;

/** One service's answer to a job: its manifest's object key (what goes in the ZIP) and what it counted. */
export const privacyParts = auth.table('privacy_parts', {
  jobId: uuid('job_id').notNull(),
  service: text('service').notNull(),
  manifest: text('manifest').notNull(),
  counts: jsonb('counts').$type<Record<string, number>>().notNull(),
  at: ts('at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.jobId, t.service] })]);
export type PrivacyPartRow = typeof privacyParts.$inferSelect;

/** Which company each client contact belongs to (from the tenant's client events): who may ask for a client's data. */
export const privacyClients = auth.table('privacy_clients', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
});

export const privacyMigrations: Migration[] = [
  {
    name: '0008_privacy_jobs',
    sql: `
      -- Kept after the person is gone: the job is the record that their request was answered.
      create table privacy_jobs (
        id uuid primary key default gen_random_uuid(),
        kind text not null check (kind in ('export', 'erase')),
        subject_kind text not null check (subject_kind in ('user', 'client')),
        subject_id uuid not null,
        company_id uuid,
        requested_by text not null,
        status text not null default 'running' check (status in ('running', 'done', 'failed')),
        zip_key text,
        created_at timestamptz not null default now(),
        finished_at timestamptz
      );
      create table privacy_parts (
        job_id uuid not null references privacy_jobs (id) on delete cascade,
        service text not null,
        manifest text not null,
        counts jsonb not null,
        at timestamptz not null default now(),
        primary key (job_id, service)
      )`,
  },
  {
    name: '0009_privacy_clients',
    sql: `
      create table privacy_clients (
        id uuid primary key,
        company_id uuid not null
      )`,
  },
];
