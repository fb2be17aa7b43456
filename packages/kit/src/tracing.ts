import {
  context,
  createContextKey,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Link,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';
import type { Envelope } from '@earshot/contracts';

/*
 * Spans through @opentelemetry/api only: without an SDK (no OTEL_EXPORTER_OTLP_ENDPOINT) every
 * call here is the API's no-op, so code can trace unconditionally at no cost.
 */

export { SpanKind };
export type { Span };

/** The W3C trace context in a carrier (`traceparent`, `tracestate`): Kafka headers, an outbox row. */
export type TraceCarrier = Record<string, string>;

const tracer = () => trace.getTracer('earshot');

const SERVICE = createContextKey('earshot.service');

/** The service whose work runs in `fn` (the all-in-one runs every service in one process). */
export function inService<T>(service: string, fn: () => T): T {
  return context.with(context.active().setValue(SERVICE, service), fn);
}

/** The service `inService` named for this context, if any. */
export function serviceOf(ctx: Context): string | undefined {
  const value = ctx.getValue(SERVICE);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Runs `fn` outside the active trace, still as the same service's work: for a poller's next round,
 * which would otherwise run in the trace of whatever request last nudged it and add its queries to
 * that trace for as long as the process lives.
 */
export function untraced<T>(fn: () => T): T {
  return context.with(trace.deleteSpan(context.active()), fn);
}

/** The active trace context as a carrier; undefined when nothing is being traced. */
export function activeTrace(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** The active context continued from a carrier's trace, as the work of `service` when named. */
export function contextFrom(carrier: TraceCarrier | undefined, service?: string): Context {
  const base = service ? context.active().setValue(SERVICE, service) : context.active();
  return carrier ? propagation.extract(base, carrier) : base;
}

/**
 * A span that is not made active, for work that is not a function call (one of a batch's
 * messages): its context as a carrier, to pass on.
 */
export function startSpan(
  name: string,
  options: SpanOptions,
  parent: Context,
): { span: Span; carrier: TraceCarrier | undefined; fail(error: unknown): void } {
  const span = tracer().startSpan(name, options, parent);
  const carrier: TraceCarrier = {};
  propagation.inject(trace.setSpan(parent, span), carrier);
  return {
    span,
    carrier: carrier.traceparent ? carrier : undefined,
    fail(error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    },
  };
}

/** A link to the trace a carrier holds (a batch's other events). */
export function linkTo(carrier: TraceCarrier | undefined): Link[] {
  const span = carrier && trace.getSpanContext(propagation.extract(context.active(), carrier));
  return span ? [{ context: span }] : [];
}

/**
 * Runs `fn` in a new active span (a child of `parent`, else of the active span), ended when `fn`
 * settles; a throw is recorded on the span and thrown on.
 */
export async function withSpan<T>(
  name: string,
  options: SpanOptions & { parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const { parent, ...spanOptions } = options;
  return tracer().startActiveSpan(name, spanOptions, parent ?? context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/*
 * The trace a bus delivered with an envelope (Kafka headers, or the in-memory bus's queue entry),
 * read by the consumer that handles it. Kept beside the envelope rather than in it: the envelope is
 * the event's versioned contract, the trace context is transport.
 */
const carried = new WeakMap<Envelope, TraceCarrier>();

export function carryTrace(envelope: Envelope, carrier: TraceCarrier | undefined): Envelope {
  if (carrier?.traceparent) carried.set(envelope, carrier);
  return envelope;
}

export function traceOf(envelope: Envelope): TraceCarrier | undefined {
  return carried.get(envelope);
}
