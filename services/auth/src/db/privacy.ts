import { jsonb, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Actor } from '@earshot/contracts';
import { RetentionProjection, type Migration } from '@earshot/kit';
import { auth } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A person's data asked for. The auth service coordinates: it records the job, the
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
  /** `queued`: waiting for its company's turn (its event not yet sent); see startDueJobs. */
  status: text('status').$type<'queued' | 'running' | 'done' | 'failed'>().notNull().default('running'),
  /** An erasure's choice for the person's recordings (null: an export). */
  recordings: text('recordings').$type<'delete' | 'keep'>(),
  /** The assembled ZIP's object key (an export that is done). */
  zipKey: text('zip_key'),
  /** Who asked, as the request's event names them: the event is sent when the job starts. */
  actor: jsonb('actor').$type<Actor>(),
  createdAt: ts('created_at').notNull().defaultNow(),
  startedAt: ts('started_at'),
  finishedAt: ts('finished_at'),
});
export type PrivacyJobRow = typeof privacyJobs.$inferSelect;

/**
 * One service's answer to a job: what it counted (exported, or removed) and, for an export, its
 * manifest's object key (what goes in the ZIP).
 */
export const privacyParts = auth.table(
  'privacy_parts',
  {
    jobId: uuid('job_id').notNull(),
    service: text('service').notNull(),
    manifest: text('manifest'),
    counts: jsonb('counts').$type<Record<string, number>>().notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.service] })],
);
export type PrivacyPartRow = typeof privacyParts.$inferSelect;

/** Which company each client contact belongs to (from the tenant's client events): who may ask for a client's data. */
export const privacyClients = auth.table('privacy_clients', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
});

/**
 * Each recording's uploader and client, from the file and transcription services' events: which
 * recordings an erasure with `recordings: 'delete'` would remove, so a hold on one of them refuses
 * the request at once (409) rather than half-way through the services.
 */
export const privacyFiles = auth.table('privacy_files', {
  fileId: uuid('file_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  uploadedBy: uuid('uploaded_by'),
  clientId: uuid('client_id'),
});

/**
 * The legal holds of recordings, clients and companies (the kit's projection, from the
 * hold_changed events), read only to refuse an erasure that a hold covers. Its retention policy
 * rows are kept too but unused: auth deletes nothing by age.
 */
export const privacyHolds = new RetentionProjection('auth', ['file', 'client', 'company']);

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
  {
    name: '0010_privacy_erase',
    sql: `
      alter table privacy_jobs add column recordings text check (recordings in ('delete', 'keep'));
      -- An erasure's parts are counts only.
      alter table privacy_parts alter column manifest drop not null;
      create table privacy_files (
        file_id uuid primary key,
        company_id uuid not null,
        uploaded_by uuid,
        client_id uuid
      );
      create index privacy_files_uploader on privacy_files (company_id, uploaded_by);
      create index privacy_files_client on privacy_files (company_id, client_id);
      -- The uploads seen so far; their client links arrive with the next transcript.client_linked.
      insert into privacy_files (file_id, company_id, uploaded_by)
        select file_id, company_id, user_id from file_usage where company_id is not null`,
  },
  privacyHolds.migration,
  {
    name: '0011_privacy_fair_queue',
    sql: `
      -- Companies take turns: a job beyond its company's cap waits as 'queued', its event unsent
      -- (so with the actor kept to send it), until one of the company's jobs ends.
      alter table privacy_jobs drop constraint privacy_jobs_status_check;
      alter table privacy_jobs add constraint privacy_jobs_status_check
        check (status in ('queued', 'running', 'done', 'failed'));
      alter table privacy_jobs add column actor jsonb;
      alter table privacy_jobs add column started_at timestamptz;
      update privacy_jobs set started_at = created_at;
      create index privacy_jobs_unfinished on privacy_jobs (company_id, created_at) where status in ('queued', 'running');
      -- The company whose last start is oldest goes first (one row per company; the platform's own
      -- people, without a company, are the nil id).
      create table queue_turns (
        company_id uuid primary key,
        served_at timestamptz not null
      )`,
  },
];
