import type { ConnectionTestResult, ModelPurpose } from '@earshot/contracts';
import type OpenAI from 'openai';
import {
  describeProviderError,
  outboundPolicy,
  providerClient,
  type OutboundPolicy,
  type ProviderEndpoint,
} from '@earshot/ai';
import { HttpError } from '@earshot/kit';
import { ERROR_CODES, type ProviderModelList } from '@earshot/contracts';
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

async function listed(client: OpenAI): Promise<string[]> {
  const ids: string[] = [];
  for await (const model of client.models.list()) {
    ids.push(model.id);
    if (ids.length >= SEARCHED_MODELS) break;
  }
  return ids;
}

/**
 * "Test connection": asks the provider for real and reports what it said. Provider failures are
 * answers (ok: false with the provider's words), not errors of this API.
 */
export class ConnectionTester {
  private readonly policy: OutboundPolicy;
  private readonly timeout: number;

  constructor(config: Pick<PromptConfig, 'AI_ALLOW_PRIVATE_URLS' | 'AI_TIMEOUT_MS'>) {
    this.policy = outboundPolicy(config);
    this.timeout = Math.min(config.AI_TIMEOUT_MS, TEST_TIMEOUT_MS);
  }

  private async measured(
    endpoint: ProviderEndpoint,
    call: (client: OpenAI) => Promise<Omit<ConnectionTestResult, 'latencyMs'>>,
  ): Promise<ConnectionTestResult> {
    const started = performance.now();
    let result: Omit<ConnectionTestResult, 'latencyMs'>;
    try {
      result = await call(await providerClient(endpoint, this.policy, this.timeout));
    } catch (error) {
      result = { ok: false, message: describeProviderError(error) };
    }
    return { ...result, latencyMs: Math.round(performance.now() - started) };
  }

  provider(endpoint: ProviderEndpoint): Promise<ConnectionTestResult> {
    return this.measured(endpoint, async (client) => {
      const models = await listed(client);
      return {
        ok: true,
        message: `Connected: the provider lists ${models.length} model${models.length === 1 ? '' : 's'}`,
        models: models.slice(0, SHOWN_MODELS),
      };
    });
  }

  /**
   * The models a provider lists, sorted, for picking one instead of typing its name. A provider
   * failure is a 424 (Failed Dependency: the provider failed, not this API; the route matrix keeps 5xx for our own faults) with the provider's words: the form shows it and typing stays possible.
   */
  async models(endpoint: ProviderEndpoint): Promise<ProviderModelList> {
    try {
      const ids = await listed(await providerClient(endpoint, this.policy, this.timeout));
      return [...new Set(ids)].sort((a, b) => a.localeCompare(b)).map((id) => ({ id }));
    } catch (error) {
      throw new HttpError(424, describeProviderError(error), ERROR_CODES.PROVIDER_ERROR);
    }
  }

  /**
   * Chat models answer a one-token completion and embedding models embed a word: the real call,
   * at the smallest cost. Speech-to-text would need audio, so the provider must list the model.
   */
  model(endpoint: ProviderEndpoint, probe: ModelProbe): Promise<ConnectionTestResult> {
    return this.measured(endpoint, async (client) => {
      if (probe.purpose === 'chat') {
        await client.chat.completions.create({
          model: probe.model,
          messages: [{ role: 'user', content: 'ping' }],
          max_tokens: 1,
        });
        return { ok: true, message: `The model ${probe.model} answered` };
      }
      if (probe.purpose === 'embeddings') {
        await client.embeddings.create({ model: probe.model, input: 'ping' });
        return { ok: true, message: `The model ${probe.model} answered` };
      }
      const models = await listed(client);
      return models.includes(probe.model)
        ? { ok: true, message: `Connected: the provider lists ${probe.model}`, models: models.slice(0, SHOWN_MODELS) }
        : {
            ok: false,
            message: `The provider answered, but its model list does not include ${probe.model}`,
            models: models.slice(0, SHOWN_MODELS),
          };
    });
  }
}
