import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { z } from 'zod';
import { SERVICE_ROUTES } from '@earshot/contracts';
import { authService } from '@earshot/auth-service';
import {
  MemoryBus,
  TokenSigner,
  TokenVerifier,
  buildServiceApp,
  createLogger,
  defineService,
  identityOf,
  loadConfig,
  type Database,
  type ServiceModule,
} from '@earshot/kit';
import {
  TEST_JWT_SECRET,
  TEST_SECRETS_KEY,
  openTestDatabase,
  testSigningKeyPem,
  testSigningKeys,
} from '@earshot/kit/testing';
import { ALL_SERVICES } from '../src/modules';
import { pathEcho } from './path-echo';
import {
  createDistributedGateway,
  distributedConfigSchema,
  serviceUrlKey,
  upstreamsFor,
  type DistributedConfig,
  type DistributedGateway,
} from '../src/proxy';

// Distributed mode for real: each upstream is its own Fastify server on a random port, started the
// way runStandalone starts a service (guard, probes, mounted module), and the gateway proxies to it
// over HTTP.

/** A service that answers with what reached it, to see what the gateway passes on. */
const echoService = defineService({
  name: 'echo',
  schema: 'echo_proxy_test',
  prefixes: ['/echo', '/mirror'],
  migrations: [],
  async routes(app) {
    const echo = async (request: {
      method: string;
      url: string;
      headers: Record<string, unknown>;
      body?: unknown;
      identity: unknown;
    }) => ({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body ?? null,
      identity: request.identity,
    });
    app.get('/echo', { config: { access: 'public' } }, echo);
    app.get('/echo/*', { config: { access: 'public' } }, echo);
    app.post(
      '/mirror/things',
      {
        config: { access: ['ADMIN'], example: { body: { name: 'x' } } },
        schema: { body: z.object({ name: z.string().max(50) }).strict() },
      },
      async (request) => ({ ...(await echo(request)), caller: identityOf(request).userId }),
    );
  },
});

interface Upstream {
  app: FastifyInstance;
  url: string;
  database: Database;
  bus: MemoryBus;
  /** Publishes the service's outbox and waits until every consumer of its bus is done. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

// Made-up callers' tokens: a test key the upstreams trust (the auth upstream trusts its own key too).
const tokens = new TokenSigner(testSigningKeys(), 900);
const env = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  AUTH_SIGNING_KEY: testSigningKeyPem(),
  JWT_SECRET: TEST_JWT_SECRET,
  SECRETS_KEY: TEST_SECRETS_KEY,
  ADMIN_PASSWORD: 'platform-admin-password',
};

async function startUpstream(module: ServiceModule): Promise<Upstream> {
  const config = loadConfig(distributedConfigSchema.extend(module.configShape ?? {}), env) as DistributedConfig;
  const logger = createLogger('silent');
  const database = await openTestDatabase();
  const bus = new MemoryBus();
  const verifier = new TokenVerifier(900).trust(tokens.jwks());
  const { app, running } = await buildServiceApp(module, { config, database, bus, logger, tokens: verifier });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  let closed = false;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    database,
    bus,
    async settle() {
      await running.flush();
      await bus.idle();
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await running.stop();
      await bus.stop();
      await database.close();
    },
  };
}

let auth: Upstream;
let echo: Upstream;
let gateway: DistributedGateway;

beforeAll(async () => {
  auth = await startUpstream(authService as ServiceModule);
  echo = await startUpstream(echoService);
  const config = loadConfig(distributedConfigSchema, { ...env, AUTH_SERVICE_URL: auth.url });
  gateway = await createDistributedGateway(
    { ...config, [serviceUrlKey('echo')]: echo.url } as typeof config,
    [authService as ServiceModule, echoService],
    {
      logger: createLogger('silent'),
      // How long the gateway waits for an upstream's readiness or API document: a limit, not what is
      // tested (a service that is down refuses the connection at once). On a busy machine building
      // the document took longer than a second, and /api/docs then listed only the gateway's routes.
      readyTimeoutMs: 30_000,
      // Stands in for Kafka: the gateway hears auth's events as it would in a deployment.
      bus: auth.bus,
    },
  );
  await gateway.app.ready();
}, 120_000);

afterAll(async () => {
  await gateway?.app.close();
  await echo?.close();
  await auth?.close();
}, 60_000);

const call = (options: InjectOptions) => gateway.app.inject(options);

test('every prefix of every module goes to its own service, with path, query and body intact', async () => {
  const res = await call({ method: 'GET', url: '/api/echo/deep/path?x=1&y=two' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ method: 'GET', url: '/api/echo/deep/path?x=1&y=two' });

  const admin = await tokens.sign({
    userId: 'admin-1',
    companyId: 'company-1',
    role: 'ADMIN',
    email: 'admin@acme.test',
  });
  const created = await call({
    method: 'POST',
    url: '/api/mirror/things',
    headers: { authorization: `Bearer ${admin}` },
    payload: { name: 'widget' },
  });
  expect(created.statusCode).toBe(200);
  expect(created.json()).toMatchObject({ method: 'POST', body: { name: 'widget' }, caller: 'admin-1' });

  // The auth service answers its own routes through the gateway.
  const login = await call({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'nobody@acme.test', password: 'wrong-password' },
  });
  expect(login.statusCode).toBe(401);
  expect(login.json()).toMatchObject({ message: 'Invalid email or password' });
  const profile = await call({ method: 'GET', url: '/api/users/profile' });
  expect(profile.statusCode).toBe(401);
});

test('the service still enforces its own roles, validation and CSRF rules behind the gateway', async () => {
  const user = await tokens.sign({ userId: 'user-1', companyId: 'company-1', role: 'USER', email: 'user@acme.test' });
  const admin = await tokens.sign({
    userId: 'admin-1',
    companyId: 'company-1',
    role: 'ADMIN',
    email: 'admin@acme.test',
  });
  expect((await call({ method: 'POST', url: '/api/mirror/things', payload: { name: 'x' } })).statusCode).toBe(401);
  expect(
    (
      await call({
        method: 'POST',
        url: '/api/mirror/things',
        headers: { authorization: `Bearer ${user}` },
        payload: { name: 'x' },
      })
    ).statusCode,
  ).toBe(403);
  const invalid = await call({
    method: 'POST',
    url: '/api/mirror/things',
    headers: { authorization: `Bearer ${admin}` },
    payload: { name: 'x', extra: true },
  });
  expect(invalid.statusCode).toBe(400);
  expect(invalid.json().message).toMatch(/extra/);
  // A cookie session without the CSRF header is refused by the service, not waved through.
  const cookie = { cookie: `earshot_at=${admin}` };
  expect(
    (await call({ method: 'POST', url: '/api/mirror/things', headers: cookie, payload: { name: 'x' } })).statusCode,
  ).toBe(403);
  expect(
    (
      await call({
        method: 'POST',
        url: '/api/mirror/things',
        headers: { ...cookie, 'x-requested-with': 'XMLHttpRequest' },
        payload: { name: 'x' },
      })
    ).statusCode,
  ).toBe(200);
});

test('the request id reaches the service and comes back; one is made when the caller sends none', async () => {
  const given = await call({ method: 'GET', url: '/api/echo', headers: { 'x-request-id': 'trace-abc-123' } });
  expect(given.headers['x-request-id']).toBe('trace-abc-123');
  expect(given.json().headers['x-request-id']).toBe('trace-abc-123');

  const made = await call({ method: 'GET', url: '/api/echo' });
  const id = made.headers['x-request-id'];
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(made.json().headers['x-request-id']).toBe(id);
});

test('identity headers from outside are dropped and forwarding headers say what the gateway saw', async () => {
  const res = await call({
    method: 'GET',
    url: '/api/echo',
    headers: {
      'x-user-id': 'intruder',
      'x-user-role': 'HOST_ADMIN',
      'x-company-id': 'other-company',
      'x-authenticated-user': 'intruder',
      'x-forwarded-for': '6.6.6.6',
      'x-requested-with': 'XMLHttpRequest',
    },
  });
  const seen = res.json().headers as Record<string, string>;
  for (const header of ['x-user-id', 'x-user-role', 'x-company-id', 'x-authenticated-user'])
    expect(seen).not.toHaveProperty([header]);
  expect(seen['x-forwarded-for']).toBe('127.0.0.1');
  expect(seen['x-requested-with']).toBe('XMLHttpRequest');
  expect(res.json().identity).toBeNull();
});

test('an unknown prefix is a 404 from the gateway itself', async () => {
  for (const url of ['/api/nothing-here', '/api/echoes', '/api/mirrors/x']) {
    const res = await call({ method: 'GET', url });
    expect([url, res.statusCode]).toEqual([url, 404]);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  }
});

test('/api/docs shows the routes of every service behind the proxy', async () => {
  const res = await call({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
  expect(paths).toEqual(
    expect.arrayContaining(['/api/auth/login', '/api/users/profile', '/api/mirror/things', '/api/health']),
  );
  // The proxy's own catch-all routes stay out of it.
  expect(paths).not.toContain('/api/auth/{*}');
  expect(paths).not.toContain('/api/mirror/{*}');
});

/** A gateway of its own (fresh rate-limit counters) in front of the auth and echo upstreams. */
async function gatewayWith(settings: Record<string, string>) {
  const config = loadConfig(distributedConfigSchema, {
    ...env,
    AUTH_SERVICE_URL: auth.url,
    SIGN_IN_RATE_LIMIT_MAX: '4',
    ...settings,
  });
  const created = await createDistributedGateway(
    { ...config, [serviceUrlKey('echo')]: echo.url } as typeof config,
    [authService as ServiceModule, echoService],
    { logger: createLogger('silent') },
  );
  await created.app.ready();
  return created;
}

describe('sign-in rate limit', () => {
  const variants = [
    '/api/auth/login',
    '/api/auth/login?n=1',
    '/api/auth/login/',
    '/api/auth/%6Cogin',
    '/api/auth/login?n=2',
    '/api/auth/login/?n=3',
  ];
  const attempt = (target: DistributedGateway, url: string) =>
    // A new account each time: the auth service's own per-account throttling stays out of the picture.
    target.app.inject({
      method: 'POST',
      url,
      payload: { email: `nobody-${randomUUID()}@acme.test`, password: 'wrong-password' },
    });

  test('keys on the route: a query string, a trailing slash or an escaped letter is the same route', async () => {
    const limited = await gatewayWith({});
    try {
      const statuses: number[] = [];
      for (const url of variants) statuses.push((await attempt(limited, url)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    } finally {
      await limited.app.close();
    }
  });

  test('two gateways sharing one Redis share the limit', async () => {
    const settings = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `earshot-test-${randomUUID()}:` };
    const first = await gatewayWith(settings);
    const second = await gatewayWith(settings);
    try {
      expect((await attempt(first, variants[0]!)).statusCode).toBe(401);
      expect((await attempt(second, variants[1]!)).statusCode).toBe(401);
      expect((await attempt(first, variants[2]!)).statusCode).toBe(401);
      expect((await attempt(second, variants[3]!)).statusCode).toBe(401);
      // Four attempts in all: both gateways refuse the fifth.
      expect((await attempt(first, variants[4]!)).statusCode).toBe(429);
      expect((await attempt(second, variants[5]!)).statusCode).toBe(429);
    } finally {
      await first.app.close();
      await second.app.close();
    }
  });

  test('REDIS_URL is validated', () => {
    expect(() => loadConfig(distributedConfigSchema, { ...env, REDIS_URL: '127.0.0.1:6379' })).toThrow(/REDIS_URL/);
  });
});

describe('address rate limit', () => {
  test('a token that does not verify is counted in its address’s bucket, shared in Redis, before its 401', async () => {
    const settings = {
      RATE_LIMIT_MAX: '3',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `earshot-test-${randomUUID()}:`,
    };
    const first = await gatewayWith(settings);
    const second = await gatewayWith(settings);
    const guesser = '127.0.0.30';
    const guess = (target: DistributedGateway, remoteAddress = guesser) =>
      target.app.inject({
        method: 'POST',
        url: '/api/mirror/things',
        remoteAddress,
        headers: { authorization: 'Bearer not-a-token' },
        payload: { name: 'x' },
      });
    try {
      // Three in all across both gateways: the service refuses them, then both gateways refuse the fourth.
      expect((await guess(first)).statusCode).toBe(401);
      expect((await guess(second)).statusCode).toBe(401);
      expect((await guess(first)).statusCode).toBe(401);
      const refused = await guess(second);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await guess(first)).statusCode).toBe(429);

      // Another address has a bucket of its own; a signed-in person is not held by any address's
      // (the gateway trusts the made-up callers' key, as it trusts auth's from its JWKS).
      expect((await guess(first, '127.0.0.31')).statusCode).toBe(401);
      first.tokens.trust(tokens.jwks());
      const admin = await tokens.sign({ userId: 'admin-2', companyId: 'company-2', role: 'ADMIN', email: 'b@b.test' });
      const served = await first.app.inject({
        method: 'POST',
        url: '/api/mirror/things',
        remoteAddress: guesser,
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'x' },
      });
      expect(served.statusCode).toBe(200);
    } finally {
      await first.app.close();
      await second.app.close();
    }
  });
});

test('health is the gateway alone; ready asks every upstream and names the ones down', async () => {
  const health = await call({ method: 'GET', url: '/api/health' });
  expect(health.statusCode).toBe(200);
  expect(health.json()).toMatchObject({ status: 'ok', mode: 'distributed', services: ['auth', 'echo'] });

  const ready = await call({ method: 'GET', url: '/api/ready' });
  expect(ready.statusCode).toBe(200);
  expect(ready.json()).toEqual({ status: 'ready', services: { auth: 'ready', echo: 'ready' } });

  await echo.close();
  const down = await call({ method: 'GET', url: '/api/ready' });
  expect(down.statusCode).toBe(503);
  expect(down.json()).toMatchObject({
    status: 'unavailable',
    message: 'Not ready: echo',
    services: { auth: 'ready', echo: 'unavailable' },
  });
  expect((await call({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  // Requests for a service that is down fail cleanly, without leaking internals.
  const proxied = await call({ method: 'GET', url: '/api/echo' });
  expect(proxied.statusCode).toBe(503);
  expect(proxied.json()).toEqual({
    message: 'The echo service is not available right now, try again shortly',
    code: 'SERVICE_UNAVAILABLE',
  });
});

test('the table in the contracts routes every prefix of every module of the product to its service URL', () => {
  const config = loadConfig(distributedConfigSchema, env);
  const upstreams = upstreamsFor(SERVICE_ROUTES, config);
  expect(upstreams.map((u) => u.service).sort()).toEqual(ALL_SERVICES.map((m) => m.name).sort());
  for (const upstream of upstreams) {
    expect(upstream.url).toBe(`http://${upstream.service}:3000`);
    expect(upstream.prefixes).toEqual(ALL_SERVICES.find((m) => m.name === upstream.service)!.prefixes);
  }
  expect(() => upstreamsFor([echoService], config)).toThrow(/ECHO_SERVICE_URL/);
});

test('the distributed gateway loads no service code', () => {
  for (const file of ['main.ts', 'proxy.ts', 'app.ts', 'config.ts']) {
    const source = readFileSync(join(import.meta.dirname, '..', 'src', file), 'utf8');
    expect([file, source.match(/from '(@earshot\/[a-z]+-service|\.\/modules|\.\/compose)'/)?.[1]]).toEqual([
      file,
      undefined,
    ]);
  }
});

test("a signed-out session is refused by the distributed gateway once auth's event reaches it", async () => {
  const signIn = await call({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'admin@earshot.local', password: 'platform-admin-password' },
  });
  expect(signIn.statusCode).toBe(200);
  const token = /earshot_at=([^;]+)/.exec(String(signIn.headers['set-cookie']))![1]!;
  const bearer = { authorization: `Bearer ${token}` };
  // The gateway verifies with the public keys it fetched from auth's JWKS.
  expect(await gateway.tokens.verify(token)).toMatchObject({ role: 'HOST_ADMIN' });
  expect((await call({ method: 'POST', url: '/api/auth/logout', headers: bearer })).statusCode).toBe(204);
  // The auth service refuses it at once (it was told at commit)...
  expect((await call({ method: 'GET', url: '/api/users/profile', headers: bearer })).statusCode).toBe(401);
  // ...and the gateway as soon as user.sessions_ended is delivered.
  await auth.settle();
  expect(await gateway.tokens.verify(token)).toBeNull();
});

test("/api/ai/speech-models goes to transcription while the rest of /api/ai stays prompt's", async () => {
  // Two stand-ins answering with their name, on the contracts' own prefixes of the two services.
  const transcription = await startUpstream(pathEcho('transcription'));
  const prompt = await startUpstream(pathEcho('prompt'));
  const config = loadConfig(distributedConfigSchema, {
    ...env,
    AUTH_SERVICE_URL: auth.url,
    TRANSCRIPTION_SERVICE_URL: transcription.url,
    PROMPT_SERVICE_URL: prompt.url,
  });
  const pair = await createDistributedGateway(config, [pathEcho('prompt'), pathEcho('transcription')], {
    logger: createLogger('silent'),
    readyTimeoutMs: 1000,
  });
  try {
    const answeredBy = async (method: InjectOptions['method'], url: string) => ({
      service: (
        (await pair.app.inject({ method, url, headers: { 'x-requested-with': 'XMLHttpRequest' } })).json() as {
          service: string;
        }
      ).service,
    });
    expect(await answeredBy('GET', '/api/ai/speech-models')).toEqual({ service: 'transcription' });
    expect(await answeredBy('POST', '/api/ai/speech-models/base.en/download')).toEqual({ service: 'transcription' });
    expect(await answeredBy('PUT', '/api/ai/speech-models/base.en/default')).toEqual({ service: 'transcription' });
    expect(await answeredBy('DELETE', '/api/ai/speech-models/base.en')).toEqual({ service: 'transcription' });
    expect(await answeredBy('GET', '/api/ai/config/provider')).toEqual({ service: 'prompt' });
    expect(await answeredBy('GET', '/api/ai/speech-models-elsewhere')).toEqual({ service: 'prompt' });
    expect(await answeredBy('GET', '/api/ai')).toEqual({ service: 'prompt' });
  } finally {
    await pair.app.close();
    await transcription.close();
    await prompt.close();
  }
});

/** A distributed gateway in front of the tenant and one service with sub-paths of /companies. */
async function besideTenant(
  name: 'billing' | 'auth',
  check: (
    answeredBy: (method: InjectOptions['method'], url: string) => Promise<{ service: string; url: string }>,
  ) => Promise<void>,
) {
  const tenant = await startUpstream(pathEcho('tenant'));
  const other = await startUpstream(pathEcho(name));
  const config = loadConfig(distributedConfigSchema, {
    ...env,
    AUTH_SERVICE_URL: name === 'auth' ? other.url : auth.url,
    TENANT_SERVICE_URL: tenant.url,
    [serviceUrlKey(name)]: other.url,
  });
  const pair = await createDistributedGateway(config, [pathEcho('tenant'), pathEcho(name)], {
    logger: createLogger('silent'),
    readyTimeoutMs: 1000,
  });
  try {
    await check(
      async (method, url) =>
        (await pair.app.inject({ method, url, headers: { 'x-requested-with': 'XMLHttpRequest' } })).json() as {
          service: string;
          url: string;
        },
    );
  } finally {
    await pair.app.close();
    await tenant.close();
    await other.close();
  }
}

test("a company's credits, usage and statements go to billing while the rest of /api/companies stays the tenant's", async () => {
  await besideTenant('billing', async (answeredBy) => {
    const id = crypto.randomUUID();
    for (const [method, path] of [
      ['GET', `/api/companies/${id}/credits?page=2`],
      ['POST', `/api/companies/${id}/credits`],
      ['PUT', `/api/companies/${id}/credits/settings`],
      ['GET', `/api/companies/${id}/usage?from=2026-01-01`],
      ['GET', `/api/companies/${id}/usage.csv`],
      ['GET', `/api/companies/${id}/statement?month=2026-01`],
      ['GET', `/api/companies/${id}/statement.pdf`],
      ['GET', '/api/pricing/history'],
      ['GET', '/api/credits/me/usage'],
    ] as const) {
      // The path reaches billing as the client sent it, the company's id in its place.
      expect(await answeredBy(method, path)).toEqual({ service: 'billing', url: path });
    }
    for (const path of [
      '/api/companies',
      `/api/companies/${id}`,
      `/api/companies/${id}/config`,
      `/api/companies/${id}/features`,
      `/api/companies/${id}/credits-elsewhere`,
      '/api/companies/dropdown',
    ]) {
      expect(await answeredBy('GET', path)).toEqual({ service: 'tenant', url: path });
    }
  });
});

test("a company's single sign-on, SCIM tokens and the SCIM API go to auth while the rest of /api/companies stays the tenant's", async () => {
  await besideTenant('auth', async (answeredBy) => {
    const id = crypto.randomUUID();
    for (const [method, path] of [
      ['GET', `/api/companies/${id}/scim-tokens`],
      ['POST', `/api/companies/${id}/scim-tokens`],
      ['DELETE', `/api/companies/${id}/scim-tokens/${crypto.randomUUID()}`],
      ['GET', '/api/scim/v2/Users?filter=userName%20eq%20%22a%40b.test%22'],
      ['PATCH', `/api/scim/v2/Users/${id}`],
      ['PUT', '/api/scim/v2/Groups/ADMIN'],
      ['GET', '/api/scim/v2/ServiceProviderConfig'],
      ['GET', `/api/companies/${id}/sso`],
      ['PUT', `/api/companies/${id}/sso`],
      ['DELETE', `/api/companies/${id}/sso`],
      ['GET', `/api/companies/${id}/sso/sign-ins`],
    ] as const) {
      expect(await answeredBy(method, path)).toEqual({ service: 'auth', url: path });
    }
    for (const path of [
      `/api/companies/${id}`,
      `/api/companies/${id}/scim-tokens-elsewhere`,
      `/api/companies/${id}/ssox`,
      '/api/companies',
    ]) {
      expect(await answeredBy('GET', path)).toEqual({ service: 'tenant', url: path });
    }
  });
});
