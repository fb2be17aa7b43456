import type * as OpenAISdk from 'openai';
import type OpenAI from 'openai';
import { SpanKind, withSpan } from '@earshot/kit';
import { BlockedUrlError, guardedFetch, type OutboundPolicy } from './outbound';
import { countedFetch, providerLabel } from './metrics';

export interface ProviderEndpoint {
  baseUrl: string;
  /** The plain key (opened from its sealed form just before the call); null for keyless local servers. */
  apiKey: string | null;
}

/** The outbound policy a service's AI settings ask for. */
export function outboundPolicy(config: {
  AI_ALLOW_PRIVATE_URLS: boolean;
  AI_TRUSTED_HOSTS?: readonly string[];
}): OutboundPolicy {
  return { allowPrivate: config.AI_ALLOW_PRIVATE_URLS, trustedHosts: config.AI_TRUSTED_HOSTS ?? [] };
}

let sdk: typeof OpenAISdk | null = null;

/**
 * The openai SDK, loaded at the first provider call: about 0.15 s of CPU that a process or test file
 * calling no provider never pays. Every use in Earshot loads it here, so there is one copy of its
 * error classes.
 */
export async function loadOpenAI(): Promise<typeof OpenAISdk> {
  sdk ??= await import('openai');
  return sdk;
}

/** The openai SDK once loaded, else null: until then no error can be one of its classes. */
export function loadedOpenAI(): typeof OpenAISdk | null {
  return sdk;
}

const CLIENTS_KEPT = 32;
const clients = new Map<string, OpenAI>();

/**
 * An OpenAI SDK client for one configured provider, whose every request (redirects included) goes
 * through the outbound address checks. Retries are left to the caller. Clients are kept per
 * endpoint and settings (least recently used dropped first): each has its own connection pool, so
 * chat replies, transcription jobs and connection tests reuse open connections instead of paying
 * a new handshake and leaving a pool behind on every call. A changed URL or key makes a new one.
 */
export async function providerClient(
  endpoint: ProviderEndpoint,
  policy: OutboundPolicy,
  timeoutMs: number,
): Promise<OpenAI> {
  const { OpenAI } = await loadOpenAI();
  const key = JSON.stringify([
    endpoint.baseUrl,
    endpoint.apiKey,
    policy.allowPrivate,
    policy.trustedHosts ?? [],
    timeoutMs,
  ]);
  let client = clients.get(key);
  if (client) {
    clients.delete(key);
  } else {
    client = new OpenAI({
      baseURL: endpoint.baseUrl,
      // Keyless servers (Ollama, LM Studio) ignore the header; the SDK insists on some value.
      apiKey: endpoint.apiKey ?? 'not-needed',
      maxRetries: 0,
      timeout: timeoutMs,
      fetch: tracedFetch(countedFetch(guardedFetch(policy), providerLabel(endpoint.baseUrl))),
    });
    if (clients.size >= CLIENTS_KEPT) clients.delete(clients.keys().next().value!);
  }
  clients.set(key, client);
  return client;
}

/**
 * Each provider call as a span (the trace of the chat reply, prompt run or transcription job that
 * made it), from the request to the answer's headers: a streamed answer's body comes after.
 */
function tracedFetch(inner: typeof fetch): typeof fetch {
  const traced = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    return withSpan(
      `ai provider ${method} ${url.pathname.split('/').pop()}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'earshot.ai.provider': url.host,
          'http.request.method': method,
          'server.address': url.hostname,
          'url.path': url.pathname,
        },
      },
      async (span) => {
        const response = await inner(input, init);
        span.setAttribute('http.response.status_code', response.status);
        return response;
      },
    );
  };
  return traced as typeof fetch;
}

/**
 * A provider failure in words a person can act on, with the provider's own message where it gave
 * one. Never includes the key or request headers.
 */
export function describeProviderError(error: unknown): string {
  if (error instanceof BlockedUrlError) return error.message;
  const { APIConnectionError, APIError, APIUserAbortError } = loadedOpenAI() ?? {};
  if (APIUserAbortError && error instanceof APIUserAbortError) return 'The request was stopped';
  if (APIConnectionError && error instanceof APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof BlockedUrlError) return cause.message;
    return `The provider could not be reached (${error.message})`;
  }
  if (APIError && error instanceof APIError) {
    const said = (error.message || '').replace(/\s+/g, ' ').slice(0, 300);
    if (error.status === 401 || error.status === 403)
      return `The provider refused the API key (${error.status}: ${said})`;
    if (error.status === 404) return `The provider does not know this model or endpoint (404: ${said})`;
    if (error.status === 429) return `The provider is rate limiting requests (429: ${said})`;
    return `The provider answered with an error (${error.status ?? 'no status'}: ${said})`;
  }
  return `The provider call failed (${(error as Error)?.message ?? String(error)})`;
}
