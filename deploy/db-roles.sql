-- Per-service database roles for distributed mode: each service connects as earshot_<service>,
-- which owns its own schema and can use nothing else (no USAGE on any other service's schema), so
-- a bug or an injection in one service cannot read another's tables.
--
-- Run as a superuser on the Earshot database, with each role's password in a setting:
--   PGOPTIONS="-c earshot.password_auth=... -c earshot.password_tenant=... (every service)" \
--     psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f deploy/db-roles.sql
-- It is idempotent: run it again to add a service or to change passwords. Existing tables in a
-- schema are handed to the role, so an installation that ran as one user can switch over.
-- Mail and notifications moved from the tenant service to the messaging service. The
-- messaging service's first migration moves its tables itself when one role owns both schemas; with
-- a role per service it cannot, so this script does it (before the ownership loop below hands them
-- to earshot_messaging), and copies what that migration starts its people and companies from.
DO $$
DECLARE
  moved text;
BEGIN
  IF to_regclass('tenant.mail_recipients') IS NOT NULL AND to_regclass('messaging.people') IS NULL THEN
    CREATE SCHEMA IF NOT EXISTS messaging;
    FOREACH moved IN ARRAY ARRAY['email_templates', 'mail_messages', 'mail_preferences', 'mail_recordings', 'notifications'] LOOP
      IF to_regclass('tenant.' || moved) IS NOT NULL AND to_regclass('messaging.' || moved) IS NULL THEN
        EXECUTE format('ALTER TABLE tenant.%I SET SCHEMA messaging', moved);
      END IF;
    END LOOP;
    ALTER TABLE IF EXISTS messaging.email_templates DROP CONSTRAINT IF EXISTS email_templates_company_id_fkey;
    ALTER TABLE IF EXISTS messaging.mail_messages DROP CONSTRAINT IF EXISTS mail_messages_company_id_fkey;
    IF to_regclass('messaging.legacy_people') IS NULL THEN
      CREATE TABLE messaging.legacy_people AS
        SELECT r.user_id, r.company_id, m.role, r.email, r.first_name, r.last_name
        FROM tenant.mail_recipients r LEFT JOIN tenant.company_members m ON m.user_id = r.user_id;
      CREATE TABLE messaging.legacy_companies AS SELECT id, name, language, domain, logo, theme FROM tenant.companies;
    END IF;
  END IF;
END $$;

-- Pricing and credits moved from the tenant service to the billing service in the same way: with a
-- role per service this script moves their tables (with their rows), drops the account's foreign
-- key to the tenant's companies, and copies what billing's first migration starts its companies and
-- people from.
DO $$
DECLARE
  moved text;
BEGIN
  IF to_regclass('tenant.credit_accounts') IS NOT NULL AND to_regclass('billing.credit_accounts') IS NULL THEN
    CREATE SCHEMA IF NOT EXISTS billing;
    FOREACH moved IN ARRAY ARRAY['prices', 'pricing_settings', 'priced_models', 'credit_accounts', 'credit_ledger', 'credit_reservations', 'credit_spend', 'credit_alerts'] LOOP
      IF to_regclass('tenant.' || moved) IS NOT NULL AND to_regclass('billing.' || moved) IS NULL THEN
        EXECUTE format('ALTER TABLE tenant.%I SET SCHEMA billing', moved);
      END IF;
    END LOOP;
    ALTER TABLE IF EXISTS billing.credit_accounts DROP CONSTRAINT IF EXISTS credit_accounts_company_id_fkey;
    IF to_regclass('billing.legacy_people') IS NULL AND to_regclass('tenant.company_members') IS NOT NULL THEN
      CREATE TABLE billing.legacy_people AS
        SELECT coalesce(m.user_id, r.user_id) AS user_id, coalesce(m.company_id, r.company_id::text) AS company_id,
               m.role, m.monthly_credits, coalesce(r.first_name, '') AS first_name, coalesce(r.last_name, '') AS last_name
        FROM tenant.company_members m FULL JOIN tenant.mail_recipients r ON r.user_id = m.user_id;
      CREATE TABLE billing.legacy_companies AS SELECT id, name, code, status FROM tenant.companies;
    END IF;
  END IF;
END $$;

DO $$
DECLARE
  service text;
  role text;
  password text;
  item record;
BEGIN
  FOREACH service IN ARRAY ARRAY['auth', 'tenant', 'file', 'transcription', 'chat', 'prompt', 'audit', 'messaging', 'tasks', 'webhooks', 'billing'] LOOP
    role := 'earshot_' || service;
    password := nullif(current_setting('earshot.password_' || service, true), '');
    IF password IS NULL THEN
      RAISE EXCEPTION 'set earshot.password_% (PGOPTIONS="-c earshot.password_%=...")', service, service;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role) THEN
      EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD %L', role, password);
    ELSE
      EXECUTE format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD %L', role, password);
    END IF;
    EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I AUTHORIZATION %I', service, role);
    EXECUTE format('ALTER SCHEMA %I OWNER TO %I', service, role);
    EXECUTE format('GRANT USAGE, CREATE ON SCHEMA %I TO %I', service, role);
    FOR item IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = service AND c.relkind IN ('r', 'p', 'v', 'm', 'f') LOOP
      EXECUTE format('ALTER TABLE %I.%I OWNER TO %I', service, item.relname, role);
    END LOOP;
    FOR item IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = service AND c.relkind = 'S' LOOP
      -- Sequences owned by a column follow their table; the others are handed over here.
      BEGIN
        EXECUTE format('ALTER SEQUENCE %I.%I OWNER TO %I', service, item.relname, role);
      EXCEPTION WHEN feature_not_supported OR object_not_in_prerequisite_state THEN NULL;
      END;
    END LOOP;
  END LOOP;
END $$;
