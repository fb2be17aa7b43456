import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import {
  EVENT_CATALOGUE,
  Envelope as EnvelopeSchema,
  EventVersionError,
  isEventType,
  readEvent,
  topicOf,
  type Envelope,
  type EventOf,
  type EventType,
} from '@earshot/contracts';
import type { Db } from '../db/database';
import type { NewEvent } from '../outbox';
import type { Subscription } from './types';
import { contextFrom, linkTo, SpanKind, traceOf, withSpan } from '../tracing';

export type Emit = (event: NewEvent) => void;

export interface HandlerOptions<E> {
  /**
   * The entity the event sets the state of (e.g. the company id). An event older (by occurredAt)
   * than one already applied for the same entity is stale and skipped, so a projection never
   * goes back in time when events arrive out of order.
   */
  entity?: (event: E) => string;
  /** Runs after the handler's transaction committed (e.g. to wake a worker). */
  afterCommit?: (event: E) => void;
}

/** An event read for one handler, ready to apply. */
export interface PreparedEvent {
  /** The entity whose newest state it carries (see HandlerOptions.entity). */
  entity?: string;
  apply(tx: Db, emit: Emit): Promise<void>;
  afterCommit?(): void;
}

/** One registration: what the kit needs to route, read and apply an event. */
export interface HandlerSpec {
  /** An event type, or '*' for every event on every topic (the audit log). */
  readonly type: EventType | '*';
  readonly topics: readonly string[];
  /** A '*' handler's topics left out (see onEvery). */
  readonly except?: readonly string[];
  /** Reads the envelope as the handler's version (throws EventVersionError when it cannot be). */
  prepare(envelope: Envelope): PreparedEvent;
  /** Handlers registered with onBatch: reads several events of the type, applied with one call. */
  prepareBatch?(envelopes: readonly Envelope[]): PreparedEvent;
}

/**
 * Registers a handler for one event type. It receives the event as the current version of the
 * type (older versions are upcast by the catalogue), its data parsed and typed, the transaction
 * that also records the event as applied, and `emit` for the events it causes.
 */
export function on<T extends EventType>(
  type: T,
  handle: (event: EventOf<T>, tx: Db, emit: Emit) => Promise<void>,
  options: HandlerOptions<EventOf<T>> = {},
): HandlerSpec {
  const { entity, afterCommit } = options;
  return {
    type,
    topics: [topicOf(type)],
    prepare(envelope) {
      const event = readEvent(type, envelope);
      return {
        entity: entity?.(event),
        apply: (tx, emit) => handle(event, tx, emit),
        afterCommit: afterCommit && (() => afterCommit(event)),
      };
    },
  };
}

/**
 * Registers a handler that takes the events of one type that arrive together from the bus at once,
 * in their order, in one transaction: per-event work (a lock, a statement, a commit) is paid once
 * per batch. A lone event comes as a batch of one. Only for handlers whose effects commute with
 * other types' (a batch's events of this type are applied together, before or after the other
 * types in it) and that need no entity ordering.
 */
export function onBatch<T extends EventType>(
  type: T,
  handle: (events: EventOf<T>[], tx: Db, emit: Emit) => Promise<void>,
  options: { afterCommit?: () => void } = {},
): HandlerSpec {
  const prepareBatch = (envelopes: readonly Envelope[]): PreparedEvent => {
    const events = envelopes.map((envelope) => readEvent(type, envelope));
    return { apply: (tx, emit) => handle(events, tx, emit), afterCommit: options.afterCommit };
  };
  return { type, topics: [topicOf(type)], prepare: (envelope) => prepareBatch([envelope]), prepareBatch };
}

/**
 * Registers a handler for every event as it was written (types this build does not know too),
 * taking the events that arrive together at once, in their order, in one transaction (a lone
 * event comes as a batch of one): the audit log. `except` leaves topics out: a handler that
 * publishes on every event it reads must not read its own topic back, or it would never stop.
 */
export function onEvery(
  handle: (events: readonly Envelope[], tx: Db, emit: Emit) => Promise<void>,
  options: { except?: readonly string[]; afterCommit?: () => void } = {},
): HandlerSpec {
  const prepareBatch = (envelopes: readonly Envelope[]): PreparedEvent => ({
    apply: (tx, emit) => handle(envelopes, tx, emit),
    afterCommit: options.afterCommit,
  });
  return {
    type: '*',
    topics: [...new Set(EVENT_CATALOGUE.map((e) => e.topic))].filter((topic) => !options.except?.includes(topic)),
    except: options.except,
    prepare: (envelope) => prepareBatch([envelope]),
    prepareBatch,
  };
}

/** What a consumer needs of its service: the service's own schema and its applyOnce. */
export interface ConsumerContext {
  readonly schema: string;
  readonly db: Db;
  readonly logger: Logger;
  applyOnce(
    consumer: string,
    envelopes: readonly Envelope[],
    fn: (tx: Db, emit: Emit, fresh: Envelope[]) => Promise<void>,
  ): Promise<void>;
}

export interface ParkedEvent {
  consumer: string;
  eventId: string;
  type: string;
  attempts: number;
  error: string;
  parkedAt: Date;
}

/**
 * One service's handlers as one consumer group. A failing event is retried by the bus; after
 * `maxAttempts` failures (or at once, when its version cannot be read: retrying cannot help) it is
 * parked in the service's `parked_events` table and the stream moves on. `replay` applies parked
 * events again (the `npm run events` command).
 */
export class EventConsumer {
  /** Events that failed here at least once: on success their failure row is removed. */
  private readonly failed = new Set<string>();

  constructor(
    private readonly ctx: ConsumerContext,
    readonly name: string,
    private readonly handlers: readonly HandlerSpec[],
    private readonly maxAttempts: number,
  ) {}

  subscription(): Subscription {
    return {
      group: this.name,
      topics: [...new Set(this.handlers.flatMap((h) => h.topics))],
      handle: (envelope) => this.receive(envelope),
      handleBatch: (envelopes) => this.receiveBatch(envelopes),
    };
  }

  private handlersOf(envelope: Envelope): HandlerSpec[] {
    // A '*' handler that left a topic out never gets that topic's types, even where another
    // handler of the consumer subscribed to it (a group reads the union of its handlers' topics).
    const topic = isEventType(envelope.type) ? topicOf(envelope.type) : undefined;
    return this.handlers.filter((h) =>
      h.type === '*' ? !(topic && h.except?.includes(topic)) : h.type === envelope.type,
    );
  }

  /** Delivers one event from the bus: applied, skipped, parked, or thrown for the bus to retry. */
  async receive(envelope: Envelope): Promise<void> {
    const handlers = this.handlersOf(envelope);
    if (handlers.length === 0) return;
    await this.traced([envelope], () => this.receiveOne(envelope, handlers));
  }

  private async receiveOne(envelope: Envelope, handlers: readonly HandlerSpec[]): Promise<void> {
    try {
      await this.apply(envelope, handlers);
    } catch (error) {
      if (await this.recordFailure(envelope, error)) return;
      throw error;
    }
    if (this.failed.delete(envelope.id)) await this.forget(envelope.id);
  }

  /**
   * Delivers events that arrived together, in order. Consecutive events whose handlers all take
   * batches (onBatch) are applied together in one transaction; should that fail, they are applied
   * one by one, so that only the failing event is retried or parked. Other events go one by one.
   * Thrown: the bus delivers the whole batch again, and what was applied is skipped.
   */
  async receiveBatch(envelopes: readonly Envelope[]): Promise<void> {
    let run: Envelope[] = [];
    for (const envelope of envelopes) {
      const handlers = this.handlersOf(envelope);
      if (handlers.length === 0) continue;
      if (handlers.every((h) => h.prepareBatch)) {
        run.push(envelope);
        continue;
      }
      await this.receiveRun(run);
      run = [];
      await this.receive(envelope);
    }
    await this.receiveRun(run);
  }

  private async receiveRun(run: readonly Envelope[]): Promise<void> {
    // A run holding an event that failed before would fail together again: straight to one by one.
    if (run.length > 1 && !run.some((envelope) => this.failed.has(envelope.id))) {
      try {
        await this.traced(run, () => this.applyTogether(run));
        for (const envelope of run) if (this.failed.delete(envelope.id)) await this.forget(envelope.id);
        return;
      } catch (error) {
        this.ctx.logger.warn(
          { err: error, consumer: this.name, events: run.length },
          'a batch of events failed together; applying them one by one',
        );
      }
    }
    for (const envelope of run) await this.receive(envelope);
  }

  /**
   * A consumer span around handling events, in the trace their publish span carried (the first
   * event's; a batch links the others'), as this service's work: what the handlers write and emit
   * continues that trace.
   */
  private traced<T>(envelopes: readonly Envelope[], fn: () => Promise<T>): Promise<T> {
    const [first, ...rest] = envelopes;
    return withSpan(
      rest.length === 0 ? `${first!.type} process` : `${this.name} process`,
      {
        kind: SpanKind.CONSUMER,
        parent: contextFrom(traceOf(first!), this.name),
        links: rest.flatMap((e) => linkTo(traceOf(e))),
        attributes: {
          'messaging.operation.type': 'process',
          'messaging.consumer.group.name': this.name,
          'messaging.batch.message_count': envelopes.length,
          'messaging.message.id': first!.id,
          'earshot.event.type': first!.type,
        },
      },
      fn,
    );
  }

  /** One transaction: the run's events recorded as applied, each batch handler called once with its fresh events. */
  private async applyTogether(run: readonly Envelope[]): Promise<void> {
    const applied: PreparedEvent[] = [];
    await this.ctx.applyOnce(this.name, run, async (tx, emit, fresh) => {
      for (const handler of this.handlers) {
        const mine = fresh.filter((e) => handler.type === '*' || handler.type === e.type);
        if (mine.length === 0 || !handler.prepareBatch) continue;
        const prepared = handler.prepareBatch(mine);
        await prepared.apply(tx, emit);
        applied.push(prepared);
      }
    });
    applied.forEach((prepared) => prepared.afterCommit?.());
  }

  private async apply(envelope: Envelope, handlers: readonly HandlerSpec[]): Promise<void> {
    const events = handlers.map((h) => h.prepare(envelope));
    const fresh: PreparedEvent[] = [];
    await this.ctx.applyOnce(this.name, [envelope], async (tx, emit) => {
      for (const [i, event] of events.entries()) {
        if (
          event.entity !== undefined &&
          !(await this.isFresh(tx, handlers[i]!.type, event.entity, envelope.occurredAt))
        )
          continue;
        await event.apply(tx, emit);
        fresh.push(event);
      }
    });
    fresh.forEach((event) => event.afterCommit?.());
  }

  /** Records that `entity` is at `occurredAt` unless a newer event for it was applied already. */
  private async isFresh(tx: Db, type: string, entity: string, occurredAt: string): Promise<boolean> {
    const key = `${type.split('.')[0]}:${entity}`;
    const result = (await tx.execute(sql`
      insert into ${sql.identifier(this.ctx.schema)}.entity_versions (consumer, entity, occurred_at)
      values (${this.name}, ${key}, ${occurredAt})
      on conflict (consumer, entity) do update set occurred_at = excluded.occurred_at
        where entity_versions.occurred_at <= excluded.occurred_at
      returning 1`)) as unknown as { rows: unknown[] };
    return result.rows.length > 0;
  }

  /** Counts a failure; true when the event is now parked (the bus must move on). */
  private async recordFailure(envelope: Envelope, error: unknown): Promise<boolean> {
    const message = error instanceof Error ? error.message : String(error);
    const hopeless = error instanceof EventVersionError;
    this.failed.add(envelope.id);
    const t = sql.identifier(this.ctx.schema);
    const [row] = (
      (await this.ctx.db.execute(sql`
      insert into ${t}.parked_events (consumer, event_id, type, envelope, attempts, error)
      values (${this.name}, ${envelope.id}, ${envelope.type}, ${JSON.stringify(envelope)}::jsonb, 1, ${message})
      on conflict (consumer, event_id) do update set attempts = parked_events.attempts + 1, error = excluded.error, failed_at = now()
      returning attempts, parked_at`)) as unknown as { rows: { attempts: number; parked_at: Date | null }[] }
    ).rows;
    const log = { err: error, consumer: this.name, eventId: envelope.id, type: envelope.type, attempts: row!.attempts };
    if (row!.parked_at) return true;
    if (!hopeless && row!.attempts < this.maxAttempts) return false;
    await this.ctx.db.execute(
      sql`update ${t}.parked_events set parked_at = now() where consumer = ${this.name} and event_id = ${envelope.id}`,
    );
    this.failed.delete(envelope.id);
    this.ctx.logger.error(log, 'event parked: its handler keeps failing (list and replay with `npm run events`)');
    return true;
  }

  private async forget(eventId: string): Promise<void> {
    await this.ctx.db.execute(
      sql`delete from ${sql.identifier(this.ctx.schema)}.parked_events where consumer = ${this.name} and event_id = ${eventId}`,
    );
  }

  async parked(): Promise<ParkedEvent[]> {
    const result = (await this.ctx.db.execute(sql`
      select consumer, event_id, type, attempts, error, parked_at from ${sql.identifier(this.ctx.schema)}.parked_events
      where consumer = ${this.name} and parked_at is not null order by parked_at, event_id`)) as unknown as {
      rows: {
        consumer: string;
        event_id: string;
        type: string;
        attempts: number;
        error: string;
        parked_at: Date | string;
      }[];
    };
    return result.rows.map((r) => ({
      consumer: r.consumer,
      eventId: r.event_id,
      type: r.type,
      attempts: Number(r.attempts),
      error: r.error,
      parkedAt: new Date(r.parked_at),
    }));
  }

  /**
   * Applies parked events again (all, or the one with `eventId`), oldest first. A success removes
   * the event from the parking table; a failure leaves it there with the new error.
   */
  async replay(eventId?: string): Promise<{ replayed: string[]; failed: { eventId: string; error: string }[] }> {
    const t = sql.identifier(this.ctx.schema);
    const result = (await this.ctx.db.execute(sql`
      select event_id, envelope from ${t}.parked_events
      where consumer = ${this.name} and parked_at is not null ${eventId ? sql`and event_id = ${eventId}` : sql``}
      order by parked_at, event_id`)) as unknown as { rows: { event_id: string; envelope: Envelope | string }[] };
    const outcome = { replayed: [] as string[], failed: [] as { eventId: string; error: string }[] };
    for (const row of result.rows) {
      const envelope = EnvelopeSchema.parse(typeof row.envelope === 'string' ? JSON.parse(row.envelope) : row.envelope);
      try {
        await this.apply(envelope, this.handlersOf(envelope));
        await this.forget(row.event_id);
        outcome.replayed.push(row.event_id);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await this.ctx.db
          .execute(sql`update ${t}.parked_events set error = ${message}, attempts = attempts + 1, failed_at = now()
          where consumer = ${this.name} and event_id = ${row.event_id}`);
        outcome.failed.push({ eventId: row.event_id, error: message });
      }
    }
    return outcome;
  }
}
