import { aiCatalogueMigrations } from '@earshot/ai';
import type { Migration } from '@earshot/kit';
import { companyTypes } from '../services/company-types';

export const migrations: Migration[] = [
  {
    name: '0001_transcripts_and_jobs',
    sql: `
      -- One transcript per uploaded file: the file facts from file.uploaded, then the result.
      create table transcripts (
        id uuid primary key,
        file_id uuid not null unique,
        company_id uuid not null,
        storage_key text not null,
        filename text not null,
        original_name text not null,
        mime_type text not null,
        size bigint not null,
        client_id uuid,
        uploaded_by text,
        uploaded_at timestamptz not null,
        engine text,
        duration double precision,
        speakers jsonb not null default '[]'::jsonb,
        segments jsonb not null default '[]'::jsonb,
        peaks jsonb,
        completed_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index transcripts_company_idx on transcripts (company_id, uploaded_at desc);

      -- The work queue: workers claim rows with FOR UPDATE SKIP LOCKED and hold a lease.
      create table jobs (
        file_id uuid primary key references transcripts (file_id) on delete cascade,
        company_id uuid not null,
        status text not null check (status in ('not_started', 'pending', 'processing', 'completed', 'failed')),
        attempts integer not null default 0,
        reason text,
        next_attempt_at timestamptz not null default now(),
        locked_by text,
        locked_until timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index jobs_claimable_idx on jobs (next_attempt_at) where status = 'pending';
      create index jobs_leased_idx on jobs (locked_until) where status = 'processing';
      create index jobs_company_idx on jobs (company_id, updated_at desc);`,
  },
  // The providers and models of AI Configuration, kept from the prompt service's events.
  ...aiCatalogueMigrations(),
  {
    name: '0002_clients',
    sql: `
      -- Which clients exist and in which company (from the tenant service's client events), so a
      -- transcript is only ever linked to a client of its own company.
      create table clients (
        id uuid primary key,
        company_id uuid not null
      );
      create index transcripts_client_idx on transcripts (client_id) where client_id is not null;`,
  },
  companyTypes.migration,
  {
    name: '0003_estimated_seconds',
    sql: `
      -- How long the upload plays as the file service estimated it: what a queued job reserves in
      -- credits until its transcript's real duration is known.
      alter table transcripts add column estimated_seconds double precision;`,
  },
];
