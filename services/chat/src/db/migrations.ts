import { aiCatalogueMigrations } from '@earshot/ai';
import { companyKeysMigrations, type Migration } from '@earshot/kit';
import { companyTypes } from '../services/company-types';
import { redactionModes } from '../services/redaction';
import { retention } from '../services/retention';

export const migrations: Migration[] = [
  {
    name: '0001_conversations',
    sql: `
      -- A conversation belongs to one person; company_id is null for a platform administrator without one.
      create table conversations (
        id uuid primary key,
        company_id uuid,
        owner_id text not null,
        title text not null default '',
        -- Set while a reply is being written, so that two replies never interleave; a stale mark
        -- (a process that died mid-reply) expires.
        replying_since timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        last_message_at timestamptz
      );
      create index conversations_owner_idx on conversations (owner_id, (coalesce(last_message_at, created_at)) desc);

      create table messages (
        id uuid primary key,
        conversation_id uuid not null references conversations (id) on delete cascade,
        role text not null check (role in ('user', 'assistant')),
        content text not null,
        status text not null check (status in ('complete', 'stopped', 'failed')),
        model text,
        provider_id uuid,
        error text,
        citations jsonb not null default '[]'::jsonb,
        usage jsonb,
        created_at timestamptz not null default clock_timestamp()
      );
      create index messages_conversation_idx on messages (conversation_id, created_at);

      create table feedback (
        id uuid primary key,
        message_id uuid not null references messages (id) on delete cascade,
        user_id text not null,
        rating text not null check (rating in ('up', 'down')),
        comment text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (message_id, user_id)
      );`,
  },
  {
    name: '0002_transcript_segments',
    sql: `
      -- The search assistant's own copy of transcript text, from the transcription service's events.
      create table transcript_segments (
        company_id uuid not null,
        file_id uuid not null,
        file_name text not null,
        segment_id text not null,
        speaker text not null,
        start double precision not null,
        "end" double precision not null,
        text text not null,
        tsv tsvector generated always as (to_tsvector('english', text)) stored,
        primary key (file_id, segment_id)
      );
      create index transcript_segments_tsv_idx on transcript_segments using gin (tsv);
      create index transcript_segments_company_idx on transcript_segments (company_id);`,
  },
  {
    name: '0003_recordings',
    sql: `
      -- A conversation may be about one recording: every answer in it is drawn from that transcript.
      alter table conversations add column file_id uuid;
      create index conversations_file_idx on conversations (owner_id, file_id) where file_id is not null;

      -- What chat knows of each recording beyond its text, to scope a question that names one:
      -- its name, when its transcript completed ("the last call") and its client (by name).
      create table recordings (
        file_id uuid primary key,
        company_id uuid not null,
        file_name text not null default '',
        client_id uuid,
        completed_at timestamptz
      );
      create index recordings_company_idx on recordings (company_id, completed_at desc);
      create table clients (
        id uuid primary key,
        company_id uuid not null,
        name text not null
      );
      create index clients_company_idx on clients (company_id);

      -- Recordings whose text chat already holds (their completion time is unknown: now).
      insert into recordings (file_id, company_id, file_name, completed_at)
        select distinct on (file_id) file_id, company_id, file_name, now() from transcript_segments;`,
  },
  {
    name: '0004_recording_uploader',
    sql: `
      -- Who uploaded each recording (file.uploaded): in a b2c company only they may chat about it.
      -- Recordings known before this have none, and stay out of every b2c member's reach.
      alter table recordings add column uploaded_by text;`,
  },
  {
    name: '0005_custom_gpts',
    sql: `
      -- Company assistants: a platform GPT (company_id null; company_ids [] = offered to every
      -- company) or one company's. user_ids: who may chat with a 'users' GPT.
      create table custom_gpts (
        id uuid primary key,
        scope text not null check (scope in ('platform', 'company')),
        company_id uuid,
        company_ids jsonb not null default '[]'::jsonb,
        name text not null,
        description text,
        avatar text,
        instructions text not null,
        model_id uuid,
        starters jsonb not null default '[]'::jsonb,
        search_transcripts boolean not null default false,
        visibility text not null check (visibility in ('company', 'private', 'users')),
        user_ids jsonb not null default '[]'::jsonb,
        enabled boolean not null default true,
        created_by text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check ((scope = 'platform') = (company_id is null))
      );
      create index custom_gpts_company_idx on custom_gpts (company_id, created_at desc);

      -- A knowledge file is its own job: status, progress and a lease (lease_until) that a process
      -- holds while working on it; a lease that ran out (the process died) lets another take it.
      create table knowledge_files (
        id uuid primary key,
        custom_gpt_id uuid not null references custom_gpts (id) on delete cascade,
        company_id uuid,
        name text not null,
        format text not null,
        mime_type text not null,
        size bigint not null,
        storage_key text not null,
        status text not null check (status in ('queued', 'extracting', 'indexing', 'ready', 'failed')),
        progress integer not null default 0,
        error text,
        pages integer,
        chunk_count integer not null default 0,
        -- Chunks are made once per version: processing again after a restart replaces that version's.
        version integer not null default 1,
        attempts integer not null default 0,
        lease_until timestamptz,
        uploaded_by text not null,
        created_at timestamptz not null default clock_timestamp(),
        updated_at timestamptz not null default now()
      );
      create index knowledge_files_gpt_idx on knowledge_files (custom_gpt_id, created_at);
      create index knowledge_files_work_idx on knowledge_files (status, created_at) where status in ('queued', 'extracting', 'indexing');

      create table knowledge_chunks (
        id uuid primary key,
        file_id uuid not null references knowledge_files (id) on delete cascade,
        custom_gpt_id uuid not null,
        version integer not null,
        position integer not null,
        page integer,
        heading text,
        text text not null,
        tsv tsvector generated always as (to_tsvector('english', coalesce(heading, '') || ' ' || text)) stored,
        unique (file_id, version, position)
      );
      create index knowledge_chunks_tsv_idx on knowledge_chunks using gin (tsv);
      create index knowledge_chunks_gpt_idx on knowledge_chunks (custom_gpt_id);

      -- One vector per chunk, embeddings model and dimension: a new model's vectors are added beside
      -- the old ones, which keep answering until the new set is complete.
      create table knowledge_vectors (
        chunk_id uuid not null references knowledge_chunks (id) on delete cascade,
        custom_gpt_id uuid not null,
        model_id uuid not null,
        dimension integer not null,
        vector real[] not null,
        primary key (chunk_id, model_id, dimension)
      );
      create index knowledge_vectors_gpt_idx on knowledge_vectors (custom_gpt_id, model_id, dimension);

      alter table conversations add column custom_gpt_id uuid;`,
  },
  ...aiCatalogueMigrations(),
  companyTypes.migration,
  {
    // The daily chats retention reads a company's conversations by last activity.
    name: '0006_conversations_by_company',
    sql: `create index conversations_company_idx on conversations (company_id, created_at) where company_id is not null;`,
  },
  retention.migration,
  // Encryption at rest: chat's own data keys, one per company, wrapped by the master key.
  ...companyKeysMigrations,
  {
    // Sealed text (a company with encryption on) is searched by its blind index: keyed-hash tokens
    // of its English lexemes, written by the service beside the sealed text. Plain rows keep the
    // English tsvector of their text. Recreating the generated column rebuilds it and its index.
    name: '0007_sealed_text_blind_index',
    sql: `
      alter table transcript_segments add column blind tsvector;
      alter table transcript_segments drop column tsv;
      alter table transcript_segments add column tsv tsvector generated always as (coalesce(blind, to_tsvector('english', text))) stored;
      create index transcript_segments_tsv_idx on transcript_segments using gin (tsv);
      alter table knowledge_chunks add column blind tsvector;
      alter table knowledge_chunks drop column tsv;
      alter table knowledge_chunks add column tsv tsvector generated always as (coalesce(blind, to_tsvector('english', coalesce(heading, '') || ' ' || text))) stored;
      create index knowledge_chunks_tsv_idx on knowledge_chunks using gin (tsv);`,
  },
  redactionModes.migration,
  {
    // Knowledge files are taken fairly between companies: the company with the fewest files being
    // worked on, then the one whose last turn is oldest (round-robin), goes first. The platform's
    // own GPTs (no company) take their turns as one more company, the nil id.
    name: '0008_fair_knowledge_queue',
    sql: `
      create table queue_turns (
        company_id uuid primary key,
        served_at timestamptz not null
      );
      create index knowledge_files_company_work_idx on knowledge_files (company_id, lease_until) where status in ('extracting', 'indexing');`,
  },
];
