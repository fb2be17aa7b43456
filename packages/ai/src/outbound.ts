import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AI_CONFIG_MESSAGES } from '@earshot/contracts';
import { Agent, fetch as undiciFetch } from 'undici';
import { z } from 'zod';
import { envBoolean } from '@earshot/kit';

/** Environment keys of every service that calls AI providers. */
export const aiConfigShape = {
  /** Self-hosted providers (Ollama, vLLM, LM Studio) on private or loopback addresses need `true`. */
  AI_ALLOW_PRIVATE_URLS: envBoolean(false),
  /**
   * Host names (comma-separated) the operator vouches for: they may resolve to private addresses
   * while every other host stays held to AI_ALLOW_PRIVATE_URLS. The local-AI profile names its own
   * servers here (`speaches,ollama`), so they work without opening every internal address.
   */
  AI_TRUSTED_HOSTS: z
    .string()
    .max(2000)
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Longest wait for a provider's first answer byte (streams may run longer once they start). */
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
};

export interface OutboundPolicy {
  allowPrivate: boolean;
  /** Names (lower case) allowed to resolve to private addresses even when allowPrivate is false; never to blocked ones. */
  trustedHosts?: readonly string[];
}

export type AddressClass = 'public' | 'private' | 'blocked';

export const OUTBOUND_MESSAGES = {
  blocked: AI_CONFIG_MESSAGES.urlBlocked,
  private: AI_CONFIG_MESSAGES.urlPrivate,
  scheme: 'Only http and https URLs are allowed',
  redirects: 'The provider redirected too many times',
} as const;

export class BlockedUrlError extends Error {
  constructor(
    readonly reason: 'blocked' | 'private' | 'scheme' | 'redirects',
    readonly host: string,
  ) {
    super(OUTBOUND_MESSAGES[reason]);
    this.name = 'BlockedUrlError';
  }
}

// Private networks a self-hosted model may live on: allowed only when the operator says so.
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/**
 * Cloud metadata services that sit inside ranges otherwise only "private" (AWS's IPv6 endpoint in
 * fc00::/7, Alibaba's in 100.64/10): refused even with AI_ALLOW_PRIVATE_URLS. The IPv4 ones in
 * 169.254/16 (AWS, GCP, Azure) and Oracle's 192.0.0.192 are link-local or reserved, so refused anyway.
 */
const METADATA_ADDRESSES = ['fd00:ec2::254', '100.100.100.200'].map((a) => ipaddr.parse(a).toNormalizedString());

const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);

/**
 * The IPv4 address an IPv6 address carries and is routed to: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002:AABB:CCDD::/16) and the
 * deprecated IPv4-compatible form (::a.b.c.d, which URLs write as ::7f00:1 and ipaddr.js calls
 * unicast). Teredo's is obfuscated and stays refused as a tunnel.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  switch (ip.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return v4(p[6]!, p[7]!);
    case '6to4':
      return v4(p[1]!, p[2]!);
    case 'unicast':
      return p.slice(0, 6).every((part) => part === 0) ? v4(p[6]!, p[7]!) : null;
    default:
      return null;
  }
}

/**
 * What an IP address is to an outbound call. IPv4 embedded in IPv6 is judged as the IPv4 address
 * it is; link-local (169.254/16 with the cloud metadata services, fe80::/10), the other metadata
 * addresses, unspecified, multicast, broadcast, reserved and tunnelling forms are never reachable.
 */
export function classifyAddress(address: string): AddressClass {
  if (!ipaddr.isValid(address)) return 'blocked';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') ip = embeddedIPv4(ip as ipaddr.IPv6) ?? ip;
  if (METADATA_ADDRESSES.includes(ip.toNormalizedString())) return 'blocked';
  const range = ip.range();
  if (range === 'unicast') return 'public';
  if (PRIVATE_RANGES.has(range)) return 'private';
  return 'blocked';
}

function judge(address: string, host: string, policy: OutboundPolicy): void {
  const kind = classifyAddress(address);
  if (kind === 'blocked') throw new BlockedUrlError('blocked', host);
  if (kind === 'private' && !policy.allowPrivate && !policy.trustedHosts?.includes(host.toLowerCase()))
    throw new BlockedUrlError('private', host);
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Checks a URL's scheme and, for an IP literal, its address; names are checked when resolved. */
export function checkUrlLiteral(url: URL, policy: OutboundPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrlError('scheme', url.hostname);
  const host = hostOf(url);
  if (isIP(host)) judge(host, host, policy);
}

/** Resolves a URL's host and checks every address it resolves to (for validating saved settings). */
export async function checkUrl(raw: string, policy: OutboundPolicy): Promise<void> {
  const url = new URL(raw);
  checkUrlLiteral(url, policy);
  const host = hostOf(url);
  if (isIP(host)) return;
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => {
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found)));
  });
  for (const { address } of addresses) judge(address, host, policy);
}

/**
 * Node's global FormData (what the OpenAI SDK builds for audio uploads) is not the undici
 * package's, whose fetch would send it as the text "[object FormData]": encode it here. As bytes,
 * the body can also be sent again after a 307/308 redirect.
 */
async function encodeForm(init: RequestInit & { body: FormData }): Promise<RequestInit> {
  const encoded = new Response(init.body);
  const headers = new Headers(init.headers);
  headers.set('content-type', encoded.headers.get('content-type')!);
  return { ...init, headers, body: Buffer.from(await encoded.arrayBuffer()) };
}

/** Headers that carry a provider credential: OpenAI-style bearer, Azure's api-key, and the like. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'cookie'];

function withoutCredentials(headers: RequestInit['headers']): Headers {
  const kept = new Headers(headers);
  for (const name of CREDENTIAL_HEADERS) kept.delete(name);
  return kept;
}

/**
 * A connection pool whose every connection checks the addresses its host resolves to at connect
 * time, so DNS cannot swap in an internal address after a check. Other outbound callers (webhook
 * deliveries) use it with their own policy.
 */
export function guardedAgent(policy: OutboundPolicy, options: Omit<Agent.Options, 'connect'> = {}): Agent {
  return new Agent({
    ...options,
    connect: {
      lookup(
        hostname: string,
        lookupOptions: LookupOptions,
        callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
      ) {
        dnsLookup(hostname, { ...lookupOptions }, (error, address: string | LookupAddress[], family?: number) => {
          if (error) return callback(error, address, family);
          try {
            for (const one of Array.isArray(address) ? address : [{ address, family: family ?? 4 }])
              judge(one.address, hostname, policy);
          } catch (blocked) {
            return callback(blocked as Error, [], undefined);
          }
          callback(null, address, family);
        });
      },
    },
  });
}

/**
 * A fetch for provider calls. Each connection's resolved addresses are checked at connect time (see
 * guardedAgent), IP literals before each request, and redirects are followed by hand so every hop
 * is checked again and a hop to another origin never carries the provider's key.
 */
export function guardedFetch(policy: OutboundPolicy, maxRedirects = 5): typeof fetch {
  const agent = guardedAgent(policy);
  const guarded = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    let request =
      init.body instanceof FormData ? await encodeForm(init as RequestInit & { body: FormData }) : { ...init };
    for (let hop = 0; hop <= maxRedirects; hop += 1) {
      checkUrlLiteral(url, policy);
      let response: Response;
      try {
        response = (await undiciFetch(url, {
          ...(request as object),
          redirect: 'manual',
          dispatcher: agent,
        } as never)) as unknown as Response;
      } catch (error) {
        // A refused address surfaces as fetch's generic TypeError: give the reason back instead.
        const cause = (error as { cause?: unknown }).cause;
        throw cause instanceof BlockedUrlError ? cause : error;
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      await response.body?.cancel();
      const next = new URL(location, url);
      // The provider's key is for the provider's origin alone (as the Fetch standard does with
      // Authorization): a hop elsewhere goes without credentials, and once dropped they stay dropped.
      if (next.origin !== url.origin) request = { ...request, headers: withoutCredentials(request.headers) };
      url = next;
      // 303 (and 301/302 after a POST, as browsers do) become a GET without a body.
      const method = (request.method ?? 'GET').toUpperCase();
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        request = { ...request, method: 'GET', body: undefined };
      }
    }
    throw new BlockedUrlError('redirects', url.hostname);
  };
  return guarded as typeof fetch;
}
