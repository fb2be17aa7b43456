import type { Migration } from '@earshot/kit';

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
];
