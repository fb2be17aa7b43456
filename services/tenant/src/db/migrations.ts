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
  {
    name: '0003_company_removal_and_figures',
    sql: `
      -- A deleted company stays, as 'deleting', until every service has removed its data.
      alter table companies drop constraint companies_status_check;
      alter table companies add constraint companies_status_check check (status in ('active', 'inactive', 'suspended', 'deleting'));
      create table company_removals (
        company_id uuid not null,
        service text not null,
        reported_at timestamptz not null default now(),
        primary key (company_id, service)
      );

      -- Projection of the file service's stored files (from its events): each company's storage used.
      create table company_files (
        file_id uuid primary key,
        company_id uuid not null,
        size bigint not null
      );
      create index company_files_company_idx on company_files (company_id);

      -- The platform-wide kill switches (absent = on); each company's own switches are companies.features.
      create table platform_switches (
        key text primary key,
        enabled boolean not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
  {
    // E-mail: templates (platform defaults and company overrides) and the outgoing mail queue. A
    // message's body is sealed at rest (it may hold a reset link) and dropped once an SMTP server
    // has taken it; without SMTP the .eml file under DATA_DIR/mail is the copy that counts.
    name: '0004_mail',
    sql: `
      create table email_templates (
        id uuid primary key default gen_random_uuid(),
        type text not null,
        language text not null,
        company_id uuid references companies (id) on delete cascade,
        subject text not null,
        html text not null,
        text text not null,
        shipped boolean not null default false,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index email_templates_platform_key on email_templates (type, language) where company_id is null;
      create unique index email_templates_company_key on email_templates (company_id, type, language) where company_id is not null;

      create table mail_messages (
        id uuid primary key default gen_random_uuid(),
        company_id uuid references companies (id) on delete cascade,
        type text not null,
        language text not null,
        to_address text not null,
        subject text not null,
        body_sealed text,
        status text not null default 'queued',
        attempts integer not null default 0,
        next_attempt_at timestamptz default now(),
        claimed_at timestamptz,
        last_error text,
        transport text,
        file_name text,
        created_at timestamptz not null default now(),
        sent_at timestamptz
      );
      create index mail_messages_due_idx on mail_messages (next_attempt_at) where status in ('queued', 'sending');
      create index mail_messages_created_idx on mail_messages (created_at desc, id desc);

      -- Who mail goes to, kept from the auth service's user events (never read from its tables),
      -- their notification choices, and who uploaded each recording (from the file service's events).
      create table mail_recipients (
        user_id text primary key,
        company_id uuid,
        email text not null,
        first_name text not null,
        last_name text not null
      );
      create table mail_preferences (
        user_id text primary key,
        transcript_ready boolean not null default false,
        transcription_failed boolean not null default false,
        updated_at timestamptz not null default now()
      );
      create table mail_recordings (
        file_id text primary key,
        company_id uuid,
        uploaded_by text,
        name text not null
      );
    `,
  },
  {
    // Pricing and credits. The balance lives in credit_accounts, one row per company
    // locked by every ledger entry's transaction; the ledger itself is append-only. Balances held
    // in the old companies.credits column (read-only until now) move over as grants.
    name: '0005_credits',
    sql: `
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
      -- The offline engine runs on this machine: free until the platform administrator prices it.
      insert into prices (engine, unit, credits, effective_from) values ('pocketsphinx', 'audio_minute', 0, '2000-01-01T00:00:00Z');

      create table pricing_settings (
        id integer primary key check (id = 1),
        currency text not null,
        credit_rate double precision not null,
        updated_at timestamptz not null default now()
      );
      insert into pricing_settings (id, currency, credit_rate) values (1, 'EUR', 0.01);

      create table priced_models (
        id text primary key,
        name text not null,
        label text not null,
        purpose text not null
      );

      create table credit_accounts (
        company_id uuid primary key references companies (id) on delete cascade,
        balance numeric(18, 4) not null default 0,
        reserved numeric(18, 4) not null default 0,
        monthly_budget numeric(18, 4),
        monthly_grant numeric(18, 4),
        granted_month text,
        updated_at timestamptz not null default now()
      );

      create table credit_ledger (
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
        quantity numeric(18, 4),
        price_id uuid,
        event_id text,
        user_id text,
        reservation_id uuid,
        created_at timestamptz not null default now()
      );
      create index credit_ledger_company_idx on credit_ledger (company_id, seq desc);
      create index credit_ledger_company_time_idx on credit_ledger (company_id, created_at);
      create index credit_ledger_user_time_idx on credit_ledger (company_id, user_id, created_at) where user_id is not null;
      create unique index credit_ledger_event_key on credit_ledger (event_id, kind, coalesce(unit, '')) where event_id is not null;

      create table credit_reservations (
        id uuid primary key,
        company_id uuid not null,
        subject text not null,
        amount numeric(18, 4) not null,
        user_id text,
        state text not null default 'open' check (state in ('open', 'settled', 'released')),
        created_at timestamptz not null default now(),
        closed_at timestamptz
      );
      create unique index credit_reservations_open_key on credit_reservations (company_id, subject) where state = 'open';

      create table credit_spend (
        company_id uuid not null,
        user_id text not null,
        month text not null,
        credits numeric(18, 4) not null default 0,
        primary key (company_id, user_id, month)
      );

      create table credit_alerts (
        company_id uuid not null,
        user_id text not null,
        month text not null,
        threshold integer not null,
        created_at timestamptz not null default now(),
        primary key (company_id, user_id, month, threshold)
      );

      create table notifications (
        id uuid primary key default gen_random_uuid(),
        user_id text not null,
        company_id uuid,
        kind text not null,
        title text not null,
        body text not null,
        link text,
        read_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index notifications_user_idx on notifications (user_id, created_at desc, id desc);
      create index notifications_unread_idx on notifications (user_id) where read_at is null;

      -- Who is an ADMIN (told of thresholds) and each person's cap, from the user events.
      alter table company_members add column role text;
      alter table company_members add column monthly_credits numeric(18, 4);

      insert into credit_accounts (company_id, balance) select id, credits from companies;
      insert into credit_ledger (company_id, kind, amount, reason)
        select id, 'grant', credits, 'Balance before the credits ledger' from companies where credits <> 0;
      alter table companies drop column credits;
    `,
  },
  {
    // The offline Whisper engine runs on this machine like PocketSphinx: an engine price,
    // whichever downloaded model it uses, free until the platform administrator prices it.
    name: '0006_whisper_price',
    sql: `insert into prices (engine, unit, credits, effective_from) values ('whisper', 'audio_minute', 0, '2000-01-01T00:00:00Z');`,
  },
  {
    // Money an auditor can read: a ledger line says how many of its unit it charged and
    // at what price, so amount = quantity × unit_price (rounded to 4 decimals) can be checked by
    // hand, and two lines of one reply read as two units rather than a double charge. What the work
    // reported (tokens, seconds) stays, as measured. Older lines get both where they can be
    // derived: the quantity from what was measured, the price from the price row they name (0 for
    // a charge made without a price, as it was charged); a release gives back its reservation's.
    // Amounts are never rewritten: an older audio line may differ from quantity × unit_price by
    // 0.0001 (it was rounded once, from seconds, rather than from its minutes).
    name: '0007_ledger_units',
    sql: `
      alter table credit_ledger rename column quantity to measured;
      alter table credit_ledger add column quantity numeric(18, 4);
      alter table credit_ledger add column unit_price numeric(18, 4);
      update credit_ledger set quantity = round(measured / (case unit when 'audio_minute' then 60 else 1000 end), 4)
        where unit is not null and measured is not null;
      update credit_ledger l set unit_price = p.credits from prices p where l.price_id = p.id;
      update credit_ledger set unit_price = 0 where kind = 'charge' and unit is not null and unit_price is null;
      update credit_ledger r set measured = s.measured, quantity = s.quantity, unit_price = s.unit_price
        from credit_ledger s
        where r.kind = 'release' and s.kind = 'reservation' and s.reservation_id = r.reservation_id;
    `,
  },
  {
    // A release names its reservation's quantity and price, read from the reservation's line: by
    // its id, not by a scan of the company's ledger.
    name: '0008_ledger_reservation_index',
    sql: `create index credit_ledger_reservation_idx on credit_ledger (reservation_id) where reservation_id is not null;`,
  },
  {
    // Mail and notifications are the messaging service's now: its first migration (or,
    // with a database role per service, deploy/db-roles.sql) moves these tables with their rows.
    // A new installation created them here empty before that, and a role per service cannot move
    // them: an empty one is dropped; one that still holds rows stays until it has been moved.
    name: '0009_mail_moved_to_messaging',
    sql: `
      do $$
      declare
        moved text;
        has_rows boolean;
      begin
        foreach moved in array array['email_templates', 'mail_messages', 'mail_preferences', 'mail_recordings', 'notifications'] loop
          if to_regclass('tenant.' || moved) is not null then
            execute format('select exists (select 1 from tenant.%I)', moved) into has_rows;
            if not has_rows then
              execute format('drop table tenant.%I', moved);
            end if;
          end if;
        end loop;
      end $$;
    `,
  },
  {
    // Pricing and credits are the billing service's now: its first migration (or, with a
    // database role per service, deploy/db-roles.sql) moves these tables with their rows. A new
    // installation created them here before that, holding nothing but the engines' free prices
    // and the default currency, and a role per service cannot move them: such tables are dropped
    // together; tables that hold anything more stay until they have been moved.
    name: '0012_billing_moved_to_billing',
    sql: `
      do $$
      declare
        moved text;
        seeded_only boolean := true;
      begin
        if to_regclass('tenant.credit_accounts') is null then
          return;
        end if;
        foreach moved in array array['credit_accounts', 'credit_ledger', 'credit_reservations', 'credit_spend', 'credit_alerts', 'priced_models'] loop
          if to_regclass('tenant.' || moved) is not null and seeded_only then
            execute format('select not exists (select 1 from tenant.%I)', moved) into seeded_only;
          end if;
        end loop;
        if seeded_only and to_regclass('tenant.prices') is not null then
          select not exists (select 1 from tenant.prices where created_by is not null or credits <> 0 or engine is null)
            into seeded_only;
        end if;
        if seeded_only and to_regclass('tenant.pricing_settings') is not null then
          select not exists (select 1 from tenant.pricing_settings where currency <> 'EUR' or credit_rate <> 0.01)
            into seeded_only;
        end if;
        if seeded_only then
          foreach moved in array array['prices', 'pricing_settings', 'priced_models', 'credit_accounts', 'credit_ledger', 'credit_reservations', 'credit_spend', 'credit_alerts'] loop
            execute format('drop table if exists tenant.%I', moved);
          end loop;
        end if;
      end $$;
    `,
  },
];
