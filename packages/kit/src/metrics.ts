import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import client from 'prom-client';
import type { Logger } from 'pino';
import { ERROR_CODES } from '@earshot/contracts';

/**
 * Prometheus metrics through prom-client's default registry: one per process, so whatever else
 * registers there (the tracing's dropped-spans counter, Node's own metrics) is scraped with ours.
 */
export const prometheus = client;

// Node's own metrics (heap, event-loop lag, GC, handles), once per process however many apps it builds.
if (!client.register.getSingleMetric('process_cpu_seconds_total')) client.collectDefaultMetrics();

/** A metric defined once per process: a module loaded twice (tests) must not register it twice. */
export function metricOnce<T extends client.Metric>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}

export interface Sample {
  labels: Record<string, string>;
  value: number;
}
export type SampleSource = () => Promise<Sample[]>;

const scrapeErrors = metricOnce(
  'earshot_metrics_scrape_errors_total',
  () =>
    new client.Counter({
      name: 'earshot_metrics_scrape_errors_total',
      help: 'Scrapes in which one source of a metric failed (its samples are left out), by metric',
      labelNames: ['metric'],
    }),
);

/**
 * A gauge (or a counter kept elsewhere, such as a database total) read when Prometheus scrapes:
 * state that lives in the database is queried then, not counted along the way. Several sources
 * may feed one metric (each service's outbox); each adds its samples and removes itself on stop.
 */
export class ScrapedMetric {
  private readonly sources: Set<SampleSource>;

  constructor(name: string, help: string, labelNames: readonly string[], type: 'gauge' | 'counter' = 'gauge') {
    const existing = client.register.getSingleMetric(name) as
      (client.Metric & { sources?: Set<SampleSource> }) | undefined;
    if (existing?.sources) {
      // A second copy of the defining module shares the first one's metric and sources.
      this.sources = existing.sources;
      return;
    }
    const sources = new Set<SampleSource>();
    this.sources = sources;
    const gather = async (put: (sample: Sample) => void) => {
      const results = await Promise.allSettled([...sources].map((source) => source()));
      for (const result of results) {
        if (result.status === 'fulfilled') result.value.forEach(put);
        else scrapeErrors.inc({ metric: name });
      }
    };
    const settings = { name, help, labelNames: [...labelNames] };
    // A counter read from the database (an append-only total) is reset and set to the total on each scrape.
    const metric =
      type === 'counter'
        ? new client.Counter({
            ...settings,
            async collect() {
              this.reset();
              await gather((s) => this.inc(s.labels, s.value));
            },
          })
        : new client.Gauge({
            ...settings,
            async collect() {
              this.reset();
              await gather((s) => this.set(s.labels, s.value));
            },
          });
    Object.assign(metric, { sources });
  }

  /** Adds a source; the returned function removes it. */
  add(source: SampleSource): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }
}

/** One source of a service's scraped metric, and what it reads (named in the log when it fails). */
export interface ScrapedSource {
  metric: ScrapedMetric;
  what: string;
  read: SampleSource;
}

const requestDuration = metricOnce(
  'earshot_http_request_duration_seconds',
  () =>
    new client.Histogram({
      name: 'earshot_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by route template and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
);
const inFlight = metricOnce(
  'earshot_http_requests_in_flight',
  () =>
    new client.Gauge({
      name: 'earshot_http_requests_in_flight',
      help: 'Requests received and not yet answered',
    }),
);
const shedTotal = metricOnce(
  'earshot_http_requests_shed_total',
  () =>
    new client.Counter({
      name: 'earshot_http_requests_shed_total',
      help: 'Requests refused with 503 by load shedding, by reason (queue: a standing queue; event_loop: a delayed event loop; health: a failed dependency check)',
      labelNames: ['reason'],
    }),
);

/** Counts a request refused by load shedding. */
export function countShed(reason: 'queue' | 'event_loop' | 'health' | 'other'): void {
  shedTotal.inc({ reason });
}

/** What a request without a matched route is filed under: raw URLs would make a series per scanner's guess. */
const UNMATCHED = 'unmatched';

/** Request duration and requests in flight for every route of `app`. */
export function instrumentRequests(app: FastifyInstance): void {
  const started = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    started.add(request);
    inFlight.inc();
  });
  app.addHook('onResponse', async (request, reply) => {
    // A request answered before onRequest ran (a 404 of the router, a body too large) was never counted in.
    if (started.delete(request)) inFlight.dec();
    requestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED,
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      },
      reply.elapsedTime / 1000,
    );
  });
}

/** 127.0.0.0/8 and ::1, written as IPv4, IPv6 or IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === '::1';
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read /metrics: a caller on this machine (the connection's own address, never a
 * forwarded one: a request relayed by a proxy on this machine came from elsewhere), or anyone
 * presenting METRICS_TOKEN as a bearer token.
 */
export function mayReadMetrics(request: FastifyRequest, token: string | undefined): boolean {
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (!forwarded && isLoopback(request.raw.socket?.remoteAddress)) return true;
  if (!token) return false;
  const [scheme, given] = (request.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !given) return false;
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * GET /metrics in Prometheus's text format, outside /api: not part of the API, never proxied by the
 * gateway, hidden from the OpenAPI document. Refused (401) to anyone else than `mayReadMetrics` allows.
 */
export function registerMetricsRoute(app: FastifyInstance, token: string | undefined): void {
  app.get(
    '/metrics',
    { config: { access: 'public' }, schema: { hide: true } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      if (!mayReadMetrics(request, token)) {
        return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({
          message: 'Metrics are answered on loopback or with METRICS_TOKEN as a bearer token',
          code: ERROR_CODES.UNAUTHENTICATED,
        });
      }
      return reply.type(client.register.contentType).send(await client.register.metrics());
    },
  );
}

/** Logs, once per metric, a source that keeps failing: the scrape still answers without it. */
export function loggedSource(logger: Logger, what: string, source: SampleSource): SampleSource {
  let failing = false;
  return async () => {
    try {
      const samples = await source();
      failing = false;
      return samples;
    } catch (error) {
      if (!failing) logger.warn({ err: error }, `metrics: ${what} could not be read`);
      failing = true;
      throw error;
    }
  };
}
