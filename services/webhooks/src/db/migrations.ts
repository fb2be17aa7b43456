import type { Migration } from '@earshot/kit';

/** The webhooks schema. Runs with search_path = webhooks: plain names. Never edit a released one. */
export const migrations: Migration[] = [
  {
    name: '0001_endpoints_and_deliveries',
    sql: `
      create table endpoints (
        id uuid primary key default gen_random_uuid(),
        company_id uuid not null,
        url text not null,
        events text[] not null,
        description text not null default '',
        enabled boolean not null default true,
        -- Sealed (AES-GCM, the kit's SecretBox): the plain secret is shown once and never stored.
        secret text not null,
        -- After a rotation the old secret also signs until previous_until, so receivers can switch.
        previous_secret text,
        previous_until timestamptz,
        -- Set by the first failed attempt after a success; a success clears it. Five days of
        -- nothing but failures turns the endpoint off (disabled_reason says why).
        failing_since timestamptz,
        disabled_reason text,
        created_at timestamptz(3) not null default clock_timestamp(),
        updated_at timestamptz(3) not null default clock_timestamp()
      );
      create index endpoints_company on endpoints (company_id, created_at);

      -- One row per event and endpoint, written in the transaction that handles the event (so a
      -- delivery exists exactly when the event was applied), sent by the worker afterwards.
      create table deliveries (
        id uuid primary key default gen_random_uuid(),
        -- Order of creation: an endpoint's deliveries are sent one after the other in this order.
        seq bigserial not null,
        endpoint_id uuid not null references endpoints (id) on delete cascade,
        company_id uuid not null,
        event_id uuid not null,
        event_type text not null,
        -- The exact JSON body signed and sent, the same on every attempt.
        body text not null,
        status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
        attempts integer not null default 0,
        -- Attempts since the delivery was (re)queued: where it is in the retry schedule.
        round_attempts integer not null default 0,
        next_attempt_at timestamptz(3) default clock_timestamp(),
        last_attempt_at timestamptz(3),
        last_status_code integer,
        last_error text,
        last_duration_ms integer,
        response_excerpt text,
        created_at timestamptz(3) not null default clock_timestamp(),
        unique (endpoint_id, event_id)
      );
      create index deliveries_endpoint on deliveries (endpoint_id, seq);
      create index deliveries_pending on deliveries (endpoint_id, seq) where status = 'pending';
      create index deliveries_company on deliveries (company_id);`,
  },
];
