// The kit's fake OpenAI-compatible provider for browser suites: started before the server, which
// may reach it (it listens on 127.0.0.1, a private address the server refuses by default), and
// connected as a platform administrator would.
import { expect } from '@jest/globals';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import { browserSuite, type ApiClient, type BrowserSuite } from './harness';

/** A browser suite with the fake provider running; `cleanUp` runs after both have stopped. */
export function fakeProviderSuite(cleanUp?: () => Promise<void>): BrowserSuite & { readonly fake: FakeOpenAI } {
  let fake: FakeOpenAI | undefined;
  const suite = browserSuite({
    env: async () => {
      fake = await startFakeOpenAI();
      return { AI_ALLOW_PRIVATE_URLS: 'true' };
    },
    tearDown: async () => {
      await fake?.close();
      await cleanUp?.();
    },
  });
  return {
    get server() {
      return suite.server;
    },
    get browser() {
      return suite.browser;
    },
    open: (size) => suite.open(size),
    get fake() {
      if (!fake) throw new Error('The fake provider has not started');
      return fake;
    },
  };
}

/** Connects the fake provider and makes its 'fake-model' the default chat model, through the API. */
export async function connectFakeChatModel(
  hostAdmin: ApiClient,
  fake: FakeOpenAI,
  names: { provider: string; label?: string },
): Promise<{ providerId: string; modelId: string }> {
  const provider = await hostAdmin('/ai/config/provider', {
    json: { name: names.provider, baseUrl: fake.url, apiKey: 'sk-fixture-1234' },
  });
  expect(provider.status).toBe(201);
  const { _id: providerId } = (await provider.json()) as { _id: string };
  const model = await hostAdmin('/ai/config/model', {
    json: {
      providerId,
      name: 'fake-model',
      ...(names.label ? { label: names.label } : {}),
      purpose: 'chat',
      isDefault: true,
    },
  });
  expect(model.status).toBe(201);
  return { providerId, modelId: ((await model.json()) as { _id: string })._id };
}
