import { aiCatalogueMigrations } from '@earshot/ai';
import { companyKeysMigrations, type Migration } from '@earshot/kit';
import { companyTypes } from '../services/company-types';
import { legalHolds } from '../services/holds';

export const migrations: Migration[] = [
  {
    name: '0001_transcripts_and_jobs',
    sql: `
      -- One transcript per uploaded file: the file facts from file.uploaded, then the result.
      create table transcripts (
        id uuid primary key,
        file_id uuid not null unique,
        company_id uuid not null,
        storage_key text not null,
        filename text not null,
        original_name text not null,
        mime_type text not null,
        size bigint not null,
        client_id uuid,
        uploaded_by text,
        uploaded_at timestamptz not null,
        engine text,
        duration double precision,
        speakers jsonb not null default '[]'::jsonb,
        segments jsonb not null default '[]'::jsonb,
        peaks jsonb,
        completed_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index transcripts_company_idx on transcripts (company_id, uploaded_at desc);

      -- The work queue: workers claim rows with FOR UPDATE SKIP LOCKED and hold a lease.
      create table jobs (
        file_id uuid primary key references transcripts (file_id) on delete cascade,
        company_id uuid not null,
        status text not null check (status in ('not_started', 'pending', 'processing', 'completed', 'failed')),
        attempts integer not null default 0,
        reason text,
        next_attempt_at timestamptz not null default now(),
        locked_by text,
        locked_until timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index jobs_claimable_idx on jobs (next_attempt_at) where status = 'pending';
      create index jobs_leased_idx on jobs (locked_until) where status = 'processing';
      create index jobs_company_idx on jobs (company_id, updated_at desc);`,
  },
  // The providers and models of AI Configuration, kept from the prompt service's events.
  ...aiCatalogueMigrations(),
  {
    name: '0002_clients',
    sql: `
      -- Which clients exist and in which company (from the tenant service's client events), so a
      -- transcript is only ever linked to a client of its own company.
      create table clients (
        id uuid primary key,
        company_id uuid not null
      );
      create index transcripts_client_idx on transcripts (client_id) where client_id is not null;`,
  },
  companyTypes.migration,
  legalHolds.migration,
  {
    name: '0003_estimated_seconds',
    sql: `
      -- How long the upload plays as the file service estimated it: what a queued job reserves in
      -- credits until its transcript's real duration is known.
      alter table transcripts add column estimated_seconds double precision;`,
  },
  {
    name: '0004_speakers_and_edits',
    sql: `
      -- Every speaker gets a colour of the fixed palette (SPEAKER_COLORS of the contracts, as it was then), by order.
      update transcripts t set speakers = (
        select jsonb_agg(sp.item || jsonb_build_object('color',
                 (array['#2563eb', '#db2777', '#059669', '#d97706', '#7c3aed', '#0891b2', '#dc2626', '#65a30d', '#c026d3', '#475569'])[((sp.ord - 1) % 10) + 1]) order by sp.ord)
        from jsonb_array_elements(t.speakers) with ordinality as sp(item, ord))
      where jsonb_array_length(t.speakers) > 0;
      -- The spoken language chosen at upload (null: automatic or unknown) and the configured model's name.
      alter table transcripts add column language text, add column model text;

      -- One row per edit of a transcript (history, undo and redo). The patch holds only what the
      -- edit touched: the segments as they were (before) and as they became (after), whole, and
      -- the speakers list before and after when it changed; never the whole transcript.
      create table edits (
        id uuid primary key,
        file_id uuid not null references transcripts (file_id) on delete cascade,
        company_id uuid not null,
        kind text not null,
        summary text not null,
        actor_id text,
        actor_name text,
        created_at timestamptz not null default now(),
        undone boolean not null default false,
        segments_before jsonb not null default '[]'::jsonb,
        segments_after jsonb not null default '[]'::jsonb,
        speakers_before jsonb,
        speakers_after jsonb
      );
      create index edits_file_idx on edits (file_id, created_at desc, id desc);

      -- Known people for naming speakers: the company's members (auth's user events) and its
      -- clients' names (the client events already consumed).
      create table members (
        user_id uuid primary key,
        company_id uuid not null,
        name text not null
      );
      create index members_company_idx on members (company_id);
      alter table clients add column name text;`,
  },
  {
    name: '0005_search_index',
    sql: `
      -- Which text search configuration (dictionary, stemming) each company's transcripts are
      -- indexed with, from its language (company events); 'simple' where PostgreSQL has none.
      create table search_company_languages (
        id uuid primary key,
        language text,
        config text not null,
        updated_at timestamptz not null
      );

      -- The tags of each recording (file.tags_changed), copied onto its search_files row.
      create table search_file_tags (
        file_id uuid primary key references transcripts (file_id) on delete cascade,
        tags text[] not null,
        updated_at timestamptz not null
      );

      -- One row per transcribed recording: every filter of the search, and the lexemes of its whole
      -- text without positions (doc), which finds the candidate recordings among a company's few
      -- thousand rows instead of among its millions of passages. Rebuilt with its passages.
      create table search_files (
        file_id uuid primary key references transcripts (file_id) on delete cascade,
        company_id uuid not null,
        uploaded_at timestamptz not null,
        client_id uuid,
        uploaded_by text,
        language text,
        tags text[] not null default '{}',
        speakers text[] not null default '{}',
        config text not null,
        doc tsvector not null
      );
      -- The only way to the candidates when the search has words (see findRecordings): a walk that
      -- tested each row's doc would unpack (de-TOAST) tens of kilobytes a recording.
      create index search_files_doc_idx on search_files using gin (doc);

      -- One row per transcript segment (passage): its words as a tsvector with positions (phrases),
      -- with the company's configuration. Rebuilt in the transaction of every write to the
      -- transcript (reindexSegments); gone with it (cascade).
      create table search_segments (
        file_id uuid not null references transcripts (file_id) on delete cascade,
        ord integer not null,
        segment_id text not null,
        speaker_name text not null,
        start double precision not null,
        text text not null,
        config text not null,
        tsv tsvector not null,
        primary key (file_id, ord)
      );`,
  },
  {
    name: '0006_speech_models',
    sql: `
      -- The speech models of the machine: one row per model ever asked for; a model of the
      -- catalogue without a row is absent. The row keeps what the download was checked against
      -- (file path, size, SHA-256), so the engine needs no catalogue or configuration to use it.
      create table speech_models (
        name text primary key,
        kind text not null check (kind in ('whisper', 'diarization')),
        languages text not null check (languages in ('en', 'multilingual')),
        path text not null,
        url text not null,
        size bigint not null,
        sha256 text,
        status text not null check (status in ('absent', 'downloading', 'ready', 'failed')),
        bytes_done bigint not null default 0,
        error text,
        is_default boolean not null default false,
        requested_by jsonb,
        updated_at timestamptz not null default now()
      );
      -- At most one default (a whisper model, ready: enforced where it is set).
      create unique index speech_models_one_default on speech_models (is_default) where is_default;`,
  },
  {
    name: '0007_expected_speakers',
    sql: `
      -- How many speakers the uploader said the recording has (file.uploaded data.speakers, 1-10;
      -- null: find them): the diarizer of one-channel recordings clusters into that many.
      alter table transcripts add column expected_speakers integer;`,
  },
  {
    name: '0008_redaction_policies',
    sql: `
      -- Each company's redaction mode, from company.policies_changed: a company without a
      -- row redacts nothing. updated_at is the event's time, so an older event never wins.
      create table redaction_policies (
        company_id uuid primary key,
        mode text not null check (mode in ('off', 'text', 'text_audio')),
        updated_at timestamptz not null
      );`,
  },
  {
    name: '0009_kept_originals',
    sql: `
      -- Whether the company keeps the unredacted original of what redaction hides (policy
      -- keepOriginal), from company.policies_changed like the mode.
      alter table redaction_policies add column keep_original boolean not null default false;
      -- The kept originals, one row per recording: the objects (words JSON, and the audio before it
      -- was silenced) live in the audio storage, encrypted under the company's data key. No foreign
      -- key: the row outlives the transcript until file.deleted removes its objects with it.
      create table kept_originals (
        file_id uuid primary key,
        company_id uuid not null,
        words_key text not null,
        audio_key text,
        audio_type text,
        kept_at timestamptz not null default now()
      );
      create index kept_originals_company on kept_originals (company_id);`,
  },
  // The data keys of transcripts' words (CompanyKeyRing), in this service's schema.
  ...companyKeysMigrations,
  {
    name: '0010_sealed_search_rows',
    sql: `
      -- A recording of a company with encryption on: its passages' text is sealed and their
      -- tsvector holds blind-index tokens (HMAC of each lexeme under the company's key) instead of
      -- lexemes, so a search must hash its words with that company's key to match them.
      alter table search_files add column sealed boolean not null default false;`,
  },
  {
    name: '0011_sealed_search_companies',
    sql: `
      -- A search over every company (HOST_ADMIN) asks which companies have sealed rows, to hash its
      -- words with each one's key: answered from this small index, not a scan of every recording.
      create index search_files_sealed_company on search_files (company_id) where sealed;`,
  },
  {
    name: '0012_unlinked_client',
    sql: `
      -- Erasing a client contact deletes the client (client.deleted, which unlinks its
      -- recordings here) and asks every service to erase (privacy.erase_requested), on two topics
      -- with no order between them. A recording unlinked because its client was deleted keeps that
      -- client's id, so an erasure that arrives after the unlink still finds the client's calls. A
      -- recording someone unlinked by hand does not: it was no longer that client's call.
      alter table transcripts add column unlinked_client_id uuid;
      create index transcripts_unlinked_client on transcripts (unlinked_client_id) where unlinked_client_id is not null;`,
  },
  {
    name: '0013_transcript_edit_version',
    sql: `
      -- Counts the edits a transcript has had: an edit names the version it was made on and is
      -- refused when another edit came first (two people editing one segment: no silent last write).
      alter table transcripts add column edit_version integer not null default 0;`,
  },
  {
    name: '0014_fair_queue',
    sql: `
      -- Fair scheduling between companies: when each company last had a job claimed, so the next
      -- claim goes to the company that has waited longest (round-robin), not to the oldest job.
      create table queue_turns (
        company_id uuid primary key,
        served_at timestamptz not null
      );
      -- A company's place in line and its queue position read its due jobs in order, from here.
      create index jobs_company_due_idx on jobs (company_id, next_attempt_at, file_id) where status = 'pending';
      -- Each company's running jobs (its share of the concurrency cap), counted per claim.
      create index jobs_company_leased_idx on jobs (company_id, locked_until) where status = 'processing';`,
  },
  {
    name: '0015_job_trace',
    sql: `
      -- The W3C trace context of the work that queued the job (an upload, a re-run): the worker's
      -- job span continues that trace, whichever worker and however much later. Null: not traced.
      alter table jobs add column traceparent text;`,
  },
  {
    name: '0016_edit_undone_by',
    sql: `
      -- Who undid an edit and when: a person's undo and redo stacks are read from here, so that their
      -- undo survives a reload (the redo stack is what they undid since their last new edit).
      alter table edits add column undone_by text, add column undone_at timestamptz;
      -- A person's edits of one transcript, newest first: their undo stack.
      create index edits_file_actor_idx on edits (file_id, actor_id, created_at desc);`,
  },
  {
    name: '0017_search_doc_bounded',
    sql: `
      -- A tsvector holds at most 1 MB of lexemes: a recording with more distinct words (or blind
      -- tokens, which are longer) has no doc, and the search checks its passages directly instead.
      alter table search_files alter column doc drop not null;
      -- Those recordings, for the search's candidates next to the doc's GIN index (a bitmap OR of both).
      create index search_files_without_doc on search_files (company_id) where doc is null;`,
  },
];
