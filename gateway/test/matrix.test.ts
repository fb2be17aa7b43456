import type { InjectOptions } from 'fastify';
import type { RouteRecord } from '@earshot/kit';
import { FIXTURES, FRESH_FOR_DELETE, REQUEST_OVERRIDES, type Caller } from './fixtures';
import { createWorld, type CompanyKey, type World } from './world';

/**
 * Every registered /api route × {anonymous, USER, CALLER, ADMIN, HOST_ADMIN} × {own company, other
 * company}. Routes join automatically when a service registers them; a route whose parameters name
 * no known fixture kind fails here, so nothing escapes the table.
 */
const CALLERS: Caller[] = ['anonymous', 'USER', 'CALLER', 'ADMIN', 'HOST_ADMIN'];

let world: World;
beforeAll(async () => {
  world = await createWorld();
}, 120_000);
afterAll(async () => world?.close());

function routesUnderTest(): RouteRecord[] {
  return world.earshot.app.routeRegistry.filter(
    (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'OPTIONS',
  );
}

function tokenOf(caller: Caller): string | null {
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
    if (!factory) throw new Error(`${route.method} ${route.url}: no matrix fixture for kind "${kind}" (add it to gateway/test/fixtures.ts)`);
    url = url.replace(param, encodeURIComponent(await factory(world, company, caller)).replace(/%2F/g, '/'));
  }
  const query = route.example?.query ? `?${new URLSearchParams(route.example.query).toString()}` : '';
  const base: InjectOptions = { method: route.method as InjectOptions['method'], url: url + query };
  if (route.example?.body !== undefined) base.payload = route.example.body as InjectOptions['payload'];
  const override = REQUEST_OVERRIDES[`${route.method} ${route.url}`];
  return override ? { ...base, ...(await override(world, company, caller)) } : base;
}

function expectation(route: RouteRecord, caller: Caller, target: 'own' | 'other'): (status: number) => boolean {
  // Public routes need no session; their own answers (a wrong password is 401) are theirs to give.
  if (route.access === 'public') return (s) => s < 500;
  if (caller === 'anonymous') return (s) => s === 401;
  if (!route.access.includes(caller)) return (s) => s === 403;
  const scoped = Object.keys(route.params).length > 0;
  if (scoped && target === 'other' && caller !== 'HOST_ADMIN') return (s) => s === 404;
  if (scoped && target === 'own') return (s) => s < 500 && ![401, 403, 404].includes(s);
  return (s) => s < 500 && s !== 401 && s !== 403;
}

test('every route declares its access and answers each role and company as declared', async () => {
  const routes = routesUnderTest();
  // The platform foundation's routes at least; services add theirs.
  expect(routes.length).toBeGreaterThan(20);
  const failures: string[] = [];
  for (const route of routes) {
    const scoped = /[:*]/.test(route.url);
    for (const caller of CALLERS) {
      for (const target of scoped ? (['own', 'other'] as const) : (['own'] as const)) {
        const company: CompanyKey = target === 'own' ? 'A' : 'B';
        const request = await buildRequest(route, company, caller);
        const res = await world.request(tokenOf(caller), request);
        const ok = expectation(route, caller, target)(res.statusCode);
        if (!ok) failures.push(`${route.method} ${route.url} as ${caller} on ${target}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        // Another company's data never appears in an answer to a non-platform caller.
        if (target === 'other' && route.access !== 'public' && caller !== 'HOST_ADMIN' && caller !== 'anonymous' && res.statusCode < 300) {
          failures.push(`${route.method} ${route.url} as ${caller} leaked another company's object`);
        }
      }
    }
  }
  expect(failures).toEqual([]);
}, 600_000);
