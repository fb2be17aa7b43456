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
];
