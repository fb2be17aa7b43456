import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withoutSecretAddresses } from './logger';

/*
 * The server span of each request, from Fastify's hooks rather than OpenTelemetry's http
 * instrumentation: that one binds the request's and the response's event emitters, reads every
 * attribute and listens on the response for every request, sampled or not, which cost more than the
 * rest of a small request's tracing together. Here a request the sampler leaves out costs the
 * extraction and the sampler's decision.
 */

/** Probes and scrapes every few seconds would drown the traces people look for. */
const UNTRACED = /^\/(api\/)?(health|ready|metrics)\b/;

let enabled = false;

/** Called once the SDK is started: servers built from then on give each request a server span. */
export function enableRequestSpans(on = true): void {
  enabled = on;
}

const spans = new WeakMap<FastifyRequest, { span: Span; context: Context }>();

/** The trace id of a request's server span; undefined when tracing is off or the request is not traced. */
export function traceIdOf(request: FastifyRequest): string | undefined {
  return spans.get(request)?.span.spanContext().traceId;
}

/** Registers the hooks when tracing is on; before any other hook, so all of them run in the request's span. */
export function traceRequests(app: FastifyInstance): void {
  if (!enabled) return;
  const tracer = trace.getTracer('earshot');
  app.addHook('onRequest', (request, _reply, done) => {
    if (UNTRACED.test(request.url)) return done();
    // The caller's trace (W3C traceparent), when it sent one.
    const parent = propagation.extract(context.active(), request.headers);
    const route = request.routeOptions.url;
    const span = tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      { kind: SpanKind.SERVER },
      parent,
    );
    if (span.isRecording()) {
      const query = request.url.indexOf('?');
      span.setAttributes({
        'http.request.method': request.method,
        'url.scheme': request.protocol,
        'url.path': withoutSecretAddresses(query < 0 ? request.url : request.url.slice(0, query)),
      });
      if (route) span.setAttribute('http.route', route);
    }
    // Left out by the sampler with no caller's trace to pass on: nothing below it is recorded, so it
    // runs in no trace at all, and the SQL instrumentation (which needs a parent span) skips its
    // queries. Work it hands on (events, calls) starts traces of its own, sampled alike.
    if (!span.isRecording() && !trace.getSpan(parent)) return done();
    const active = trace.setSpan(parent, span);
    spans.set(request, { span, context: active });
    context.with(active, done);
  });
  // A body arrives in the socket's events, outside the request's context: the hooks from here on and
  // the handler run in it again.
  app.addHook('preValidation', (request, _reply, done) => {
    const traced = spans.get(request);
    if (!traced || trace.getSpan(context.active()) === traced.span) return done();
    context.with(traced.context, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request)?.span;
    if (span?.isRecording()) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      // A server span fails on a 5xx only: a 4xx is the caller's mistake.
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const span = spans.get(request)?.span;
    if (span?.isRecording()) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client went away' });
      span.end();
    }
    done();
  });
}
