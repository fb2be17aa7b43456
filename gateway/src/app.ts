import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { ERROR_CODES } from '@earshot/contracts';
import {
  apiKeyOwnerOf,
  authGuard,
  buildServer,
  loadSheddingFrom,
  registerMetricsRoute,
  routeNotFound,
  tooMany,
  type LoadShedding,
  type Logger,
  type TokenVerifier,
} from '@earshot/kit';

export interface GatewayOptions {
  logger: Logger;
  logLevel: string;
  tokens: TokenVerifier;
  bodyLimit: number;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  signInRateLimitMax: number;
  /** Requests per window for one company API key (whatever addresses they come from). */
  apiKeyRateLimitMax: number;
  /** Requests per window for one company: its people's sessions and its API key together (default: COMPANY_RATE_LIMIT_FACTOR × rateLimitMax). */
  companyRateLimitMax?: number;
  /** Requests per window for one signed-in person, whatever address they come from (default: rateLimitMax). */
  userRateLimitMax?: number;
  trustProxy: boolean;
  /** Built web app to serve (SPA fallback to index.html), when present. */
  webDist?: string;
  /** Rate-limit counters in Redis, shared by every gateway replica; in memory when absent. */
  redis?: { url: string; namespace?: string };
  loadShedding?: LoadShedding;
  /** Lets a scraper off this machine read /metrics (loopback needs none). */
  metricsToken?: string;
  /** Other OpenAPI documents to merge into /api/docs (distributed mode: each service's own). */
  openapi?: OpenApiSources;
}

export interface OpenApiDocument {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
  tags?: { name: string }[];
}

export interface OpenApiSources {
  /** Called before the document is served; must not throw. */
  refresh(): Promise<void>;
  documents(): readonly OpenApiDocument[];
}

/** The gateway's own document with the others' paths, schemas and tags added. */
export function mergeOpenApi<T extends OpenApiDocument>(base: T, others: readonly OpenApiDocument[]): T {
  const merged = {
    ...base,
    paths: { ...base.paths },
    components: { ...base.components, schemas: { ...base.components?.schemas } },
    tags: [...(base.tags ?? [])],
  };
  for (const other of others) {
    Object.assign(merged.paths, other.paths);
    Object.assign(merged.components.schemas, other.components?.schemas);
    for (const tag of other.tags ?? []) if (!merged.tags.some((t) => t.name === tag.name)) merged.tags.push(tag);
  }
  return merged;
}

/** The gateway settings both compositions read from the validated configuration. */
export function gatewayOptionsFrom(
  config: {
    NODE_ENV: string;
    LOG_LEVEL: string;
    BODY_LIMIT_BYTES: number;
    RATE_LIMIT_MAX: number;
    RATE_LIMIT_WINDOW_MS: number;
    SIGN_IN_RATE_LIMIT_MAX: number;
    API_KEY_RATE_LIMIT_MAX: number;
    COMPANY_RATE_LIMIT_MAX?: number;
    USER_RATE_LIMIT_MAX?: number;
    TRUST_PROXY: boolean;
    REDIS_URL?: string;
    REDIS_KEY_PREFIX: string;
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS?: number;
    LOAD_SHED_MAX_QUEUE_DELAY_MS?: number;
    LOAD_SHED_RETRY_AFTER_SECONDS: number;
    METRICS_TOKEN?: string;
  },
  logger: Logger,
  tokens: TokenVerifier,
  webDist: string | undefined,
): GatewayOptions {
  return {
    logger,
    logLevel: config.LOG_LEVEL,
    tokens,
    bodyLimit: config.BODY_LIMIT_BYTES,
    rateLimitMax: config.RATE_LIMIT_MAX,
    rateLimitWindowMs: config.RATE_LIMIT_WINDOW_MS,
    signInRateLimitMax: config.SIGN_IN_RATE_LIMIT_MAX,
    apiKeyRateLimitMax: config.API_KEY_RATE_LIMIT_MAX,
    companyRateLimitMax: config.COMPANY_RATE_LIMIT_MAX,
    userRateLimitMax: config.USER_RATE_LIMIT_MAX,
    trustProxy: config.TRUST_PROXY,
    webDist,
    redis: config.REDIS_URL ? { url: config.REDIS_URL, namespace: config.REDIS_KEY_PREFIX } : undefined,
    loadShedding: loadSheddingFrom(config),
    metricsToken: config.METRICS_TOKEN,
  };
}

/** Rate-limit buckets of company API keys (one key per company). */
const API_KEY_BUCKET = 'api-key:';
/** Rate-limit buckets of companies: every session and the API key of one company, counted together. */
const COMPANY_BUCKET = 'company:';
/** Rate-limit buckets of people: every request of one signed-in user, from any address. */
const USER_BUCKET = 'user:';
/** Without COMPANY_RATE_LIMIT_MAX, a company may make this many times one address's requests. */
export const COMPANY_RATE_LIMIT_FACTOR = 5;

const SIGN_IN_PATHS = new Set([
  '/api/auth/login',
  '/api/auth/two-step/verify',
  '/api/auth/password/forgot',
  '/api/auth/password/reset',
]);

/**
 * The sign-in route a request goes to, or null. The matched route, never the raw URL: a query
 * string, a trailing or doubled slash or an escaped letter must not buy a fresh counter. Behind the
 * distributed proxy the matched route is a wildcard, so the path is normalised the way the service's
 * router will read it.
 */
export function signInRoute(request: FastifyRequest): string | null {
  const matched = request.routeOptions.url;
  if (matched && !matched.includes('*')) return SIGN_IN_PATHS.has(matched) ? matched : null;
  let path = request.url.split('?')[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Malformed escapes reach no route; the raw path is as good a key as any.
  }
  path = path.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return SIGN_IN_PATHS.has(path) ? path : null;
}

/** The company of a verified caller: their session's, or the company API key's; null for none. */
async function companyOfCaller(request: FastifyRequest, tokens: TokenVerifier): Promise<string | null> {
  if (request.identity?.companyId) return request.identity.companyId;
  return (await apiKeyOwnerOf(request, tokens.apiKeys))?.companyId ?? null;
}

/** The user of a verified person's session (not a company API key's service account); null for none. */
const sessionUserOf = (request: FastifyRequest): string | null =>
  request.identity && request.identity.via !== 'api-key' ? request.identity.userId : null;

/** Security headers for every answer, the web app's pages and the API alike. */
const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Earshot's own images only: an image of another host in an AI reply (or a saved avatar or
      // logo address) would be fetched as the page opens, telling that host what the URL carries.
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      // A company's subdomain gets its own web app manifest, built in the page as a blob URL
      // from the static one and the company's branding (web/src/features/branding/company-manifest.ts).
      manifestSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers @fastify/helmet sets with these options, captured once from a probe app: the plugin
 * rebuilds helmet's middleware, parsing the whole CSP again, on every request (in the profile of
 * GET /api/users/profile it cost more than the route's own code). No nonces are used, so the
 * headers are the same for every request.
 */
export async function securityHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, options);
    probe.get('/', async (_request, reply) => reply.raw.getHeaders());
    return (await probe.inject({ method: 'GET', url: '/' })).json();
  } finally {
    await probe.close();
  }
}

/**
 * The gateway's own layer: security headers, body limits, rate limits, identity verification,
 * OpenAPI docs and the web app. Services mount on it (all-in-one) or sit behind its proxy.
 */
export async function buildGateway(options: GatewayOptions): Promise<FastifyInstance> {
  const webRoot =
    options.webDist && existsSync(join(options.webDist, 'index.html')) ? resolve(options.webDist) : undefined;
  // Client-side routes: any GET outside /api that is not a file gets the app shell.
  const spaFallback = (request: FastifyRequest, reply: FastifyReply) => {
    if (
      webRoot &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      request.url !== '/api'
    ) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html', webRoot);
    }
    return routeNotFound(request, reply);
  };
  const app = buildServer({
    logLevel: options.logLevel,
    name: 'gateway',
    logger: options.logger,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    notFound: spaFallback,
    loadShedding: options.loadShedding,
  });

  const headers = await securityHeaders(HELMET_OPTIONS);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });

  let redis: Redis | undefined;
  if (options.redis) {
    // Imported here: a gateway without REDIS_URL (the all-in-one) never loads the client.
    const { Redis: RedisClient } = await import('ioredis');
    // Fail fast: a slow Redis must not hold every request; the limiter then lets requests through.
    redis = new RedisClient(options.redis.url, { connectTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: false });
    redis.on('error', (error) => options.logger.warn({ err: error }, 'rate-limit store (Redis) unavailable'));
    const client = redis;
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  }

  // Nothing counted by a hook of the plugin's own: the guard runs the limits below on every request
  // once its caller is known, before it refuses any, so a bad token or key (a 401) is counted too.
  await app.register(rateLimit, {
    global: false,
    max: (request, key) =>
      key.startsWith(API_KEY_BUCKET)
        ? options.apiKeyRateLimitMax
        : signInRoute(request)
          ? options.signInRateLimitMax
          : options.rateLimitMax,
    timeWindow: options.rateLimitWindowMs,
    // Sign-in attempts are counted per address and route; a valid company API key per key (an
    // integration may call from many addresses); a verified person's session not here but in their
    // user and company buckets below (an office behind one NAT address is many people, each with
    // their own bucket); everything else per address, a token or key that does not verify included.
    allowList: (request) => !signInRoute(request) && sessionUserOf(request) !== null,
    keyGenerator: async (request) => {
      const route = signInRoute(request);
      if (route) return `${request.ip}:${route}`;
      const owner = await apiKeyOwnerOf(request, options.tokens.apiKeys);
      return owner ? `${API_KEY_BUCKET}${owner.companyId}` : request.ip;
    },
    ...(redis ? { redis, nameSpace: options.redis?.namespace ?? 'earshot:rate-limit:', skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests, retry in ${Math.ceil(context.ttl / 1000)} s`,
      code: ERROR_CODES.RATE_LIMITED,
    }),
  });
  const addressLimit = app.rateLimit();

  // Each company has a bucket of its own besides the address's (or key's): one company's integration
  // or crowd cannot take every request the platform serves, and another company's never shares it.
  // Each signed-in person has one too, so one person (a runaway script with their session) cannot
  // take their whole company's. Counted once the guard verified the caller, so the company and the
  // user are the session's or the key's, never ones the request claims; the platform
  // administrator (no company) has a user bucket only. The person's bucket is checked first: a
  // request refused there does not count against the company.
  // These take the address bucket's settings but its allowList (signed-in people), whom they count.
  const ownBucket = { timeWindow: options.rateLimitWindowMs, allowList: undefined };
  const companyLimit = app.createRateLimit({
    ...ownBucket,
    max: options.companyRateLimitMax ?? COMPANY_RATE_LIMIT_FACTOR * options.rateLimitMax,
    keyGenerator: async (request) => `${COMPANY_BUCKET}${await companyOfCaller(request, options.tokens)}`,
  });
  const userLimit = app.createRateLimit({
    ...ownBucket,
    max: options.userRateLimitMax ?? options.rateLimitMax,
    keyGenerator: (request) => `${USER_BUCKET}${sessionUserOf(request)}`,
  });
  const limit = async (request: FastifyRequest, reply: FastifyReply) => {
    await addressLimit.call(app, request, reply);
    if (sessionUserOf(request)) {
      const user = await userLimit(request);
      if (!user.isAllowed && user.isExceeded)
        throw tooMany(user.ttlInSeconds, `Too many requests from your account, retry in ${user.ttlInSeconds} s`);
    }
    if (!(await companyOfCaller(request, options.tokens))) return;
    const company = await companyLimit(request);
    if (!company.isAllowed && company.isExceeded)
      throw tooMany(company.ttlInSeconds, `Too many requests from your company, retry in ${company.ttlInSeconds} s`);
  };

  await app.register(authGuard, { tokens: options.tokens, limit });
  // This process's own metrics (all-in-one: every service's); a service's are never proxied.
  registerMetricsRoute(app, options.metricsToken);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Earshot API',
        version: '1.0.0',
        description: 'Multi-company console for audio transcripts and AI chat.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'earshot_at' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  const sources = options.openapi;
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list' },
    ...(sources
      ? {
          uiHooks: {
            onRequest: (_request: unknown, _reply: unknown, done: () => void) => void sources.refresh().then(done),
          },
          transformSpecification: (spec: Readonly<Record<string, unknown>>) =>
            mergeOpenApi(spec as OpenApiDocument, sources.documents()),
        }
      : {}),
  });

  if (webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      setHeaders(reply, path) {
        // Hashed assets never change; the shell and the service worker must always be fresh.
        reply.header('cache-control', /\/assets\//.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  return app;
}
