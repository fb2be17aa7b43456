import { randomUUID } from 'node:crypto';
import {
  SignJWT,
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  errors as joseErrors,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import {
  ROLES,
  SERVICE_ROLE,
  MESSAGES,
  ERROR_CODES,
  EventVersionError,
  readEvent,
  topicOf,
  type Actor,
  type CallerRole,
  type Envelope,
  type Role,
  type RouteAccess,
} from '@earshot/contracts';
import { forbidden, serviceUnavailable, unauthorized } from './errors';
import type { Subscription } from './bus/types';
import type { SigningKeys } from './secrets';
import { ApiKeyVerifier, apiKeyOwnerOf, type ApiKeyOwner } from './api-keys';

export const ACCESS_COOKIE = 'earshot_at';
export const REFRESH_COOKIE = 'earshot_rt';
/** Header a browser cannot add to a cross-site request without a CORS preflight we never allow. */
export const CSRF_HEADER = 'x-requested-with';

export interface Identity {
  userId: string;
  companyId: string | null;
  /** A person's role, or SERVICE for a request made with the company's API key. */
  role: CallerRole;
  email: string;
  /** The session the token belongs to (its refresh family): ending it refuses the token at once. */
  sessionId: string;
  /**
   * How the caller proved it: cookies need CSRF protection, bearer tokens and API keys do not (a
   * browser cannot add either header to a cross-site request without a preflight we never allow).
   */
  via: 'cookie' | 'bearer' | 'api-key';
  /** The caller's address as the server saw it (behind TRUST_PROXY, the forwarded one): for audit and throttling. */
  ip: string;
}

/** What an access token says about its holder (the request adds how it was presented and from where). */
export type TokenClaims = Omit<Identity, 'via' | 'ip' | 'role'> & { role: Role };

const ISSUER = 'earshot-auth';
const AUDIENCE = 'earshot-api';
const ALGORITHM = 'EdDSA';
/** Verified tokens remembered at most (about 0.5 KB each): more than a process's signed-in callers in one token life. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Signs access tokens with the current Ed25519 key (its `kid` in the header). Only the auth
 * service holds one (and the test stack, with a key of its own that only test verifiers trust).
 */
export class TokenSigner {
  constructor(
    private readonly keys: SigningKeys,
    private readonly ttlSeconds: number,
  ) {}

  /** A made-up caller without a session (tests, seeding) gets a fresh session id. */
  async sign(claims: Omit<TokenClaims, 'sessionId'> & { sessionId?: string }): Promise<string> {
    return new SignJWT({
      cid: claims.companyId,
      role: claims.role,
      email: claims.email,
      sid: claims.sessionId ?? randomUUID(),
    })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.keys.current.kid, typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.keys.current.privateKey);
  }

  /** The public keys to publish: the signing one and those retired less than a token's life ago. */
  jwks(): JSONWebKeySet {
    return { keys: this.keys.publicJwks };
  }

  get ttl() {
    return this.ttlSeconds;
  }
}

/** When a denial may be forgotten: a token issued just before the session ended has expired by then. */
export function denialUntil(ttlSeconds: number, endedAt = Date.now()): Date {
  return new Date(endedAt + ttlSeconds * 1000);
}

/**
 * Verifies access tokens with public keys only: those trusted in-process (all-in-one: the auth
 * module trusts its own keys when mounted), else fetched from the auth service's JWKS and cached
 * (refetched for an unknown kid) in distributed mode. Ended sessions are kept in memory until
 * their last token has expired, so the check costs one map lookup and never a database round trip.
 * A token that verified is remembered until it expires: checking its signature again proves
 * nothing new, yet an Ed25519 check through WebCrypto was the largest cost of a signed-in request
 * (docs/performance.md, "Where the time went"). The session check still runs on every request, so revocation is immediate.
 */
export class TokenVerifier {
  private readonly ended = new Map<string, number>();
  private sweepAt = 0;
  private readonly trusted: JWK[] = [];
  private local: JWTVerifyGetKey | null = null;
  private readonly remote: JWTVerifyGetKey | null;
  /** Off only to measure what the session check costs (scripts/bench-revocation.ts). */
  checkSessions = true;
  /** Company API keys (X-API-Key), the other way a request proves who it acts for. */
  readonly apiKeys = new ApiKeyVerifier();
  /** Tokens that verified, by their exact text, with when they expire (ms). Oldest evicted first. */
  private readonly verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();
  private readonly now: () => number;

  constructor(
    private readonly ttlSeconds: number,
    options: { jwksUrl?: string; now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.remote = options.jwksUrl
      ? createRemoteJWKSet(new URL(options.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 })
      : null;
  }

  /** Accepts tokens signed by these public keys (in-process, no fetching). */
  trust(jwks: JSONWebKeySet): this {
    for (const key of jwks.keys) if (!this.trusted.some((k) => k.kid === key.kid)) this.trusted.push(key);
    this.local = createLocalJWKSet({ keys: this.trusted });
    return this;
  }

  private readonly keys: JWTVerifyGetKey = async (header, token) => {
    if (this.local && this.trusted.some((k) => k.kid === header.kid)) return this.local(header, token);
    if (!this.remote) throw new joseErrors.JWKSNoMatchingKey();
    try {
      return await this.remote(header, token);
    } catch (error) {
      if (error instanceof joseErrors.JWKSNoMatchingKey) throw error;
      // The auth service cannot be reached: not the caller's fault, and no reason to sign them out.
      throw serviceUnavailable('Sessions cannot be verified right now, try again shortly', 5);
    }
  };

  /** Null for anything not a valid, unexpired token of ours, or one whose session has ended. */
  async verify(token: string): Promise<TokenClaims | null> {
    const now = this.now();
    const known = this.verified.get(token);
    const claims = known && known.expiresAt > now ? known.claims : await this.check(token, now);
    if (!claims) return null;
    if (this.checkSessions && this.hasEnded(claims.sessionId)) return null;
    return claims;
  }

  /** The signature and the claims, remembered for the token's life when they hold. */
  private async check(token: string, now: number): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.keys, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: [ALGORITHM],
        currentDate: new Date(now),
      });
      const role = payload.role as Role;
      if (
        !payload.sub ||
        !ROLES.includes(role) ||
        typeof payload.email !== 'string' ||
        typeof payload.sid !== 'string' ||
        typeof payload.exp !== 'number'
      )
        return null;
      const claims: TokenClaims = Object.freeze({
        userId: payload.sub,
        companyId: (payload.cid as string | null) ?? null,
        role,
        email: payload.email,
        sessionId: payload.sid,
      });
      if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { claims, expiresAt: payload.exp * 1000 });
      return claims;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }

  /** Refuses every token of these sessions from now on, until `until` (when the last of them expires). */
  endSessions(sessionIds: readonly string[], until: Date | string): void {
    const end = new Date(until).getTime();
    const now = this.now();
    if (!(end > now)) return;
    for (const id of sessionIds) this.ended.set(id, Math.max(end, this.ended.get(id) ?? 0));
    if (now >= this.sweepAt) this.sweep(now);
  }

  hasEnded(sessionId: string): boolean {
    const until = this.ended.get(sessionId);
    return until !== undefined && until > this.now();
  }

  /** Forgets denials whose tokens have all expired (at most once a minute). */
  private sweep(now: number) {
    this.sweepAt = now + 60_000;
    for (const [id, until] of this.ended) if (until <= now) this.ended.delete(id);
  }

  get ttl() {
    return this.ttlSeconds;
  }
}

/** The event auth publishes when sessions end (see contracts/events/auth.ts). */
export const SESSIONS_ENDED = 'user.sessions_ended';
export const AUTH_TOPIC = topicOf(SESSIONS_ENDED);

/**
 * How a verifier in another process learns of ended sessions: its own consumer group (so every
 * replica gets every event), reading auth's topic from the beginning, so a process that starts
 * after a revocation still learns of it (denials already past their `until` are ignored).
 */
export function sessionEndSubscription(verifier: TokenVerifier, processName: string): Subscription {
  return {
    group: `sessions-${processName}-${randomUUID()}`,
    topics: [AUTH_TOPIC],
    handle: async (envelope: Envelope) => {
      if (envelope.type !== SESSIONS_ENDED) return;
      try {
        const { data } = readEvent(SESSIONS_ENDED, envelope);
        verifier.endSessions(data.sessionIds, data.until);
      } catch (error) {
        // A version this build cannot read: retrying would never succeed, and auth refuses the token itself.
        if (!(error instanceof EventVersionError)) throw error;
      }
    },
  };
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

/** A cookie of the request (the guard registers @fastify/cookie, which parses them). */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  return request.cookies[name];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthGuardOptions {
  tokens: TokenVerifier;
  service?: string;
  /**
   * Runs on every request once its caller is known (request.identity, null for none) and before
   * any refusal: the gateway's rate limits, so a bad token's 401 is counted like any other request.
   */
  limit?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

/**
 * Verifies the caller on every request (never trusting identity headers from outside) and enforces
 * each route's declared access before validation: 401 without a session, 403 for the wrong role.
 * A route without `config.access` makes the process refuse to start.
 */
export const authGuard = fp<AuthGuardOptions>(
  async (app: FastifyInstance, opts) => {
    if (!app.hasDecorator('routeRegistry')) app.decorate('routeRegistry', []);
    if (!app.hasRequestDecorator('identity')) app.decorateRequest('identity', null);
    if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);

    app.addHook('onRoute', (route: RouteOptions) => {
      const config = (route.config ?? {}) as {
        access?: RouteAccess;
        params?: Record<string, string>;
        example?: RouteExample;
        csrfExempt?: boolean;
        service?: string;
      };
      // Only the API needs declarations: static files and probes outside /api are public.
      if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) config.access ??= 'public';
      if (config.access === undefined) {
        throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
      }
      const access = config.access;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        app.routeRegistry.push({
          method,
          url: route.url,
          access,
          params: config.params ?? {},
          example: config.example,
          service: config.service ?? opts.service,
        });
      }
      const check = async (request: FastifyRequest, reply: FastifyReply) => {
        // A request with X-API-Key acts for the key's company and nothing else (its cookies are ignored).
        const keyed = access === 'public' ? null : apiKeyOwnerOf(request, opts.tokens.apiKeys);
        const token = keyed ? undefined : bearer(request);
        if (keyed) {
          const owner = await keyed;
          request.identity = owner ? serviceIdentity(owner, request.ip) : null;
        } else {
          const cookie = token ? undefined : readCookie(request, ACCESS_COOKIE);
          const verified = (token ?? cookie) ? await opts.tokens.verify((token ?? cookie)!) : null;
          request.identity = verified ? { ...verified, via: token ? 'bearer' : 'cookie', ip: request.ip } : null;
        }
        await opts.limit?.(request, reply);

        if (keyed) {
          if (!request.identity) throw unauthorized(MESSAGES.invalidApiKey);
          if (!access.includes(SERVICE_ROLE)) throw forbidden(MESSAGES.notForApiKeys);
          return;
        }
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

/**
 * The caller of a request made with a company's API key: that company's service account. Its id
 * names the company (`api-key:<companyId>`), so events and the audit log show who acted.
 */
export function serviceIdentity(owner: ApiKeyOwner, ip: string): Identity {
  const id = `api-key:${owner.companyId}`;
  return { userId: id, companyId: owner.companyId, role: SERVICE_ROLE, email: '', sessionId: id, via: 'api-key', ip };
}

/** Who did it, as an event's envelope records it: the signed-in caller (or service account) and their address. */
export function actorOf(
  identity: Pick<Identity, 'userId' | 'email' | 'role'> & Partial<Identity>,
  ip: string | undefined = identity.ip,
): Actor {
  return {
    type: identity.role === SERVICE_ROLE ? 'service' : 'user',
    id: identity.userId,
    ...(identity.email ? { email: identity.email } : {}),
    role: identity.role,
    ...(ip ? { ip } : {}),
  };
}
