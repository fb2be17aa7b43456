import { moveTablesSql, type Migration } from '@earshot/kit';

/**
 * The tables that were the tenant service's until billing moved here, and are billing's now. An
 * existing installation keeps its rows: see 0001_from_tenant.
 */
export const MOVED_TABLES = [
  'prices',
  'pricing_settings',
  'priced_models',
  'credit_accounts',
  'credit_ledger',
  'credit_reservations',
  'credit_spend',
  'credit_alerts',
] as const;

/** The billing schema. Runs with search_path = billing: plain names. Never edit a released one. */
export const migrations: Migration[] = [
  {
    // Pricing and credits leave the tenant service with their rows. Each table still in the tenant
    // schema moves here when this role owns it (one database user: all-in-one, single-user
    // installs); with a role per service, deploy/db-roles.sql (a superuser) has moved them before
    // the services start. Tables that are nowhere yet (a new installation) are created as the
    // tenant's migrations had left them. The account's foreign key to the tenant's companies goes:
    // this service keeps its own read model of them. The companies and people read models start
    // from the tenant's projections when this role may read them, or from the copies db-roles.sql
    // left in legacy_companies / legacy_people.
    name: '0001_from_tenant',
    sql: `
      ${moveTablesSql('tenant', 'billing', MOVED_TABLES)}

      do $$
      begin
        if to_regclass('billing.prices') is null then
          create table prices (
            id uuid primary key default gen_random_uuid(),
            model_id text,
            engine text,
            unit text not null check (unit in ('input_1k', 'output_1k', 'audio_minute', 'embedding_1k')),
            credits numeric(18, 4) not null check (credits >= 0),
            effective_from timestamptz not null,
            created_at timestamptz not null default now(),
            created_by text,
            check ((model_id is null) <> (engine is null))
          );
          create index prices_model_idx on prices (model_id, unit, effective_from desc, created_at desc) where model_id is not null;
          create index prices_engine_idx on prices (engine, unit, effective_from desc, created_at desc) where engine is not null;
          -- The offline engines run on this machine: free until the platform administrator prices them.
          insert into prices (engine, unit, credits, effective_from) values
            ('pocketsphinx', 'audio_minute', 0, '2000-01-01T00:00:00Z'),
            ('whisper', 'audio_minute', 0, '2000-01-01T00:00:00Z');
        end if;
        if to_regclass('billing.pricing_settings') is null then
          create table pricing_settings (
            id integer primary key check (id = 1),
            currency text not null,
            credit_rate double precision not null,
            updated_at timestamptz not null default now()
          );
          insert into pricing_settings (id, currency, credit_rate) values (1, 'EUR', 0.01);
        end if;
      end $$;

      create table if not exists priced_models (
        id text primary key,
        name text not null,
        label text not null,
        purpose text not null
      );

      create table if not exists credit_accounts (
        company_id uuid primary key,
        balance numeric(18, 4) not null default 0,
        reserved numeric(18, 4) not null default 0,
        monthly_budget numeric(18, 4),
        monthly_grant numeric(18, 4),
        granted_month text,
        updated_at timestamptz not null default now()
      );
      alter table credit_accounts drop constraint if exists credit_accounts_company_id_fkey;

      create table if not exists credit_ledger (
        id uuid primary key default gen_random_uuid(),
        seq bigint generated always as identity,
        company_id uuid not null,
        kind text not null check (kind in ('grant', 'charge', 'reservation', 'release', 'adjustment')),
        amount numeric(18, 4) not null,
        reason text,
        feature text,
        model text,
        model_id text,
        engine text,
        unit text,
        measured numeric(18, 4),
        price_id uuid,
        event_id text,
        user_id text,
        reservation_id uuid,
        created_at timestamptz not null default now(),
        quantity numeric(18, 4),
        unit_price numeric(18, 4)
      );
      create index if not exists credit_ledger_company_idx on credit_ledger (company_id, seq desc);
      create index if not exists credit_ledger_company_time_idx on credit_ledger (company_id, created_at);
      create index if not exists credit_ledger_user_time_idx on credit_ledger (company_id, user_id, created_at) where user_id is not null;
      create unique index if not exists credit_ledger_event_key on credit_ledger (event_id, kind, coalesce(unit, '')) where event_id is not null;
      create index if not exists credit_ledger_reservation_idx on credit_ledger (reservation_id) where reservation_id is not null;

      create table if not exists credit_reservations (
        id uuid primary key,
        company_id uuid not null,
        subject text not null,
        amount numeric(18, 4) not null,
        user_id text,
        state text not null default 'open' check (state in ('open', 'settled', 'released')),
        created_at timestamptz not null default now(),
        closed_at timestamptz
      );
      create unique index if not exists credit_reservations_open_key on credit_reservations (company_id, subject) where state = 'open';

      create table if not exists credit_spend (
        company_id uuid not null,
        user_id text not null,
        month text not null,
        credits numeric(18, 4) not null default 0,
        primary key (company_id, user_id, month)
      );

      create table if not exists credit_alerts (
        company_id uuid not null,
        user_id text not null,
        month text not null,
        threshold integer not null,
        created_at timestamptz not null default now(),
        primary key (company_id, user_id, month, threshold)
      );

      create table companies (
        id uuid primary key,
        name text not null,
        code text not null,
        status text not null
      );
      create table people (
        user_id text primary key,
        company_id text,
        role text,
        monthly_credits numeric(18, 4),
        first_name text not null,
        last_name text not null
      );
      create index people_company_idx on people (company_id);

      do $$
      begin
        -- Nested, not one condition: SQL does not promise to test AND's operands in order, and
        -- naming a table in a schema this role may not use is an error, not a null.
        if exists (select 1 from pg_namespace where nspname = 'tenant') and to_regclass('billing.legacy_people') is null then
          if has_schema_privilege('tenant', 'USAGE') then
            if to_regclass('tenant.mail_recipients') is not null and to_regclass('tenant.company_members') is not null and to_regclass('tenant.companies') is not null then
              if has_table_privilege('tenant.mail_recipients', 'SELECT') and has_table_privilege('tenant.company_members', 'SELECT') and has_table_privilege('tenant.companies', 'SELECT') then
                execute 'create table billing.legacy_people as
                  select coalesce(m.user_id, r.user_id) as user_id, coalesce(m.company_id, r.company_id::text) as company_id,
                         m.role, m.monthly_credits, coalesce(r.first_name, '''') as first_name, coalesce(r.last_name, '''') as last_name
                  from tenant.company_members m full join tenant.mail_recipients r on r.user_id = m.user_id';
                execute 'create table billing.legacy_companies as select id, name, code, status from tenant.companies';
              end if;
            end if;
          end if;
        end if;
        if to_regclass('billing.legacy_people') is not null then
          insert into people (user_id, company_id, role, monthly_credits, first_name, last_name)
            select user_id, company_id, role, monthly_credits, first_name, last_name from legacy_people on conflict do nothing;
          drop table legacy_people;
        end if;
        if to_regclass('billing.legacy_companies') is not null then
          insert into companies (id, name, code, status)
            select id, name, code, status from legacy_companies on conflict do nothing;
          drop table legacy_companies;
        end if;
      end $$;
    `,
  },
];
