import { companyKeysMigrations, type Migration } from '@earshot/kit';
import { companyTypes } from '../services/company-types';
import { redactionModes } from '../services/redaction';
import { retention } from '../services/retention-projection';

export const migrations: Migration[] = [
  {
    name: '0001_files',
    sql: `
      create table files (
        id uuid primary key,
        company_id uuid not null,
        storage_key text not null constraint files_storage_key_key unique,
        filename text not null,
        original_name text not null,
        mime_type text not null,
        size bigint not null check (size >= 0),
        status text not null,
        client_id uuid,
        uploaded_by text,
        transcription_status text not null default 'pending',
        transcription_error text,
        uploaded_at timestamptz not null default now()
      );
      create index files_company_newest_idx on files (company_id, uploaded_at desc, id desc);
      create index files_newest_idx on files (uploaded_at desc, id desc);
      create table companies (
        id uuid primary key,
        max_storage bigint check (max_storage is null or max_storage >= 0),
        updated_at timestamptz not null default now()
      );`,
  },
  {
    name: '0002_files_by_client',
    sql: `create index files_client_idx on files (client_id, uploaded_at desc, id desc) where client_id is not null;`,
  },
  {
    // Tags in a table of their own, keyed (company, tag, file): a company's counts are an
    // index-only scan of its range, and "files with this tag" a range read, whatever other
    // companies tag (a GIN index on a text[] column would mix every company's posting lists and
    // count by visiting each of the company's rows). See the README.
    name: '0003_tags_language_speakers',
    sql: `
      create table file_tags (
        company_id uuid not null,
        tag text not null,
        file_id uuid not null references files (id) on delete cascade,
        primary key (company_id, tag, file_id)
      );
      create index file_tags_file_idx on file_tags (file_id);
      alter table files
        add column language text,
        add column expected_speakers smallint check (expected_speakers is null or expected_speakers > 0),
        add column speakers text[] not null default '{}';`,
  },
  {
    // Legal hold on a recording; retention reads the company's due files by upload time.
    name: '0004_legal_hold',
    sql: `
      alter table files
        add column held boolean not null default false,
        add column hold_reason text,
        add column hold_by text,
        add column hold_at timestamptz;`,
  },
  companyTypes.migration,
  retention.migration,
  ...companyKeysMigrations,
  redactionModes.migration,
];
