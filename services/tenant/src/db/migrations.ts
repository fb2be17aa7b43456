import type { Migration } from '@earshot/kit';

/** The tenant schema. Runs with search_path = tenant: plain table names. Never edit a released one. */
export const migrations: Migration[] = [
  {
    name: '0001_companies',
    sql: `
      create table companies (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        code text not null constraint companies_code_key unique,
        domain text not null constraint companies_domain_key unique,
        type text not null check (type in ('enterprise', 'business', 'b2c', 'partner')),
        status text not null check (status in ('active', 'inactive', 'suspended')),
        max_users integer check (max_users is null or max_users >= 1),
        max_storage bigint check (max_storage is null or max_storage >= 0),
        language text not null check (language in ('en', 'fr', 'et', 'lv')),
        encryption boolean not null default false,
        api_key_hash text constraint companies_api_key_hash_key unique,
        api_key_last4 text,
        partner_company_id uuid references companies (id) on delete restrict,
        fav_icon text,
        logo text,
        main_page_logo text,
        theme jsonb not null default '{}'::jsonb,
        features jsonb not null default '{}'::jsonb,
        credits numeric(18, 4) not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index companies_name_idx on companies (lower(name));
      create index companies_partner_idx on companies (partner_company_id) where partner_company_id is not null;

      -- Projection of the auth service's users (from its events): which company each user belongs to,
      -- so a company that still has users is not deleted from under them.
      create table company_members (
        user_id text primary key,
        company_id text not null
      );
      create index company_members_company_idx on company_members (company_id);
    `,
  },
  {
    name: '0002_clients',
    sql: `
      create table clients (
        id uuid primary key default gen_random_uuid(),
        company_id uuid not null references companies (id) on delete cascade,
        name text not null,
        organisation text,
        email text,
        phone text,
        external_id text,
        notes text,
        owner_id text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint clients_external_id_key unique (company_id, external_id)
      );
      create index clients_company_name_idx on clients (company_id, lower(name), id);

      -- Projection of the company's recordings (from file and transcript events), so a client's
      -- profile lists its recordings without reading the file or transcription service's tables.
      create table client_recordings (
        file_id uuid primary key,
        company_id uuid not null,
        client_id uuid,
        name text,
        status text not null default 'pending',
        duration double precision,
        uploaded_at timestamptz
      );
      create index client_recordings_client_idx on client_recordings (client_id, uploaded_at desc) where client_id is not null;
    `,
  },
];
