import Fastify, { type InjectOptions } from 'fastify';
import { SERVICE_ROUTES } from '@earshot/contracts';
import type { RouteRecord } from '@earshot/kit';
import { FIXTURES, FRESH_FOR_DELETE, REQUEST_OVERRIDES, type Caller } from './fixtures';
import { ROUTES, allowedBy, routeKey, type Allowed, type Permission } from './permissions';
import { createWorld, type CompanyKey, type World } from './world';

/**
 * Every registered /api route × {anonymous, USER, CALLER, ADMIN, HOST_ADMIN, SERVICE (company A's API
 * key)} × {own company, other
 * company}, judged against the permission table written from the spec (./permissions.ts), never
 * against the route's own `config.access`. Routes join automatically when a service registers them;
 * a route missing from the table, or whose parameters name no known fixture kind, fails here.
 */
const CALLERS: Caller[] = ['anonymous', 'USER', 'CALLER', 'ADMIN', 'HOST_ADMIN', 'SERVICE'];

let world: World;

function routesUnderTest(): RouteRecord[] {
  return world.earshot.app.routeRegistry.filter(
    (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'OPTIONS',
  );
}

function tokenOf(caller: Exclude<Caller, 'SERVICE'>): string | null {
  if (caller === 'anonymous') return null;
  if (caller === 'HOST_ADMIN') return world.host.token;
  return world.users.A[caller].token;
}

async function buildRequest(route: RouteRecord, company: CompanyKey, caller: Caller): Promise<InjectOptions> {
  let url = route.url;
  for (const param of url.match(/:[A-Za-z]+|\*/g) ?? []) {
    const name = param === '*' ? '*' : param.slice(1);
    const kind = route.params[name];
    if (!kind) throw new Error(`${route.method} ${route.url}: config.params does not say what "${name}" is`);
    const factory = (route.method === 'DELETE' && FRESH_FOR_DELETE[kind]) || FIXTURES[kind];
    if (!factory)
      throw new Error(
        `${route.method} ${route.url}: no matrix fixture for kind "${kind}" (add it to gateway/test/fixtures.ts)`,
      );
    url = url.replace(param, encodeURIComponent(await factory(world, company, caller)).replace(/%2F/g, '/'));
  }
  const query = route.example?.query ? `?${new URLSearchParams(route.example.query).toString()}` : '';
  const base: InjectOptions = { method: route.method as InjectOptions['method'], url: url + query };
  if (route.example?.body !== undefined) base.payload = route.example.body as InjectOptions['payload'];
  const override = REQUEST_OVERRIDES[`${route.method} ${route.url}`];
  return override ? { ...base, ...(await override(world, company, caller)) } : base;
}

type Target = 'own' | 'other';

/**
 * What the table says an answer must be. Public routes need no session and their own answers (a
 * wrong password is 401) are theirs to give; otherwise a caller the table does not allow gets 403
 * whatever the route declares, and an allowed non-platform caller gets 404 for another company's object.
 */
function expectation(allowed: Allowed, scoped: boolean, caller: Caller, target: Target): (status: number) => boolean {
  if (allowed === 'public') return (s) => s < 500;
  if (caller === 'anonymous') return (s) => s === 401;
  if (!allowed.includes(caller)) return (s) => s === 403;
  if (scoped && target === 'other' && caller !== 'HOST_ADMIN') return (s) => s === 404;
  if (scoped && target === 'own') return (s) => s < 500 && ![401, 403, 404].includes(s);
  return (s) => s < 500 && s !== 401 && s !== 403;
}

const describeAccess = (access: Allowed) => (access === 'public' ? 'public' : [...access].sort().join(', '));

/** Routes missing from the table, and routes whose declared access is not what the table allows. */
function tableProblems(
  routes: Pick<RouteRecord, 'method' | 'url' | 'access'>[],
  table: Record<string, Permission> = ROUTES,
): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const permission = table[routeKey(route)];
    if (!permission) {
      problems.push(
        `${routeKey(route)} is not in the permission table (gateway/test/permissions.ts): give it its area from the spec`,
      );
      continue;
    }
    const allowed = allowedBy(permission);
    if (describeAccess(route.access) !== describeAccess(allowed)) {
      const source = permission.exception
        ? `its listed exception in area ${permission.area}`
        : `area ${permission.area}`;
      problems.push(
        `${routeKey(route)} declares ${describeAccess(route.access)} but ${source} allows ${describeAccess(allowed)}`,
      );
    }
  }
  return problems;
}

/** Table entries no service registers: a renamed or removed route must leave the table too. */
function staleEntries(
  routes: Pick<RouteRecord, 'method' | 'url'>[],
  table: Record<string, Permission> = ROUTES,
): string[] {
  const registered = new Set(routes.map(routeKey));
  return Object.keys(table)
    .filter((key) => !registered.has(key))
    .map((key) => `${key} is in the permission table but no service registers it`);
}

describe('the matrix takes its expectations from the permission table, not from the routes', () => {
  // A route that a careless change declared for every role, in an area the spec gives HOST_ADMIN only.
  const misdeclared = {
    method: 'GET',
    url: '/api/companies/:id/secrets',
    access: ['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER'] as const,
    params: { id: 'company' },
  };
  const table: Record<string, Permission> = { ...ROUTES, [routeKey(misdeclared)]: { area: 'companies' } };

  test('a route declared for roles its area does not allow is reported', () => {
    expect(tableProblems([misdeclared], table)).toEqual([
      'GET /api/companies/:id/secrets declares ADMIN, CALLER, HOST_ADMIN, USER but area companies allows HOST_ADMIN',
    ]);
  });

  test('a USER let in by such a declaration fails the walk: the table expects 403', () => {
    const allowed = allowedBy(table[routeKey(misdeclared)]!);
    // The route does what it declares: a USER reads their own company's secrets.
    expect(expectation(allowed, true, 'USER', 'own')(200)).toBe(false);
    expect(expectation(allowed, true, 'USER', 'own')(403)).toBe(true);
    expect(expectation(allowed, true, 'HOST_ADMIN', 'own')(200)).toBe(true);
  });

  test('a route missing from the table is reported by name, and so is an entry without a route', () => {
    expect(tableProblems([misdeclared])).toEqual([
      'GET /api/companies/:id/secrets is not in the permission table (gateway/test/permissions.ts): give it its area from the spec',
    ]);
    expect(staleEntries([], { [routeKey(misdeclared)]: { area: 'companies' } })).toEqual([
      'GET /api/companies/:id/secrets is in the permission table but no service registers it',
    ]);
  });
});

describe('every route × role × company', () => {
  beforeAll(async () => {
    world = await createWorld();
  }, 120_000);
  afterAll(async () => world?.close());

  test('every registered route is in the permission table and declares what it allows', () => {
    const routes = routesUnderTest();
    expect([...tableProblems(routes), ...staleEntries(routes)]).toEqual([]);
  });

  test("the distributed gateway's table sends every route to the service that registers it", async () => {
    // The gateway's router, as registerProxies builds it: /api<prefix> and /api<prefix>/* per
    // service, parameterised prefixes (a company's credits under the tenant's /companies) included.
    const router = Fastify();
    for (const { name, prefixes } of SERVICE_ROUTES) {
      for (const prefix of prefixes) {
        for (const url of [`/api${prefix}`, `/api${prefix}/*`]) {
          router.all(url, async () => ({ service: name }));
        }
      }
    }
    const misrouted: string[] = [];
    try {
      // The gateway's own routes (health, readiness) are answered where they are.
      for (const route of routesUnderTest().filter((r) => r.service !== undefined)) {
        const url = route.url.replace(/:[A-Za-z]+/g, 'x1').replace(/\*/g, 'x/y');
        const res = await router.inject({ method: route.method as InjectOptions['method'], url });
        const routed = res.statusCode === 200 ? (res.json() as { service: string }).service : 'nobody';
        if (routed !== route.service)
          misrouted.push(`${routeKey(route)}: ${route.service} registers it, ${routed} gets it`);
      }
    } finally {
      await router.close();
    }
    expect(misrouted).toEqual([]);
  });

  test('every route answers each role and company as the permission table says', async () => {
    const routes = routesUnderTest().filter((route) => ROUTES[routeKey(route)]);
    // The platform foundation's routes at least; services add theirs.
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of routes) {
      const allowed = allowedBy(ROUTES[routeKey(route)]!);
      const scoped = Object.keys(route.params).length > 0;
      for (const caller of CALLERS) {
        for (const target of /[:*]/.test(route.url) ? (['own', 'other'] as const) : (['own'] as const)) {
          const company: CompanyKey = target === 'own' ? 'A' : 'B';
          const request = await buildRequest(route, company, caller);
          // SERVICE: company A's API key (X-API-Key), A's service account.
          const res =
            caller === 'SERVICE'
              ? await world.requestWithKey(world.companies.A.apiKey, request)
              : await world.request(tokenOf(caller), request);
          if (!expectation(allowed, scoped, caller, target)(res.statusCode)) {
            failures.push(`${routeKey(route)} as ${caller} on ${target}: ${res.statusCode} ${res.body.slice(0, 160)}`);
          }
          // Another company's data never appears in an answer to a non-platform caller.
          if (
            target === 'other' &&
            allowed !== 'public' &&
            caller !== 'HOST_ADMIN' &&
            caller !== 'anonymous' &&
            res.statusCode < 300
          ) {
            failures.push(`${routeKey(route)} as ${caller} leaked another company's object`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Six callers since company API keys arrived (SERVICE): one more request per route and target.
  }, 720_000);
});
