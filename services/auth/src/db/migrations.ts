import type { Migration } from '@earshot/kit';
import { privacyMigrations } from './privacy';

export const migrations: Migration[] = [
  {
    name: '0001_auth',
    sql: `
      create table users (
        id uuid primary key default gen_random_uuid(),
        company_id uuid,
        email text not null check (email = lower(email)),
        first_name text not null,
        last_name text not null,
        avatar text,
        role text not null check (role in ('HOST_ADMIN', 'ADMIN', 'USER', 'CALLER')),
        password_hash text not null,
        status text not null default 'active' check (status in ('active', 'disabled')),
        two_step_enabled boolean not null default false,
        two_step_secret text,
        two_step_pending_secret text,
        two_step_last_step bigint,
        last_sign_in_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((role = 'HOST_ADMIN') = (company_id is null))
      );
      -- An email is unique within a company (platform administrators count as one "company").
      create unique index users_company_email on users ((coalesce(company_id, '00000000-0000-0000-0000-000000000000'::uuid)), email);
      create index users_email on users (email);
      create index users_company on users (company_id, created_at);

      create table refresh_tokens (
        token_hash text primary key,
        family_id uuid not null,
        user_id uuid not null references users (id) on delete cascade,
        remember boolean not null,
        expires_at timestamptz not null,
        created_at timestamptz not null default now(),
        used_at timestamptz,
        revoked_at timestamptz
      );
      create index refresh_tokens_family on refresh_tokens (family_id);
      create index refresh_tokens_user on refresh_tokens (user_id);

      create table companies (
        id uuid primary key,
        domain text not null,
        status text not null,
        max_users integer,
        deleted_at timestamptz,
        updated_at timestamptz not null default now()
      );
      create index companies_domain on companies (domain);

      create table sign_in_throttle (
        key text primary key,
        failures integer not null,
        window_started_at timestamptz not null,
        locked_until timestamptz
      );

      create table two_step_challenges (
        token_hash text primary key,
        user_id uuid not null references users (id) on delete cascade,
        remember boolean not null,
        expires_at timestamptz not null
      );

      create table password_resets (
        token_hash text primary key,
        user_id uuid not null references users (id) on delete cascade,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index password_resets_user on password_resets (user_id)`,
  },
  {
    name: '0002_sessions',
    sql: `
      -- Sessions ended before their access tokens expired: every verifier refuses these ids until
      -- then (auth loads them at start; other processes learn them from user.sessions_ended).
      create table ended_sessions (
        session_id uuid primary key,
        until timestamptz not null
      );
      -- The successor of a rotated refresh token, sealed, so a second refresh within the grace
      -- window gets the same one instead of ending the session.
      alter table refresh_tokens add column successor_sealed text;
      -- At most a few live reset links per account: the oldest are voided first.
      create index password_resets_live on password_resets (user_id, created_at) where used_at is null`,
  },
  {
    name: '0003_administration',
    sql: `
      -- Set with a one-time password (created without one, or reset by an administrator): the next
      -- sign-in asks for a new password before it gives a session.
      alter table users add column password_change_required boolean not null default false;
      create index users_role_status on users (company_id, role, status);
      -- A pending sign-in has a purpose: the two-step code, or the new password that replaces a
      -- one-time one. Each step accepts only its own challenges.
      alter table two_step_challenges add column purpose text not null default 'two_step' check (purpose in ('two_step', 'password_change'));
      -- The company's name and type (b2c: consumer users) from tenant events; null until the next
      -- company event for companies projected before this migration.
      alter table companies add column name text;
      alter table companies add column type text;
      -- What the file service announced (file.uploaded / file.deleted): who uploaded how much, for the
      -- consumer users list. Auth never reads the file service's tables.
      create table file_usage (
        file_id uuid primary key,
        company_id uuid,
        user_id uuid,
        size bigint not null
      );
      create index file_usage_user on file_usage (user_id)`,
  },
  {
    name: '0004_invitations',
    sql: `
      -- An invitation is a password-setting link like a reset link (hashed, single use), kept apart
      -- by its purpose: it lives for days, the person's account waits for it (status invited), and a
      -- flood of reset requests never voids it.
      alter table password_resets add column purpose text not null default 'reset' check (purpose in ('reset', 'invitation'));
      -- Invited: an account waiting for its first password (its hash is empty, so nothing verifies).
      alter table users drop constraint users_status_check;
      alter table users add constraint users_status_check check (status in ('active', 'disabled', 'invited'))`,
  },
  {
    name: '0005_account',
    sql: `
      -- The console's language chosen in one's profile (null: the company's language).
      alter table users add column language text check (language in ('en', 'fr', 'et', 'lv'));
      -- One row per session (a refresh family; the access token's session id): where it was last
      -- seen from, for the list of one's own sessions. Its refresh tokens say whether it is alive.
      create table sessions (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        user_agent text not null,
        address text not null,
        created_at timestamptz not null default now(),
        last_seen_at timestamptz not null default now()
      );
      create index sessions_user on sessions (user_id, last_seen_at);
      -- Two-step recovery codes: only their SHA-256 (they are random, like refresh tokens); each works once.
      create table two_step_recovery_codes (
        user_id uuid not null references users (id) on delete cascade,
        code_hash text not null,
        used_at timestamptz,
        primary key (user_id, code_hash)
      )`,
  },
  {
    name: '0006_avatars',
    sql: `
      -- A person's uploaded picture; it goes with the user.
      create table avatars (
        user_id uuid primary key references users (id) on delete cascade,
        content bytea not null,
        content_type text not null,
        updated_at timestamptz not null default now()
      )`,
  },
  {
    name: '0007_user_caps',
    sql: `
      -- A person's monthly credits cap (null: none), set by their company's ADMIN; the tenant
      -- service keeps a copy from the user events and enforces it.
      alter table users add column monthly_credits numeric(18, 4) check (monthly_credits > 0)`,
  },
  {
    name: '0008_sso',
    sql: `
      -- A company's own identity provider (OpenID Connect): one per company. The client secret is
      -- sealed with SECRETS_KEY (the service's secret box) and never leaves the service.
      create table sso_providers (
        company_id uuid primary key,
        issuer text not null,
        client_id text not null,
        client_secret_sealed text not null,
        required boolean not null default false,
        default_role text not null check (default_role in ('USER', 'CALLER')),
        role_claim text,
        role_map jsonb not null default '{}'::jsonb,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      -- An e-mail domain leads to one company's provider only: the primary key makes it unique
      -- across companies, whatever two administrators save at the same time.
      create table sso_domains (
        domain text primary key check (domain = lower(domain)),
        company_id uuid not null references sso_providers (company_id) on delete cascade
      );
      create index sso_domains_company on sso_domains (company_id);
      -- Who a provider's subject is here. The company is part of the key: the same issuer and
      -- subject configured by another company never reaches this company's user.
      create table sso_identities (
        company_id uuid not null,
        issuer text not null,
        subject text not null,
        user_id uuid not null references users (id) on delete cascade,
        created_at timestamptz not null default now(),
        last_sign_in_at timestamptz,
        primary key (company_id, issuer, subject)
      );
      create index sso_identities_user on sso_identities (user_id)`,
  },
  ...privacyMigrations,
];
