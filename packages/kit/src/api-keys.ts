import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { API_KEY_HEADER_NAME, EventVersionError, readEvent, topicOf, type Envelope } from '@earshot/contracts';
import { HttpError, serviceUnavailable, unauthorized } from './errors';
import type { EventBus, Subscription } from './bus/types';
import type { Logger } from 'pino';

/** The header an integration presents its company's API key in. */
export const API_KEY_HEADER = API_KEY_HEADER_NAME.toLowerCase();
/** What a company API key looks like (see the tenant service): anything else is refused unhashed. */
const KEY_SHAPE = /^esk_[A-Za-z0-9_-]{32}$/;

/** How keys are stored and looked up: SHA-256 of a 192-bit random key (no salt needed for that much entropy). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The company a valid key belongs to. */
export interface ApiKeyOwner {
  companyId: string;
}

/** Who answers "whose key has this hash?": the tenant service, which owns the hashes. */
export interface ApiKeySource {
  /** The owner of an active company's current key with this SHA-256, or null. */
  owner(hash: string): Promise<ApiKeyOwner | null>;
}

/**
 * The header a service presents its INTERNAL_API_TOKEN in: not Authorization, which carries
 * people's sessions; and one the gateway strips from outside requests (x-earshot-*) anyway.
 */
export const INTERNAL_TOKEN_HEADER = 'x-earshot-internal-token';

/** True when the presented value is the configured internal token (compared in constant time). */
export function internalTokenMatches(header: string | string[] | undefined, token: string): boolean {
  const presented = Buffer.from(typeof header === 'string' ? header : '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/**
 * The onRequest hook of every /internal route: 401 unless the caller presents the service
 * credential, before parameters or body are read, so a caller without it learns nothing.
 */
export function requireInternalToken(token: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!internalTokenMatches(request.headers[INTERNAL_TOKEN_HEADER], token))
      throw unauthorized('A service credential is required');
  };
}

/** The tenant service's internal route that answers for key hashes (distributed mode). */
export const API_KEY_OWNER_PATH = '/internal/api-keys/owner';
export const ApiKeyOwnerBody = z
  .object({ hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex') })
  .strict();
export const ApiKeyOwnerAnswer = z.object({ companyId: z.string() });

/** Asks the tenant service's internal route; never follows a redirect, so the token stays there. */
export function remoteApiKeys(baseUrl: string, token: string, timeoutMs = 5000): ApiKeySource {
  const url = `${baseUrl.replace(/\/+$/, '')}${API_KEY_OWNER_PATH}`;
  return {
    async owner(hash) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { [INTERNAL_TOKEN_HEADER]: token, 'content-type': 'application/json' },
        body: JSON.stringify({ hash }),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) throw new Error(`The tenant service did not answer for an API key (${response.status})`);
      return ApiKeyOwnerAnswer.parse(await response.json());
    },
  };
}

/** How long a process that asks the tenant service over HTTP trusts a positive answer. */
export const API_KEY_CACHE_MS = 10_000;
const CACHE_KEPT = 1000;

/**
 * Verifies company API keys for a process. In the process of the tenant service (all-in-one, or
 * the tenant's own) it asks the tenant's table directly, every time: a rotated or revoked key is
 * refused at the next request. Elsewhere (distributed mode) it asks the tenant's internal route
 * and keeps a positive answer for API_KEY_CACHE_MS, dropped at once when the company's key is
 * rotated or revoked or the company changes (apiKeyChangeSubscription): the window in which an
 * old key still works is the event's delivery time, at most API_KEY_CACHE_MS if the event is late.
 * Negative answers are never kept (a new key works at once); by hash only, never the key itself.
 */
export class ApiKeyVerifier {
  private source: ApiKeySource | null = null;
  private local = false;
  private readonly kept = new Map<string, { owner: ApiKeyOwner; until: number }>();

  constructor(
    private readonly cacheMs = API_KEY_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The tenant service of this very process answers: no cache. */
  serveLocally(source: ApiKeySource): void {
    this.source = source;
    this.local = true;
    this.kept.clear();
  }

  /** Another process answers (unless this one has the tenant service). */
  useRemote(source: ApiKeySource): void {
    if (!this.local) this.source = source;
  }

  get configured(): boolean {
    return this.source !== null;
  }

  /** The owner of a valid key; null for anything else. Throws 503 when nobody can answer. */
  async verify(key: string): Promise<ApiKeyOwner | null> {
    if (!KEY_SHAPE.test(key)) return null;
    if (!this.source)
      throw serviceUnavailable(
        'Company API keys cannot be verified by this service (TENANT_SERVICE_URL and INTERNAL_API_TOKEN are not set)',
        5,
      );
    const hash = hashApiKey(key);
    const hit = this.kept.get(hash);
    if (hit && hit.until > this.now()) return hit.owner;
    this.kept.delete(hash);
    let owner: ApiKeyOwner | null;
    try {
      owner = await this.source.owner(hash);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      // The tenant service cannot be reached: not the caller's fault, and no reason to call the key invalid.
      throw serviceUnavailable('API keys cannot be verified right now, try again shortly', 5);
    }
    if (owner && !this.local) {
      if (this.kept.size >= CACHE_KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(hash, { owner, until: this.now() + this.cacheMs });
    }
    return owner;
  }

  /** Forgets every kept answer for the company (its key changed, or the company did). */
  forgetCompany(companyId: string): void {
    for (const [hash, entry] of this.kept) if (entry.owner.companyId === companyId) this.kept.delete(hash);
  }
}

/** The events after which a kept answer about a company's key may be wrong. */
const KEY_CHANGES = [
  'company.api_key_rotated',
  'company.api_key_revoked',
  'company.updated',
  'company.deleted',
] as const;

/**
 * How a verifier in another process learns that keys changed: its own consumer group (every
 * replica gets every event), so a kept answer is dropped as soon as the event arrives.
 */
export function apiKeyChangeSubscription(verifier: ApiKeyVerifier, processName: string): Subscription {
  return {
    group: `api-keys-${processName}-${randomUUID()}`,
    topics: [topicOf('company.api_key_rotated')],
    handle: async (envelope: Envelope) => {
      const type = KEY_CHANGES.find((t) => t === envelope.type);
      if (!type) return;
      try {
        verifier.forgetCompany(readEvent(type, envelope).data.id);
      } catch (error) {
        // A version this build cannot read: forget the company anyway, by the envelope's key.
        if (!(error instanceof EventVersionError)) throw error;
        if (envelope.companyId) verifier.forgetCompany(envelope.companyId);
      }
    },
  };
}

const owners = new WeakMap<FastifyRequest, Promise<ApiKeyOwner | null>>();

/**
 * The verified owner of the request's X-API-Key (null without one, or when it is not valid),
 * looked up once per request: the rate limiter and the route guard both ask.
 */
export function apiKeyOwnerOf(request: FastifyRequest, verifier: ApiKeyVerifier): Promise<ApiKeyOwner | null> | null {
  const header = request.headers[API_KEY_HEADER];
  if (header === undefined) return null;
  let pending = owners.get(request);
  if (!pending) {
    pending = typeof header === 'string' ? verifier.verify(header.trim()) : Promise.resolve(null);
    owners.set(request, pending);
  }
  return pending;
}

/**
 * A process without the tenant service (distributed mode) checks keys with it over HTTP and drops
 * kept answers when keys change. Without TENANT_SERVICE_URL and INTERNAL_API_TOKEN it cannot, and
 * says so at start; requests with a key then get a 503 that names the missing settings.
 */
export async function checkApiKeysRemotely(
  verifier: ApiKeyVerifier,
  config: { TENANT_SERVICE_URL?: string; INTERNAL_API_TOKEN?: string },
  bus: EventBus | null,
  processName: string,
  logger: Logger,
): Promise<void> {
  if (config.TENANT_SERVICE_URL && config.INTERNAL_API_TOKEN)
    verifier.useRemote(remoteApiKeys(config.TENANT_SERVICE_URL, config.INTERNAL_API_TOKEN));
  else if (processName !== 'tenant')
    logger.warn(
      'TENANT_SERVICE_URL or INTERNAL_API_TOKEN is not set: requests with a company API key will be refused (503)',
    );
  if (bus) await bus.subscribe(apiKeyChangeSubscription(verifier, processName));
}
