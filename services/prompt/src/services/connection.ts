import type { ConnectionTestResult, ModelPurpose } from '@earshot/contracts';
import { describeProviderError, outboundPolicy, providerClient, type ProviderEndpoint, type ServiceContext } from '@earshot/kit';
import type { PromptConfig } from '../config';

/** A person is waiting on the button: no longer than this, whatever AI_TIMEOUT_MS allows calls. */
const TEST_TIMEOUT_MS = 30_000;
/** Models shown in the answer; the search for one model looks further. */
const SHOWN_MODELS = 50;
const SEARCHED_MODELS = 5000;

/** What to ask a provider to prove a model works. */
export interface ModelProbe {
  model: string;
  purpose: ModelPurpose;
}

/**
 * "Test connection": asks the provider for real and reports what it said. Provider failures are
 * answers (ok: false with the provider's words), not errors of this API.
 */
export function connectionTester(ctx: ServiceContext<PromptConfig>) {
  const policy = outboundPolicy(ctx.config);
  const timeout = Math.min(ctx.config.AI_TIMEOUT_MS, TEST_TIMEOUT_MS);

  async function measured(endpoint: ProviderEndpoint, call: (client: ReturnType<typeof providerClient>) => Promise<Omit<ConnectionTestResult, 'latencyMs'>>): Promise<ConnectionTestResult> {
    const started = performance.now();
    let result: Omit<ConnectionTestResult, 'latencyMs'>;
    try {
      result = await call(providerClient(endpoint, policy, timeout));
    } catch (error) {
      result = { ok: false, message: describeProviderError(error) };
    }
    return { ...result, latencyMs: Math.round(performance.now() - started) };
  }

  async function listed(client: ReturnType<typeof providerClient>): Promise<string[]> {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      ids.push(model.id);
      if (ids.length >= SEARCHED_MODELS) break;
    }
    return ids;
  }

  return {
    provider: (endpoint: ProviderEndpoint) => measured(endpoint, async (client) => {
      const models = await listed(client);
      return { ok: true, message: `Connected: the provider lists ${models.length} model${models.length === 1 ? '' : 's'}`, models: models.slice(0, SHOWN_MODELS) };
    }),

    /**
     * Chat models answer a one-token completion and embedding models embed a word: the real call,
     * at the smallest cost. Speech-to-text would need audio, so the provider must list the model.
     */
    model: (endpoint: ProviderEndpoint, probe: ModelProbe) => measured(endpoint, async (client) => {
      if (probe.purpose === 'chat') {
        await client.chat.completions.create({ model: probe.model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 });
        return { ok: true, message: `The model ${probe.model} answered` };
      }
      if (probe.purpose === 'embeddings') {
        await client.embeddings.create({ model: probe.model, input: 'ping' });
        return { ok: true, message: `The model ${probe.model} answered` };
      }
      const models = await listed(client);
      return models.includes(probe.model)
        ? { ok: true, message: `Connected: the provider lists ${probe.model}`, models: models.slice(0, SHOWN_MODELS) }
        : { ok: false, message: `The provider answered, but its model list does not include ${probe.model}`, models: models.slice(0, SHOWN_MODELS) };
    }),
  };
}

export type ConnectionTester = ReturnType<typeof connectionTester>;
