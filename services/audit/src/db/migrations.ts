import type { Migration } from '@earshot/kit';

/** The audit schema. Runs with search_path = audit: plain names. Never edit a released one. */
export const migrations: Migration[] = [
  {
    name: '0001_entries',
    sql: `
      create table entries (
        seq bigserial primary key,
        id uuid not null constraint entries_id_key unique,
        occurred_at timestamptz not null,
        recorded_at timestamptz not null default now(),
        type text not null,
        version integer not null,
        company_id text,
        actor jsonb not null,
        actor_id text,
        target_type text not null,
        target_id text,
        before jsonb,
        after jsonb,
        data jsonb not null
      );
      create index entries_time_idx on entries (occurred_at desc, seq desc);
      create index entries_company_idx on entries (company_id, occurred_at desc);
      create index entries_actor_idx on entries (actor_id, occurred_at desc);
      create index entries_type_idx on entries (type text_pattern_ops);

      -- Append-only: the log cannot be rewritten, not even by this service's own code.
      create function entries_are_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit entries are append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
      end
      $$;
      create trigger entries_no_update_or_delete before update or delete on entries
        for each row execute function entries_are_append_only();
      create trigger entries_no_truncate before truncate on entries
        for each statement execute function entries_are_append_only();
    `,
  },
  {
    // Keyset reads: every filter's index ends in the log's order (occurred_at desc, seq desc), so
    // "the next N after this entry" is an index range scan however deep it goes.
    name: '0002_keyset_indexes',
    sql: `
      drop index entries_company_idx;
      drop index entries_actor_idx;
      create index entries_company_idx on entries (company_id, occurred_at desc, seq desc);
      create index entries_actor_idx on entries (actor_id, occurred_at desc, seq desc);
      create index entries_actor_email_idx on entries ((lower(actor->>'email')), occurred_at desc, seq desc);
      create index entries_target_idx on entries (target_type, target_id, occurred_at desc, seq desc);
      create index entries_type_time_idx on entries (type, occurred_at desc, seq desc);
    `,
  },
  {
    // The hash chain (README "Hash chain"). Entries written before it carry no hash: the service
    // seals each chain's old entries in seq order, once, when it creates that chain's head (at
    // start, or at the chain's first append), so the chain covers the whole log. The one change
    // the append-only trigger lets through is that sealing: hash from null to a value, every other
    // column unchanged.
    name: '0003_hash_chain',
    sql: `
      alter table entries add column prev_hash text, add column hash text;
      create index entries_chain_idx on entries ((coalesce(company_id, '')), seq);
      create index entries_unsealed_idx on entries (seq) where hash is null;

      -- One row per chain ('' = the platform's own entries): locked FOR UPDATE by every append, so
      -- appends to one chain are serialised across consumers and replicas, and the last link is known.
      create table chain_heads (
        chain_key text primary key,
        seq bigint,
        hash text,
        entries bigint not null default 0,
        updated_at timestamptz not null default now()
      );

      -- Daily anchors: one per UTC day, whichever replica writes it first.
      create table anchors (
        day date primary key,
        written_at timestamptz not null default now(),
        heads jsonb not null
      );

      create or replace function entries_are_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          if old.hash is null and new.hash is not null
             and (to_jsonb(new) - 'hash' - 'prev_hash') = (to_jsonb(old) - 'hash' - 'prev_hash') then
            return new;
          end if;
        end if;
        raise exception 'audit entries are append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
      end
      $$;
    `,
  },
  {
    // Retention (README "Retention"): a company's oldest entries may be cut from the start
    // of its chain. The head row keeps where the kept chain starts (base_seq, base_hash: the cut
    // entry the first kept one links to) and chain_checkpoints every cut. The trigger lets a DELETE
    // through only while the pruning flag is set in the transaction, only of a sealed entry at or
    // before its chain's recorded base: entries are removed from the start, after the base moved,
    // never from the middle or the end.
    name: '0004_retention_checkpoints',
    sql: `
      alter table chain_heads add column base_seq bigint, add column base_hash text, add column pruned bigint not null default 0;
      create table chain_checkpoints (
        chain_key text not null,
        base_seq bigint not null,
        base_hash text not null,
        removed bigint not null,
        older_than timestamptz not null,
        created_at timestamptz not null default now(),
        primary key (chain_key, base_seq)
      );

      create or replace function entries_are_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          if old.hash is null and new.hash is not null
             and (to_jsonb(new) - 'hash' - 'prev_hash') = (to_jsonb(old) - 'hash' - 'prev_hash') then
            return new;
          end if;
        end if;
        if tg_op = 'DELETE' and current_setting('audit.pruning', true) = 'on' and old.hash is not null
           and exists (select 1 from audit.chain_heads h where h.chain_key = coalesce(old.company_id, '') and h.base_seq >= old.seq) then
          return old;
        end if;
        raise exception 'audit entries are append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
      end
      $$;
    `,
  },
];
