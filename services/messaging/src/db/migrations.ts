import { moveTablesSql, type Migration } from '@earshot/kit';
import { companyTypes } from '../services/company-types';

/**
 * The tables that were the tenant service's until e-mail and notifications moved here, and are
 * messaging's now. An existing
 * installation keeps its rows: see 0001_from_tenant.
 */
export const MOVED_TABLES = [
  'email_templates',
  'mail_messages',
  'mail_preferences',
  'mail_recordings',
  'notifications',
] as const;

/**
 * Links each notification to the mail of its event, for rows from before notifications named their
 * mail: the same person, the same transaction's now(), and a mail of the notification's kind (a
 * credit alert is mailed as credits_low or budget_reached). Each mail goes to one notification.
 */
export const PAIR_EARLIER_MAIL = `
      update messaging.notifications n set mail_id = pair.mail_id
        from (
          select distinct on (m.id) m.id as mail_id, n2.id as notification_id
          from messaging.notifications n2
          join messaging.mail_messages m on m.user_id = n2.user_id and m.created_at = n2.created_at
            and (m.type = n2.kind
              or (n2.kind in ('credits_threshold', 'cap_threshold') and m.type in ('credits_low', 'budget_reached')))
          where not exists (select 1 from messaging.notifications linked where linked.mail_id = m.id)
          order by m.id, n2.id
        ) pair
        where n.id = pair.notification_id and n.mail_id is null;`;

/** The messaging schema. Runs with search_path = messaging: plain names. Never edit a released one. */
export const migrations: Migration[] = [
  {
    // Mail and notifications leave the tenant service with their rows. Each table still in the
    // tenant schema moves here when this role owns it (one database user: all-in-one, single-user
    // installs); with a role per service, deploy/db-roles.sql (a superuser) has moved them before
    // the services start. Tables that are nowhere yet (a new installation) are created. The
    // tenant's foreign keys to its companies go: this service keeps its own read model of them.
    // The people and companies read models start from the tenant's projections when this role may
    // read them, or from the copies db-roles.sql left in legacy_people / legacy_companies.
    name: '0001_from_tenant',
    sql: `
      ${moveTablesSql('tenant', 'messaging', MOVED_TABLES)}

      create table if not exists email_templates (
        id uuid primary key default gen_random_uuid(),
        type text not null,
        language text not null,
        company_id uuid,
        subject text not null,
        html text not null,
        text text not null,
        shipped boolean not null default false,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      alter table email_templates drop constraint if exists email_templates_company_id_fkey;
      create unique index if not exists email_templates_platform_key on email_templates (type, language) where company_id is null;
      create unique index if not exists email_templates_company_key on email_templates (company_id, type, language) where company_id is not null;

      create table if not exists mail_messages (
        id uuid primary key default gen_random_uuid(),
        company_id uuid,
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
      alter table mail_messages drop constraint if exists mail_messages_company_id_fkey;
      create index if not exists mail_messages_due_idx on mail_messages (next_attempt_at) where status in ('queued', 'sending');
      create index if not exists mail_messages_created_idx on mail_messages (created_at desc, id desc);

      create table if not exists mail_preferences (
        user_id text primary key,
        transcript_ready boolean not null default false,
        transcription_failed boolean not null default false,
        updated_at timestamptz not null default now()
      );
      create table if not exists mail_recordings (
        file_id text primary key,
        company_id uuid,
        uploaded_by text,
        name text not null
      );

      create table if not exists notifications (
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
      create index if not exists notifications_user_idx on notifications (user_id, created_at desc, id desc);
      create index if not exists notifications_unread_idx on notifications (user_id) where read_at is null;

      create table people (
        user_id text primary key,
        company_id uuid,
        role text,
        email text not null,
        first_name text not null,
        last_name text not null
      );
      create index people_company_idx on people (company_id, role);
      create table companies (
        id uuid primary key,
        name text not null,
        language text not null default 'en',
        domain text not null,
        logo text,
        theme jsonb not null default '{}'::jsonb
      );

      do $$
      begin
        -- Nested, not one condition: SQL does not promise to test AND's operands in order, and
        -- naming a table in a schema this role may not use is an error, not a null.
        if exists (select 1 from pg_namespace where nspname = 'tenant') and to_regclass('messaging.legacy_people') is null then
          if has_schema_privilege('tenant', 'USAGE') then
            if to_regclass('tenant.mail_recipients') is not null and to_regclass('tenant.company_members') is not null and to_regclass('tenant.companies') is not null then
              if has_table_privilege('tenant.mail_recipients', 'SELECT') and has_table_privilege('tenant.company_members', 'SELECT') and has_table_privilege('tenant.companies', 'SELECT') then
                execute 'create table messaging.legacy_people as
                  select r.user_id, r.company_id, m.role, r.email, r.first_name, r.last_name
                  from tenant.mail_recipients r left join tenant.company_members m on m.user_id = r.user_id';
                execute 'create table messaging.legacy_companies as
                  select id, name, language, domain, logo, theme from tenant.companies';
              end if;
            end if;
          end if;
        end if;
        if to_regclass('messaging.legacy_people') is not null then
          insert into people (user_id, company_id, role, email, first_name, last_name)
            select user_id, company_id, role, email, first_name, last_name from legacy_people on conflict do nothing;
          drop table legacy_people;
        end if;
        if to_regclass('messaging.legacy_companies') is not null then
          insert into companies (id, name, language, domain, logo, theme)
            select id, name, coalesce(language, 'en'), domain, logo, coalesce(theme, '{}'::jsonb) from legacy_companies on conflict do nothing;
          drop table legacy_companies;
        end if;
      end $$;
    `,
  },
  {
    // The inbox: a mail sent to one of the platform's people is theirs to read there,
    // with its text part and the console page it points at; read or not, like a notification.
    name: '0002_inbox',
    sql: `
      alter table mail_messages add column user_id text;
      alter table mail_messages add column link text;
      alter table mail_messages add column text_body text;
      alter table mail_messages add column read_at timestamptz;
      create index mail_messages_inbox_idx on mail_messages (user_id, created_at desc, id desc) where user_id is not null;
      create index mail_messages_unread_idx on mail_messages (user_id) where user_id is not null and read_at is null;
    `,
  },
  companyTypes.migration,
  {
    // One inbox item per event: a notification names the mail that went with it (queued in the
    // same transaction), and the inbox lists the pair once; earlier pairs are linked too.
    name: '0003_notification_mail',
    sql: `
      alter table notifications add column mail_id uuid references mail_messages (id) on delete set null;
      create unique index notifications_mail_idx on notifications (mail_id) where mail_id is not null;
      ${PAIR_EARLIER_MAIL}
    `,
  },
];
