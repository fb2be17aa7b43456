import { metricOnce, prometheus } from '@earshot/kit';

const calls = metricOnce(
  'earshot_ai_provider_calls_total',
  () =>
    new prometheus.Counter({
      name: 'earshot_ai_provider_calls_total',
      help: 'Requests to AI providers, by provider (its host) and purpose',
      labelNames: ['provider', 'purpose'],
    }),
);
const errors = metricOnce(
  'earshot_ai_provider_errors_total',
  () =>
    new prometheus.Counter({
      name: 'earshot_ai_provider_errors_total',
      help: 'Requests to AI providers that failed (no answer, or an error status), by provider and purpose',
      labelNames: ['provider', 'purpose'],
    }),
);

/**
 * What a request to an OpenAI-compatible API is for, from its path: every provider call goes
 * through one client, so the path is the one place that knows it without each caller saying so.
 */
export function purposeOf(path: string): string {
  if (/\/completions$/.test(path)) return 'chat';
  if (/\/embeddings$/.test(path)) return 'embeddings';
  if (/\/audio\/(transcriptions|translations)$/.test(path)) return 'speech-to-text';
  if (/\/models(\/[^/]*)?$/.test(path)) return 'models';
  return 'other';
}

/** The provider's label: its host, never the whole base URL (which may carry credentials). */
export function providerLabel(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'invalid';
  }
}

/** `fetch`, counting each call and each failure for /metrics. */
export function countedFetch(inner: typeof fetch, provider: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const labels = { provider, purpose: purposeOf(url.pathname) };
    calls.inc(labels);
    try {
      const response = await inner(input, init);
      if (response.status >= 400) errors.inc(labels);
      return response;
    } catch (error) {
      errors.inc(labels);
      throw error;
    }
  };
}
