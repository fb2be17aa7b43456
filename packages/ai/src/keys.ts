import { z } from 'zod';
import {
  ConfigError,
  INTERNAL_TOKEN_HEADER,
  internalTokenMatches,
  internalTokenConfig,
  type Database,
} from '@earshot/kit';

export { INTERNAL_TOKEN_HEADER, internalTokenMatches };

/**
 * Provider keys stay with the prompt service: events only say that a provider changed (external
 * consumers read the topics). A service that calls a provider asks the prompt service for the key
 * when it needs it: in-process in all-in-one, over the internal route in distributed mode.
 */
export interface ProviderKeySource {
  /** The provider's plain key; null when it has none. Throws when the provider is unknown. */
  key(providerId: string): Promise<string | null>;
}

/** Environment keys of the services that ask the prompt service for keys, and of the prompt service. */
export const providerKeysConfigShape = {
  /** Where the prompt service listens (distributed mode), for its internal key route. */
  PROMPT_SERVICE_URL: z.string().url().optional(),
  /** The credential services present to each other's internal routes; required in distributed mode. */
  INTERNAL_API_TOKEN: internalTokenConfig,
};

export interface ProviderKeysConfig {
  PROMPT_SERVICE_URL?: string;
  INTERNAL_API_TOKEN?: string;
}

/** The internal route's path (on the prompt service's own port, never behind the gateway). */
export const PROVIDER_KEY_PATH = '/internal/ai/providers/:id/key';
export const ProviderKeyAnswer = z.object({ apiKey: z.string().nullable() });

export class UnknownProviderError extends Error {
  constructor(readonly providerId: string) {
    super(`The prompt service does not know AI provider ${providerId}`);
    this.name = 'UnknownProviderError';
  }
}

// Services mounted in one process share one database handle: that handle names the process, so a
// consumer finds the prompt service of its own process and never one of another test stack.
const inProcess = new WeakMap<Database, ProviderKeySource>();

/** The prompt service offers its keys to the services of its own process (held as long as the database handle lives). */
export function serveProviderKeysInProcess(database: Database, source: ProviderKeySource): void {
  inProcess.set(database, source);
}

/** Asks the prompt service's internal route; never follows a redirect, so the token stays there. */
export function remoteProviderKeys(baseUrl: string, token: string, timeoutMs = 10_000): ProviderKeySource {
  const origin = baseUrl.replace(/\/+$/, '');
  return {
    async key(providerId) {
      const response = await fetch(`${origin}${PROVIDER_KEY_PATH.replace(':id', encodeURIComponent(providerId))}`, {
        headers: { [INTERNAL_TOKEN_HEADER]: token },
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 404) throw new UnknownProviderError(providerId);
      if (!response.ok)
        throw new Error(`The prompt service refused the key of AI provider ${providerId} (${response.status})`);
      return ProviderKeyAnswer.parse(await response.json()).apiKey;
    },
  };
}

/**
 * The key source of a service's process: the prompt service in the same process when there is
 * one, else its internal route. Throws ConfigError (at start, see the callers) when neither.
 */
export function providerKeysFor(database: Database, config: ProviderKeysConfig): ProviderKeySource {
  const local = inProcess.get(database);
  if (local) return local;
  const missing = [
    config.PROMPT_SERVICE_URL ? null : 'PROMPT_SERVICE_URL: required when the prompt service runs in another process',
    config.INTERNAL_API_TOKEN ? null : 'INTERNAL_API_TOKEN: required when the prompt service runs in another process',
  ].filter((problem): problem is string => problem !== null);
  if (missing.length) throw new ConfigError(missing);
  return remoteProviderKeys(config.PROMPT_SERVICE_URL!, config.INTERNAL_API_TOKEN!);
}

const CACHE_MS = 60_000;
const CACHE_KEPT = 256;

/**
 * Keeps fetched keys for a minute per provider *version* (the catalogue's `updatedAt`, set by the
 * last provider event applied): a provider-changed event gives the provider a new version, so a
 * replaced or removed key is never used again, on every replica that shares the catalogue.
 */
export class CachedProviderKeys {
  private readonly kept = new Map<string, { key: string | null; until: number }>();

  constructor(
    private readonly source: () => ProviderKeySource,
    private readonly now: () => number = Date.now,
  ) {}

  async key(providerId: string, version: Date): Promise<string | null> {
    const id = `${providerId}@${version.getTime()}`;
    const hit = this.kept.get(id);
    if (hit && hit.until > this.now()) return hit.key;
    this.kept.delete(id);
    const key = await this.source().key(providerId);
    if (this.kept.size >= CACHE_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(id, { key, until: this.now() + CACHE_MS });
    return key;
  }
}
