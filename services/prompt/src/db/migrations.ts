import { companyKeysMigrations, type Migration } from '@earshot/kit';
import { actionItemsMigration } from '../services/action-items';
import { companyTypes } from '../services/company-types';

/** The prompt schema. Runs with search_path = prompt: plain table names. Never edit a released one. */
export const migrations: Migration[] = [
  {
    name: '0001_ai_providers_and_models',
    sql: `
      create table ai_providers (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        kind text not null check (kind in ('openai-compatible')),
        base_url text not null,
        enabled boolean not null,
        api_key_sealed text,
        api_key_last4 text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table ai_models (
        id uuid primary key default gen_random_uuid(),
        provider_id uuid not null references ai_providers (id) on delete restrict,
        name text not null,
        label text not null,
        purpose text not null check (purpose in ('chat', 'speech-to-text', 'embeddings')),
        is_default boolean not null,
        context_size integer,
        enabled boolean not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint ai_models_provider_name_purpose_key unique (provider_id, name, purpose)
      );
      -- At most one default per purpose (the service also serialises default changes per purpose).
      create unique index ai_models_one_default on ai_models (purpose) where is_default;`,
  },
  {
    // Provider events used to carry the sealed key; the outbox keeps published events, so the
    // sealed keys go from there too (what a topic already delivered is beyond reach: rotate keys).
    name: '0002_outbox_without_sealed_keys',
    sql: `update outbox set envelope = envelope #- '{data,apiKeySealed}' where envelope -> 'data' ? 'apiKeySealed';`,
  },
  {
    // Prompts are deleted softly: their versions stay for the analysis results made with them.
    name: '0003_prompts_and_analysis_patterns',
    sql: `
      create table prompts (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        description text not null,
        prompt text not null,
        type text not null check (type in ('summary', 'sentiment', 'topic', 'question', 'custom', 'transcriptAnalysis', 'contextAnalysis')),
        expected_format jsonb not null,
        scope text check (scope in ('global', 'company', 'user', 'system')),
        is_global boolean not null,
        companies uuid[] not null default '{}',
        users uuid[] not null default '{}',
        version integer not null check (version >= 1),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        deleted_at timestamptz
      );
      create index prompts_companies on prompts using gin (companies);
      create index prompts_users on prompts using gin (users);

      create table prompt_versions (
        prompt_id uuid not null references prompts (id),
        version integer not null,
        name text not null,
        description text not null,
        prompt text not null,
        type text not null,
        expected_format jsonb not null,
        created_by uuid,
        created_at timestamptz not null default now(),
        primary key (prompt_id, version)
      );

      create table analysis_patterns (
        id uuid primary key default gen_random_uuid(),
        -- null: a global pattern (the platform administrator's), for every company.
        company_id uuid,
        name text not null,
        description text not null,
        auto_run text not null check (auto_run in ('none', 'company_transcripts', 'client_recordings')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index analysis_patterns_company on analysis_patterns (company_id);

      create table analysis_pattern_prompts (
        pattern_id uuid not null references analysis_patterns (id) on delete cascade,
        prompt_id uuid not null references prompts (id),
        position integer not null,
        primary key (pattern_id, prompt_id)
      );
      create index analysis_pattern_prompts_prompt on analysis_pattern_prompts (prompt_id);`,
  },
  {
    // Analysis runs, and the service's own copy of what it analyses (from the transcription,
    // file and tenant events): it never reads another service's tables.
    name: '0004_analysis_runs_and_transcripts',
    sql: `
      create table transcripts (
        file_id uuid primary key,
        company_id uuid not null,
        -- The transcription run whose text this is (text_published parts of older runs are ignored).
        transcript_id uuid,
        file_name text not null default '',
        client_id uuid,
        recorded_at timestamptz,
        duration double precision not null default 0,
        parts integer not null default 0,
        parts_received integer[] not null default '{}',
        completed_at timestamptz,
        -- Call analytics, computed when the text is whole and again after each word edit.
        metrics jsonb
      );
      create index transcripts_company on transcripts (company_id);
      create index transcripts_client on transcripts (client_id);

      create table transcript_segments (
        file_id uuid not null,
        segment_id text not null,
        speaker text not null,
        start double precision not null,
        "end" double precision not null,
        text text not null,
        primary key (file_id, segment_id)
      );

      create table clients (
        id uuid primary key,
        company_id uuid not null,
        name text not null,
        deleted boolean not null default false,
        updated_at timestamptz not null
      );

      create table company_languages (
        id uuid primary key,
        language text,
        updated_at timestamptz not null
      );

      create table analysis_runs (
        id uuid primary key default gen_random_uuid(),
        company_id uuid not null,
        file_id uuid not null,
        prompt_id uuid not null,
        prompt_version integer not null,
        pattern_id uuid,
        status text not null check (status in ('pending', 'running', 'completed', 'failed')),
        result jsonb,
        error text,
        error_code text,
        model text,
        usage jsonb not null default '{"inputTokens": 0, "outputTokens": 0}'::jsonb,
        progress jsonb,
        duration_ms integer,
        requested_by text,
        -- The event that made an automatic run: a redelivered event makes no second run.
        source_event_id uuid,
        -- clock_timestamp: the runs of one pattern, made in one transaction, keep their order.
        created_at timestamptz not null default clock_timestamp(),
        started_at timestamptz,
        finished_at timestamptz
      );
      create index analysis_runs_file on analysis_runs (file_id, created_at desc);
      create index analysis_runs_waiting on analysis_runs (created_at) where status in ('pending', 'running');
      create unique index analysis_runs_source on analysis_runs (source_event_id, prompt_id) where source_event_id is not null;`,
  },
  {
    name: '0005_transcript_uploader',
    sql: `
      -- Who uploaded each file (file.uploaded): in a b2c company only they may analyse it.
      -- Files known before this have none, and stay out of every b2c member's reach.
      alter table transcripts add column uploaded_by text;`,
  },
  companyTypes.migration,
  {
    name: '0006_analysis_run_model_id',
    sql: `
      -- The configured model (its id) a run used, so its events name the model credits are priced by.
      alter table analysis_runs add column model_id uuid;`,
  },
  {
    // The dashboards' read model: per call, speaker roles, member names, scorecard
    // answers and open tasks per client, kept from events by services/dashboard-projection.ts.
    name: '0008_dashboards',
    sql: `
      create table dashboard_calls (
        file_id uuid primary key,
        company_id uuid not null,
        file_name text not null,
        at timestamptz not null,
        day date not null,
        seconds double precision,
        uploaded_by text,
        agent_id text,
        client_id uuid,
        tags text[] not null default '{}',
        agent_talk double precision,
        customer_talk double precision,
        talk double precision,
        silence double precision,
        "overlaps" integer,
        words integer
      );
      -- Only transcribed calls count: the range scans read these indexes alone (index-only).
      create index dashboard_calls_day on dashboard_calls (company_id, day)
        include (seconds, agent_id, client_id, agent_talk, customer_talk, talk, silence, "overlaps", words) where seconds is not null;
      create index dashboard_calls_agent on dashboard_calls (company_id, agent_id, day) where seconds is not null;
      create index dashboard_calls_client on dashboard_calls (company_id, client_id, day) where seconds is not null;
      create index dashboard_calls_tags on dashboard_calls using gin (tags) where seconds is not null;

      create table dashboard_speakers (
        file_id uuid not null,
        speaker_id text not null,
        name text not null,
        role text check (role in ('agent', 'customer')),
        primary key (file_id, speaker_id)
      );

      create table dashboard_members (
        user_id text primary key,
        company_id uuid,
        name text not null,
        deleted boolean not null default false
      );
      create index dashboard_members_name on dashboard_members (company_id, lower(name)) where not deleted;

      -- A deleted run takes its answers with it.
      create table dashboard_scores (
        file_id uuid not null,
        prompt_id uuid not null,
        field text not null,
        run_id uuid not null references analysis_runs (id) on delete cascade,
        company_id uuid not null,
        day date not null,
        finished_at timestamptz not null,
        int_value integer,
        option_value text,
        bool_value boolean,
        primary key (file_id, prompt_id, field)
      );
      create index dashboard_scores_range on dashboard_scores (company_id, prompt_id, field, day);
      create index dashboard_scores_run on dashboard_scores (run_id);

      create table dashboard_tasks (
        task_id uuid primary key,
        company_id uuid not null,
        client_id uuid,
        open boolean not null
      );
      create index dashboard_tasks_client on dashboard_tasks (company_id, client_id) where open;

      create table dashboard_clients (
        client_id uuid primary key,
        organisation text,
        updated_at timestamptz not null
      );`,
  },
  // The built-in Action items prompt and the runs' items.
  actionItemsMigration,
  {
    // The dashboards' sums, made after 0008 first shipped; written to run on a schema
    // with or without them (a development database that ran an early 0008), then rebuilt from the
    // calls: they are derived data.
    name: '0010_dashboard_sums',
    sql: `
      alter table dashboard_scores add column if not exists client_id uuid;
      update dashboard_scores s set client_id = c.client_id from dashboard_calls c where c.file_id = s.file_id;
      drop index if exists dashboard_scores_range;
      create index dashboard_scores_range on dashboard_scores (company_id, prompt_id, field, day) include (int_value, option_value, bool_value, file_id, client_id);
      drop index if exists dashboard_calls_day;
      create index dashboard_calls_day on dashboard_calls (company_id, day)
        include (seconds, at, agent_id, client_id, agent_talk, customer_talk, talk, silence, "overlaps", words) where seconds is not null;

      -- Sums per company and day (and per agent, per tag, per client and month) of the transcribed
      -- calls, kept with each call's row: a year of a company's calls is read from 366 rows (agents:
      -- 366 per agent) instead of every call. Shares are summed with the number of calls that have one.
      create table if not exists dashboard_days (
        company_id uuid not null,
        day date not null,
        calls integer not null,
        seconds double precision not null,
        shared_calls integer not null,
        agent_share double precision not null,
        customer_share double precision not null,
        silent_calls integer not null,
        silence_share double precision not null,
        measured_calls integer not null,
        "overlaps" bigint not null,
        words bigint not null,
        talk double precision not null,
        primary key (company_id, day)
      );
      create table if not exists dashboard_agent_days (
        company_id uuid not null,
        day date not null,
        agent_id text not null,
        calls integer not null,
        seconds double precision not null,
        shared_calls integer not null,
        agent_share double precision not null,
        words bigint not null,
        talk double precision not null,
        primary key (company_id, day, agent_id)
      );
      -- Per client and month: a year's clients read twelve months of sums and the calls of the
      -- partial months at the range's ends. last_at is recomputed when a call leaves (a max cannot be taken back).
      create table if not exists dashboard_client_months (
        company_id uuid not null,
        month date not null,
        client_id uuid not null,
        calls integer not null,
        seconds double precision not null,
        last_at timestamptz,
        primary key (company_id, month, client_id)
      );
      create table if not exists dashboard_tag_days (
        company_id uuid not null,
        day date not null,
        tag text not null,
        calls integer not null,
        seconds double precision not null,
        primary key (company_id, day, tag)
      );

      truncate dashboard_days, dashboard_agent_days, dashboard_client_months, dashboard_tag_days;
      insert into dashboard_days select company_id, day, count(*), sum(seconds),
          count(*) filter (where agent_talk + customer_talk > 0),
          coalesce(sum(agent_talk / nullif(agent_talk + customer_talk, 0)), 0), coalesce(sum(customer_talk / nullif(agent_talk + customer_talk, 0)), 0),
          count(*) filter (where talk is not null and silence is not null and seconds > 0), coalesce(sum(silence / seconds) filter (where talk is not null and seconds > 0), 0),
          count(talk), coalesce(sum("overlaps"), 0), coalesce(sum(words), 0), coalesce(sum(talk), 0)
        from dashboard_calls where seconds is not null group by company_id, day;
      insert into dashboard_agent_days select company_id, day, agent_id, count(*), sum(seconds),
          count(*) filter (where agent_talk + customer_talk > 0), coalesce(sum(agent_talk / nullif(agent_talk + customer_talk, 0)), 0),
          coalesce(sum(words), 0), coalesce(sum(talk), 0)
        from dashboard_calls where seconds is not null and agent_id is not null group by company_id, day, agent_id;
      insert into dashboard_client_months select company_id, date_trunc('month', day)::date, client_id, count(*), sum(seconds), max(at)
        from dashboard_calls where seconds is not null and client_id is not null group by 1, 2, 3;
      insert into dashboard_tag_days select company_id, day, tag, count(*), sum(seconds)
        from dashboard_calls, unnest(tags) tag where seconds is not null group by company_id, day, tag;`,
  },
  // Encryption at rest: prompt's own data keys, one per company, wrapped by the master key.
  ...companyKeysMigrations,
  {
    name: '0011_fair_analysis_queue',
    sql: `
      -- Analysis runs are taken fairly between companies: the company with the fewest runs
      -- running, then the one whose last turn is oldest (round-robin), goes first.
      create table queue_turns (
        company_id uuid primary key,
        served_at timestamptz not null
      );
      create index analysis_runs_company_running on analysis_runs (company_id) where status = 'running';`,
  },
];
