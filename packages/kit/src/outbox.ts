import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { eventDefinition, Envelope as EnvelopeSchema, type Actor, type Envelope } from '@earshot/contracts';
import type { Database, Db } from './db/database';
import type { Migration } from './db/migrate';
import type { EventBus } from './bus/types';
import { activeTrace, contextFrom, SpanKind, startSpan, untraced } from './tracing';

/** Tables the kit adds to every service schema: the outbox and the applied-events ledger. */
export const kitMigrations: Migration[] = [
  {
    name: '0000_kit_outbox',
    sql: `create table outbox (
            seq bigserial primary key,
            id uuid not null unique,
            topic text not null,
            key text not null,
            envelope jsonb not null,
            created_at timestamptz not null default now(),
            published_at timestamptz);
          create index outbox_unpublished on outbox (seq) where published_at is null;
          create table applied_events (
            consumer text not null,
            event_id uuid not null,
            applied_at timestamptz not null default now(),
            primary key (consumer, event_id))`,
  },
  {
    // Events whose handler keeps failing (parked after EVENT_MAX_ATTEMPTS, listed and replayed by
    // `npm run events`), and the newest occurredAt applied per entity (stale events are skipped).
    name: '0000_kit_parking',
    sql: `create table parked_events (
            consumer text not null,
            event_id uuid not null,
            type text not null,
            envelope jsonb not null,
            attempts integer not null,
            error text not null,
            failed_at timestamptz not null default now(),
            parked_at timestamptz,
            primary key (consumer, event_id));
          create table entity_versions (
            consumer text not null,
            entity text not null,
            occurred_at timestamptz not null,
            primary key (consumer, entity))`,
  },
  {
    // The W3C trace context of the work that wrote the event, so the relay's publish (maybe after
    // a restart) continues that trace. Null when tracing is off.
    name: '0001_kit_outbox_trace',
    sql: `alter table outbox add column traceparent text`,
  },
];

export interface NewEvent {
  type: string;
  companyId: string | null;
  actor: Actor;
  data: Record<string, unknown>;
}

/** Builds a validated envelope: an event whose data does not match its schema is a bug, caught here. */
export function buildEnvelope(event: NewEvent): Envelope {
  const def = eventDefinition(event.type);
  const data = def.data.parse(event.data) as Record<string, unknown>;
  return EnvelopeSchema.parse({
    id: randomUUID(),
    type: def.type,
    version: def.version,
    occurredAt: new Date().toISOString(),
    companyId: event.companyId,
    actor: event.actor,
    data,
  }) as Envelope;
}

/** Writes events in the caller's transaction, so state and events commit or fail together. */
export async function writeOutbox(tx: Db, schema: string, events: readonly NewEvent[]): Promise<Envelope[]> {
  const envelopes = events.map(buildEnvelope);
  if (envelopes.length === 0) return envelopes;
  const traceparent = activeTrace()?.traceparent ?? null;
  // One statement in the events' order: the seq column keeps it for the relay.
  const rows = envelopes.map(
    (envelope) =>
      sql`(${envelope.id}, ${eventDefinition(envelope.type).topic}, ${envelope.companyId ?? 'platform'}, ${JSON.stringify(envelope)}::jsonb, ${traceparent})`,
  );
  await tx.execute(
    sql`insert into ${sql.identifier(schema)}.outbox (id, topic, key, envelope, traceparent) values ${sql.join(rows, sql`, `)}`,
  );
  return envelopes;
}

interface OutboxRow {
  seq: string;
  topic: string;
  key: string;
  envelope: Envelope;
  traceparent: string | null;
}

/**
 * Publishes a schema's outbox to the bus in seq order. Several relays (replicas) may run: a
 * transaction-scoped advisory lock per schema lets one publish at a time, so a second relay waits
 * and then sees only what the first left (claiming rows with SKIP LOCKED would let two replicas
 * publish interleaved batches out of order). A crash between publish and mark re-publishes:
 * consumers are idempotent.
 */
export class OutboxRelay {
  /**
   * How long a published event's row stays. Nothing reads it again (consumers are fed by the bus,
   * replays come from parked_events), but its envelope holds the event's data — transcript words
   * among them, in plain even for a company whose stored words are sealed — so rows are pruned
   * instead of kept forever; an hour leaves time to look at what just went out.
   */
  static readonly PUBLISHED_KEPT_MS = 60 * 60_000;
  private static readonly PRUNE_EVERY_MS = 5 * 60_000;
  private lastPrune = 0;
  private timer?: NodeJS.Timeout;
  private running = false;
  private pass?: Promise<void>;
  private again = false;

  constructor(
    private readonly database: Database,
    private readonly schema: string,
    private readonly bus: EventBus,
    private readonly pollMs: number,
    private readonly logger?: Logger,
    /** The service whose events these are (spans say so; the all-in-one runs them all). */
    private readonly service?: string,
  ) {}

  start(): void {
    this.running = true;
    this.nudge();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.pass;
  }

  /** Called after a commit that wrote events, so they go out now rather than at the next poll. */
  nudge(): void {
    if (!this.running) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.pass = this.publishPending()
      .then(() => this.pruneNow())
      .catch((error: unknown) => this.logger?.error({ err: error, schema: this.schema }, 'outbox relay pass failed'))
      .finally(() => {
        this.pass = undefined;
        if (!this.running) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => untraced(() => this.nudge()), this.pollMs);
        }
      });
  }

  private async pruneNow(): Promise<void> {
    if (Date.now() - this.lastPrune < OutboxRelay.PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.prunePublished(OutboxRelay.PUBLISHED_KEPT_MS);
  }

  /**
   * Deletes rows published more than `keptMs` ago, a batch per statement so a long backlog never
   * holds one big lock; unpublished rows are never touched. Returns how many went.
   */
  async prunePublished(keptMs: number): Promise<number> {
    const table = sql`${sql.identifier(this.schema)}.outbox`;
    const before = new Date(Date.now() - keptMs);
    let total = 0;
    for (;;) {
      const result = (await this.database.db.execute(
        sql`delete from ${table} where seq in (
              select seq from ${table} where published_at is not null and published_at < ${before} order by seq limit 10000)
            returning seq`,
      )) as unknown as { rows: unknown[] };
      total += result.rows.length;
      if (result.rows.length < 10000) return total;
    }
  }

  /**
   * Each event with a producer span of its own, a child of the trace that wrote it (read back from
   * the row, so it holds across a restart), open while the bus takes it; the bus carries the span's
   * context to the consumers.
   */
  private async publishTraced(rows: readonly OutboxRow[]): Promise<void> {
    const sent = rows.map((row) => ({
      row,
      ...startSpan(
        `${row.topic} publish`,
        {
          kind: SpanKind.PRODUCER,
          attributes: {
            'messaging.operation.type': 'publish',
            'messaging.destination.name': row.topic,
            'messaging.message.id': row.envelope.id,
            'earshot.event.type': row.envelope.type,
          },
        },
        contextFrom(row.traceparent ? { traceparent: row.traceparent } : undefined, this.service),
      ),
    }));
    try {
      await this.bus.publish(
        sent.map(({ row, carrier }) => ({ topic: row.topic, key: row.key, envelope: row.envelope, trace: carrier })),
      );
    } catch (error) {
      sent.forEach((s) => s.fail(error));
      throw error;
    } finally {
      sent.forEach((s) => s.span.end());
    }
  }

  /** Publishes everything pending; returns how many events went out. */
  async publishPending(): Promise<number> {
    let total = 0;
    for (;;) {
      const sent = await this.database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`outbox:${this.schema}`}))`);
        const rows = (await tx.execute(
          sql`select seq, topic, key, envelope, traceparent from ${sql.identifier(this.schema)}.outbox
              where published_at is null order by seq limit 100`,
        )) as unknown as { rows: OutboxRow[] };
        if (rows.rows.length === 0) return 0;
        await this.publishTraced(rows.rows);
        const seqs = rows.rows.map((r) => Number(r.seq));
        await tx.execute(
          sql`update ${sql.identifier(this.schema)}.outbox set published_at = now()
              where seq in (${sql.join(
                seqs.map((s) => sql`${s}`),
                sql`, `,
              )})`,
        );
        return rows.rows.length;
      });
      total += sent;
      if (sent < 100) return total;
    }
  }
}

/**
 * Runs a handler at most once per (consumer, event id): the ledger rows and the handler's writes
 * share one transaction, so a redelivered event is skipped and a failed one is retried cleanly.
 * Several events (a batch from the bus) are recorded in one statement; the handler gets those not
 * applied before, in order (none: it is not called). Returns them.
 */
export async function applyOnce(
  db: Db,
  schema: string,
  consumer: string,
  envelopes: readonly Envelope[],
  handler: (tx: Db, fresh: Envelope[]) => Promise<void>,
): Promise<Envelope[]> {
  const unique = [...new Map(envelopes.map((e) => [e.id, e])).values()];
  if (unique.length === 0) return [];
  return db.transaction(async (tx) => {
    const result = (await tx.execute(
      sql`insert into ${sql.identifier(schema)}.applied_events (consumer, event_id)
          values ${sql.join(
            unique.map((e) => sql`(${consumer}, ${e.id})`),
            sql`, `,
          )} on conflict do nothing returning event_id`,
    )) as unknown as { rows: { event_id: string }[] };
    // PostgreSQL answers a uuid in lower case; an envelope's id may have been written in upper case.
    const recorded = new Set(result.rows.map((r) => r.event_id.toLowerCase()));
    const fresh = unique.filter((e) => recorded.has(e.id.toLowerCase()));
    if (fresh.length > 0) await handler(tx as unknown as Db, fresh);
    return fresh;
  });
}
