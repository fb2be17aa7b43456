import type { Migration } from '@earshot/kit';
import { companyTypes } from '../services/company-types';
import { redactionModes } from '../services/redaction';

/** The tasks schema. Runs with search_path = tasks: plain names. Never edit a released one. */
export const migrations: Migration[] = [
  {
    name: '0001_tasks_and_read_models',
    sql: `
      create table tasks (
        id uuid primary key default gen_random_uuid(),
        company_id uuid not null,
        title text not null,
        description text not null default '',
        status text not null check (status in ('todo', 'in_progress', 'done')),
        assignee_id uuid,
        due_date date,
        client_id uuid,
        link_file_id uuid,
        link_seconds double precision,
        created_by uuid not null,
        -- Milliseconds, so that a cursor (a JavaScript date) names a row's creation time exactly.
        created_at timestamptz(3) not null default clock_timestamp(),
        updated_at timestamptz(3) not null default clock_timestamp(),
        -- A task made from an analysis run's action item: one task per item while it exists.
        run_id uuid,
        run_item integer,
        check ((link_file_id is null) = (link_seconds is null)),
        check ((run_id is null) = (run_item is null))
      );
      create unique index tasks_from_run on tasks (run_id, run_item) where run_id is not null;
      create index tasks_company_due on tasks (company_id, (coalesce(due_date, date '9999-12-31')), id);
      create index tasks_company_created on tasks (company_id, created_at, id);
      create index tasks_company_assignee on tasks (company_id, assignee_id);
      create index tasks_file on tasks (link_file_id) where link_file_id is not null;
      create index tasks_due_open on tasks (due_date) where status <> 'done' and assignee_id is not null;

      -- Read models kept from other services' events (this service never reads their tables).
      create table members (
        id uuid primary key,
        company_id uuid not null,
        first_name text not null,
        last_name text not null,
        status text
      );
      create index members_company on members (company_id);

      create table clients (
        id uuid primary key,
        company_id uuid not null
      );

      create table recordings (
        file_id uuid primary key,
        company_id uuid not null,
        original_name text not null,
        uploaded_at timestamptz not null,
        client_id uuid
      );
      create index recordings_company_uploaded on recordings (company_id, uploaded_at);

      -- An "Action items" run's proposals, until a person turns some into tasks.
      create table proposals (
        run_id uuid primary key,
        company_id uuid not null,
        file_id uuid not null,
        items jsonb not null,
        created_at timestamptz not null default now()
      );
      create index proposals_company on proposals (company_id);

      -- One personal iCalendar feed per person: only the SHA-256 of its secret is kept.
      create table feeds (
        user_id uuid primary key,
        company_id uuid,
        token_hash text not null unique,
        created_at timestamptz not null default now()
      );

      -- Reminders sent: one per task and due date, ever.
      create table reminders (
        task_id uuid not null,
        due_date date not null,
        company_id uuid not null,
        sent_at timestamptz not null default now(),
        primary key (task_id, due_date)
      );
      create index reminders_company on reminders (company_id);`,
  },
  {
    name: '0002_private_companies',
    sql: `
      -- Who uploaded a recording: in a b2c company only they see it on the calendar.
      alter table recordings add column uploaded_by uuid;`,
  },
  companyTypes.migration,
  redactionModes.migration,
];
