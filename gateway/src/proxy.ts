import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, RawServerBase, RouteGenericInterface, RouteOptions } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { z } from 'zod';
import { SERVICE_OPENAPI_PATH, SERVICE_ROUTES, type ServiceRoute } from '@earshot/contracts';
import {
  BaseConfigSchema,
  TokenVerifier,
  checkApiKeysRemotely,
  createBus,
  createLogger,
  sessionEndSubscription,
  type BaseConfig,
  type EventBus,
  type Logger,
} from '@earshot/kit';
import { buildGateway, gatewayOptionsFrom, type OpenApiDocument, type OpenApiSources } from './app';
import { gatewayConfigShape, serviceUrlShape } from './config';

/** The distributed gateway's environment: base keys, the gateway's own, and where each service is. */
export const distributedConfigSchema = BaseConfigSchema.extend(gatewayConfigShape).extend(serviceUrlShape);
export type DistributedConfig = z.infer<typeof distributedConfigSchema>;

export interface Upstream {
  service: string;
  /** Origin of the service process, e.g. http://auth:3000. */
  url: string;
  /** Prefixes under /api it owns, e.g. ['/auth', '/users', '/roles']. */
  prefixes: readonly string[];
}

/** A service the gateway routes to: its name and prefixes (the contracts' table, or a test's own). */
export type RoutedService = Pick<ServiceRoute, 'name' | 'prefixes'> & { urlEnv?: string };

export const serviceUrlKey = (service: string) => `${service.toUpperCase()}_SERVICE_URL`;

/** Pairs every service with its URL from the config; a service without a URL key is a bug, caught at start. */
export function upstreamsFor(services: readonly RoutedService[], config: Record<string, unknown>): Upstream[] {
  return services.map((service) => {
    const key = service.urlEnv ?? serviceUrlKey(service.name);
    const url = config[key];
    if (typeof url !== 'string')
      throw new Error(`No ${key} for the ${service.name} service: add it to serviceUrlShape`);
    return { service: service.name, url: url.replace(/\/+$/, ''), prefixes: service.prefixes };
  });
}

/**
 * Every service's own OpenAPI document, fetched when /api/docs asks. A service that does not
 * answer keeps its last document (or none), so the docs never wait long on one that is down.
 */
export function upstreamOpenApi(upstreams: readonly Upstream[], timeoutMs = 2000): OpenApiSources {
  const documents = new Map<string, OpenApiDocument>();
  return {
    async refresh() {
      await Promise.all(
        upstreams.map(async ({ service, url }) => {
          try {
            const response = await fetch(`${url}${SERVICE_OPENAPI_PATH}`, { signal: AbortSignal.timeout(timeoutMs) });
            if (response.ok) documents.set(service, (await response.json()) as OpenApiDocument);
            else await response.body?.cancel();
          } catch {
            // Down for now: the last document stays.
          }
        }),
      );
    },
    documents: () => [...documents.values()],
  };
}

/**
 * Identity travels only as the signed token, which every service verifies itself. Headers that
 * look like an identity passed along by a trusted proxy are dropped, so none can be injected from
 * outside (and no service is tempted to read one).
 */
const IDENTITY_HEADER = /^x-(user|auth|identity|company|role|tenant|forwarded-user|authenticated|earshot)(-|$)/i;

function upstreamHeaders(
  request: { id: string; ip: string; protocol: string; host: string },
  headers: IncomingHttpHeaders,
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!IDENTITY_HEADER.test(name)) out[name] = value;
  // One id follows the request through every log line it causes.
  out['x-request-id'] = request.id;
  // The service trusts these (it sits behind us): they say what the gateway saw, never what the
  // client claimed, so sign-in throttling per address and secure cookies keep working.
  out['x-forwarded-for'] = request.ip;
  out['x-forwarded-proto'] = request.protocol;
  out['x-forwarded-host'] = request.host;
  return out;
}

/** A service that cannot be reached: 502/503/504 in the usual error format, details only in the log. */
const DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function unreachable(
  reply: FastifyReply<RouteGenericInterface, RawServerBase>,
  service: string,
  error: Error & { statusCode?: number },
) {
  const cause = (error.cause ?? {}) as { code?: string };
  const status =
    error.statusCode === 504 ? 504 : error.statusCode === 503 || DOWN_CODES.has(cause.code ?? '') ? 503 : 502;
  reply.log.error({ err: error, service }, 'upstream service failed');
  void reply
    .code(status)
    .header('retry-after', '5')
    .send({
      message: `The ${service} service is not available right now, try again shortly`,
      code: 'SERVICE_UNAVAILABLE',
    });
}

/** Routes /api/<prefix> and /api/<prefix>/* of every module to its service over HTTP. */
export async function registerProxies(app: FastifyInstance, upstreams: readonly Upstream[]): Promise<void> {
  await app.register(async (scope) => {
    // The proxy's catch-all routes would only clutter the OpenAPI document.
    scope.addHook('onRoute', (route: RouteOptions) => {
      route.schema = { ...route.schema, hide: true } as RouteOptions['schema'];
    });
    for (const upstream of upstreams) {
      for (const prefix of upstream.prefixes) {
        await scope.register(httpProxy, {
          upstream: upstream.url,
          prefix: `/api${prefix}`,
          rewritePrefix: `/api${prefix}`,
          // Public at the gateway on purpose: only the owning service knows each route's roles and
          // CSRF rules, and it enforces them itself (it runs the same guard). The gateway's guard
          // still runs on every request and verifies the session into request.identity (for logs
          // and rate limits); the token itself travels on to the service, which verifies it again.
          config: { access: 'public', csrfExempt: true, service: upstream.service },
          replyOptions: {
            rewriteRequestHeaders: upstreamHeaders,
            onError: (reply, { error }) => unreachable(reply, upstream.service, error),
          },
          undici: { headersTimeout: 60_000, bodyTimeout: 300_000, connections: 128, pipelining: 1 },
        });
      }
    }
  });
}

export interface UpstreamStatus {
  service: string;
  url: string;
  up: boolean;
}

/** Asks every upstream's /ready at once; a slow or failing one counts as down. */
export async function checkUpstreams(upstreams: readonly Upstream[], timeoutMs = 2000): Promise<UpstreamStatus[]> {
  return Promise.all(
    upstreams.map(async ({ service, url }) => {
      try {
        const response = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(timeoutMs) });
        await response.body?.cancel();
        return { service, url, up: response.ok };
      } catch {
        return { service, url, up: false };
      }
    }),
  );
}

export interface DistributedGateway {
  app: FastifyInstance;
  upstreams: Upstream[];
  tokens: TokenVerifier;
}

/**
 * The gateway of distributed mode: the same security layer as all-in-one (headers, body and rate
 * limits, session verification, docs, web app), with every service behind an HTTP proxy.
 */
export async function createDistributedGateway(
  config: DistributedConfig,
  services: readonly RoutedService[] = SERVICE_ROUTES,
  options: { logger?: Logger; readyTimeoutMs?: number; bus?: EventBus } = {},
): Promise<DistributedGateway> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, 'gateway');
  const upstreams = upstreamsFor(services, config);
  // Only public keys: the auth service's JWKS (AUTH_JWKS_URL, else behind AUTH_SERVICE_URL).
  const jwksUrl =
    config.AUTH_JWKS_URL ?? `${(config.AUTH_SERVICE_URL ?? 'http://auth:3000').replace(/\/+$/, '')}/api/auth/jwks`;
  const tokens = new TokenVerifier((config as BaseConfig).ACCESS_TOKEN_TTL_SECONDS, { jwksUrl });
  // Ended sessions arrive as auth's events (none without a shared bus: then tokens live out their TTL).
  const bus = options.bus ?? (config.KAFKA_BROKERS ? createBus(config, logger) : null);
  // The gateway checks API keys too: a valid one is rate-limited per key, an invalid one per address.
  await checkApiKeysRemotely(tokens.apiKeys, config, bus, 'gateway', logger);
  if (bus) {
    await bus.subscribe(sessionEndSubscription(tokens, 'gateway'));
    if (!options.bus) await bus.start();
  } else logger.warn('KAFKA_BROKERS is not set: the gateway cannot learn of ended sessions before their tokens expire');
  const app = await buildGateway({
    ...gatewayOptionsFrom(config, logger, tokens, config.WEB_DIST),
    openapi: upstreamOpenApi(upstreams, options.readyTimeoutMs),
  });
  app.get('/api/health', { config: { access: 'public' } }, async () => ({
    status: 'ok',
    mode: 'distributed',
    services: upstreams.map((u) => u.service),
  }));
  app.get('/api/ready', { config: { access: 'public' } }, async (_request, reply) => {
    const statuses = await checkUpstreams(upstreams, options.readyTimeoutMs);
    const down = statuses.filter((s) => !s.up).map((s) => s.service);
    const services = Object.fromEntries(statuses.map((s) => [s.service, s.up ? 'ready' : 'unavailable']));
    if (down.length === 0) return { status: 'ready', services };
    return reply.code(503).send({ status: 'unavailable', message: `Not ready: ${down.join(', ')}`, services });
  });
  await registerProxies(app, upstreams);
  if (bus && !options.bus) app.addHook('onClose', async () => bus.stop());
  return { app, upstreams, tokens };
}
