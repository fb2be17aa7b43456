import { createRequire } from 'node:module';
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ExportResult } from '@opentelemetry/core';
import { enableRequestSpans } from './request-spans';
import { serviceOf } from './tracing';

/** Counts spans lost on the way to the collector (prom-client's default registry, served at /metrics). */
export const SPANS_DROPPED_METRIC = 'earshot_otel_spans_dropped_total';

/**
 * Tracing is on only when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT); otherwise
 * none of the SDK's modules is even loaded (about 20 MB of heap in every process). The SDK and the exporters read the standard OTEL_*
 * variables themselves (endpoint, headers, timeout, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_TRACES_SAMPLER, OTEL_BSP_*...); OTEL_EXPORTER_OTLP_PROTOCOL picks the exporter:
 * `http/protobuf` (the default) or `http/json`. Every span gets `earshot.service`: the service
 * whose work it is (see inService), else `service`.
 */
export async function startTelemetry(
  endpoint: string | undefined,
  serviceName: string,
  service: string = serviceName,
): Promise<() => Promise<void>> {
  if (!endpoint) return async () => undefined;
  const protocol = process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol && protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, not "${protocol}"`);
  const [{ NodeSDK }, { BatchSpanProcessor }, core, exporters, http, pg, undici, prom] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/core'),
    protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
    import('prom-client'),
  ]);
  const dropped =
    (prom.register.getSingleMetric(SPANS_DROPPED_METRIC) as InstanceType<typeof prom.Counter> | undefined) ??
    new prom.Counter({
      name: SPANS_DROPPED_METRIC,
      help: 'Spans not delivered to the OpenTelemetry collector: its queue was full, or the export failed',
    });
  // The SDK's own reading of OTEL_BSP_MAX_QUEUE_SIZE (default 2048): the bound is ours to count against.
  const maxQueueSize = core.getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE') ?? 2048;
  const counting = new CountingProcessor(service, maxQueueSize, () => dropped.inc());
  // The endpoint given (OTEL_EXPORTER_OTLP_ENDPOINT, as validated) gets the signal's path as the SDK
  // would append it; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, when set, is the SDK's to read instead.
  const url = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? undefined : `${endpoint.replace(/\/$/, '')}/v1/traces`;
  const exporter = new CountingExporter(new exporters.OTLPTraceExporter({ url }), counting, (n) => dropped.inc(n));
  counting.inner = new BatchSpanProcessor(exporter, { maxQueueSize });
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME, when set, is the SDK's to apply.
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName }),
    spanProcessors: [counting],
    // Traces only: without these the SDK would set up OTLP metric and log exporters of its own, and
    // the http instrumentation would record a histogram on every request (metrics are prom-client's).
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new http.HttpInstrumentation({
        // Requests served get their span from the server's own hooks (see request-spans), at a
        // fraction of this instrumentation's cost: it is kept for the calls made with node:http.
        disableIncomingRequestInstrumentation: true,
        // Calls made outside any traced work (key fetches, pollers) would each start a trace of their own.
        requireParentforOutgoingSpans: true,
      }),
      // Only queries inside a traced piece of work: pollers (outbox relays, job claims) would
      // otherwise start a trace of their own several times a second.
      // A pool checkout is not a query: a span for it would double the spans of every request.
      new pg.PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      new undici.UndiciInstrumentation(),
    ],
  });
  sdk.start();
  patchLoadedModules();
  enableRequestSpans();
  return async () => {
    enableRequestSpans(false);
    // A last export that fails (the collector is down) is counted, and must not fail the stop; the
    // batch processor then skips its exporter's shutdown, which waits for the exports under way.
    await sdk.shutdown().catch(() => undefined);
    await exporter.shutdown().catch(() => undefined);
  };
}

/**
 * The instrumentations patch a module when it is required after they were enabled; Earshot is ESM
 * and imported `pg` (and Node's http) before telemetry could start, so they are required once more
 * here: require-in-the-middle patches what the require cache already holds, which is the very
 * object the ESM imports use (pg's Client prototype, http's exports).
 */
function patchLoadedModules(): void {
  const require = createRequire(import.meta.url);
  require('node:http');
  require('node:https');
  const pgPath = require.resolve('pg');
  require(pgPath);
  createRequire(pgPath)('pg-pool');
}

/**
 * In front of the BatchSpanProcessor: names each span's service, and bounds what waits for export
 * so that a collector that is down or slow costs a counter increment, never memory or a request's
 * time. The inner processor's own queue has the same bound, so it never drops silently.
 */
class CountingProcessor implements SpanProcessor {
  inner!: SpanProcessor;
  private waiting = 0;

  constructor(
    private readonly service: string,
    private readonly maxQueueSize: number,
    private readonly drop: () => void,
  ) {}

  onStart(span: Span, parentContext: Context): void {
    span.setAttribute('earshot.service', serviceOf(parentContext) ?? this.service);
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    // Unsampled spans are never exported: nothing to bound or count.
    if ((span.spanContext().traceFlags & 1) === 0) return;
    if (this.waiting >= this.maxQueueSize) {
      this.drop();
      return;
    }
    this.waiting += 1;
    this.inner.onEnd(span);
  }

  /** Spans the batch processor took out of its queue to export. */
  taken(count: number): void {
    this.waiting = Math.max(0, this.waiting - count);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/**
 * The OTLP exporter, counting the spans of every failed export as dropped. Flushing and shutting
 * down wait for exports already under way (the batch processor does not), so a stopping process
 * neither cuts a batch short nor leaves its failure uncounted.
 */
class CountingExporter implements SpanExporter {
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly inner: SpanExporter,
    private readonly processor: CountingProcessor,
    private readonly drop: (count: number) => void,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.processor.taken(spans.length);
    const sent = new Promise<void>((resolve) =>
      this.inner.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0.
        if (result.code !== 0) this.drop(spans.length);
        resolve();
        done(result);
      }),
    );
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  async shutdown(): Promise<void> {
    await this.sent();
    await this.inner.shutdown();
  }

  async forceFlush(): Promise<void> {
    await this.sent();
    await this.inner.forceFlush?.();
  }

  private async sent(): Promise<void> {
    await Promise.all([...this.sending]);
  }
}
