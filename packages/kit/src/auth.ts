import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ROLES, MESSAGES, ERROR_CODES, type Actor, type Role, type RouteAccess } from '@earshot/contracts';
import { forbidden, unauthorized } from './errors';

export const ACCESS_COOKIE = 'earshot_at';
export const REFRESH_COOKIE = 'earshot_rt';
/** Header a browser cannot add to a cross-site request without a CORS preflight we never allow. */
export const CSRF_HEADER = 'x-requested-with';

export interface Identity {
  userId: string;
  companyId: string | null;
  role: Role;
  email: string;
  /** How the caller proved it: cookies need CSRF protection, bearer tokens do not. */
  via: 'cookie' | 'bearer';
  /** The caller's address as the server saw it (behind TRUST_PROXY, the forwarded one): for audit and throttling. */
  ip: string;
}

/** What an access token says about its holder (the request adds how it was presented and from where). */
export type TokenClaims = Omit<Identity, 'via' | 'ip'>;

const ISSUER = 'earshot-auth';
const AUDIENCE = 'earshot-api';

/** Signs and verifies access tokens. Only the auth service signs; every service verifies. */
export class TokenService {
  private readonly key: Uint8Array;
  constructor(secret: string, private readonly ttlSeconds: number) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(identity: TokenClaims): Promise<string> {
    return new SignJWT({ cid: identity.companyId, role: identity.role, email: identity.email })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(identity.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** Null for anything not a valid, unexpired token of ours. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      const role = payload.role as Role;
      if (!payload.sub || !ROLES.includes(role) || typeof payload.email !== 'string') return null;
      return { userId: payload.sub, companyId: (payload.cid as string | null) ?? null, role, email: payload.email };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }

  get ttl() {
    return this.ttlSeconds;
  }
}

export interface RouteRecord {
  method: string;
  url: string;
  access: RouteAccess;
  params: Record<string, string>;
  example?: RouteExample;
  service?: string;
}

export interface RouteExample {
  body?: unknown;
  query?: Record<string, string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: 'public' or the roles allowed. Required on every route. */
    access?: RouteAccess;
    /** For the route × role × company matrix test: what each path parameter names (e.g. { id: 'user' }). */
    params?: Record<string, string>;
    /** A valid request for the matrix test, so that validation passes and access is what gets tested. */
    example?: RouteExample;
    /** Skip the CSRF header check (sign-in: it sets cookies, it does not use them). */
    csrfExempt?: boolean;
    service?: string;
  }
  interface FastifyRequest {
    identity: Identity | null;
  }
  interface FastifyInstance {
    routeRegistry: RouteRecord[];
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

/** A cookie of the request, with or without @fastify/cookie registered. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const cookies = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies;
  if (cookies) return cookies[name];
  // Works without @fastify/cookie too (a service started alone may not register it).
  const raw = request.headers.cookie;
  if (!raw) return undefined;
  for (const part of raw.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Verifies the caller on every request (never trusting identity headers from outside) and enforces
 * each route's declared access before validation: 401 without a session, 403 for the wrong role.
 * A route without `config.access` makes the process refuse to start.
 */
export const authGuard = fp<{ tokens: TokenService; service?: string }>(
  async (app: FastifyInstance, opts) => {
    if (!app.hasDecorator('routeRegistry')) app.decorate('routeRegistry', []);
    if (!app.hasRequestDecorator('identity')) app.decorateRequest('identity', null);

    app.addHook('onRoute', (route: RouteOptions) => {
      const config = (route.config ?? {}) as { access?: RouteAccess; params?: Record<string, string>; example?: RouteExample; csrfExempt?: boolean; service?: string };
      // Only the API needs declarations: static files and probes outside /api are public.
      if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) config.access ??= 'public';
      if (config.access === undefined) {
        throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
      }
      const access = config.access;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        app.routeRegistry.push({ method, url: route.url, access, params: config.params ?? {}, example: config.example, service: config.service ?? opts.service });
      }
      const check = async (request: FastifyRequest) => {
        const token = bearer(request);
        const cookie = token ? undefined : readCookie(request, ACCESS_COOKIE);
        const verified = token ?? cookie ? await opts.tokens.verify((token ?? cookie)!) : null;
        request.identity = verified ? { ...verified, via: token ? 'bearer' : 'cookie', ip: request.ip } : null;

        const usesCookies = !token && (readCookie(request, ACCESS_COOKIE) || readCookie(request, REFRESH_COOKIE));
        if (!SAFE_METHODS.has(request.method) && usesCookies && !config.csrfExempt && !request.headers[CSRF_HEADER]) {
          throw forbidden(MESSAGES.csrf, ERROR_CODES.CSRF);
        }
        if (access === 'public') return;
        if (!request.identity) throw unauthorized();
        if (!access.includes(request.identity.role)) throw forbidden();
      };
      const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [check, ...existing] as RouteOptions['onRequest'];
    });
  },
  { name: 'earshot-auth-guard' },
);

/** The caller of a route that requires a session (the guard has already rejected anonymous calls). */
export function identityOf(request: FastifyRequest): Identity {
  if (!request.identity) throw unauthorized();
  return request.identity;
}

/** A company id no row has: the scope of a company role without a company (never issued). */
export const NO_COMPANY = '00000000-0000-0000-0000-000000000000';

/**
 * The company a caller acts on: their own, or, for a HOST_ADMIN, any company they name (or all,
 * as null). Every lookup filters by this, so another company's objects are simply not found.
 * Only a HOST_ADMIN can get null: anyone else without a company is scoped to NO_COMPANY and sees
 * nothing, rather than everything.
 */
export function companyScope(identity: Identity, requested?: string | null): string | null {
  if (identity.role === 'HOST_ADMIN') return requested ?? null;
  return identity.companyId ?? NO_COMPANY;
}

/** Who did it, as an event's envelope records it: the signed-in caller and their address. */
export function actorOf(identity: TokenClaims & { ip?: string }, ip: string | undefined = identity.ip): Actor {
  return { type: 'user', id: identity.userId, email: identity.email, role: identity.role, ...(ip ? { ip } : {}) };
}
