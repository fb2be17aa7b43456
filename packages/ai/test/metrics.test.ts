import { prometheus } from '@earshot/kit';
import { startFakeOpenAI, type FakeOpenAI } from '../src/testing';
import { outboundPolicy, providerClient, providerLabel, purposeOf } from '../src';

// Every call to a provider goes through providerClient's fetch, which counts it (and its failure)
// by provider and purpose for /metrics.

let provider: FakeOpenAI;
beforeAll(async () => {
  provider = await startFakeOpenAI();
});
afterAll(async () => {
  await provider?.close();
});

async function count(name: string, labels: Record<string, string>): Promise<number> {
  const metric = prometheus.register.getSingleMetric(name)!;
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;
}

test('calls and failures are counted by the provider host and what the call was for', async () => {
  const client = await providerClient(
    { baseUrl: provider.url, apiKey: 'sk-test' },
    outboundPolicy({ AI_ALLOW_PRIVATE_URLS: true }),
    5000,
  );
  const host = new URL(provider.url).host;
  const chat = { provider: host, purpose: 'chat' };
  const embeddings = { provider: host, purpose: 'embeddings' };

  await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'hello' }] });
  await client.models.list();
  provider.embeddingsError = { status: 500, message: 'the model is down' };
  await expect(client.embeddings.create({ model: 'fake-embeddings', input: ['hello'] })).rejects.toThrow();

  expect(await count('earshot_ai_provider_calls_total', chat)).toBe(1);
  expect(await count('earshot_ai_provider_errors_total', chat)).toBe(0);
  expect(await count('earshot_ai_provider_calls_total', { provider: host, purpose: 'models' })).toBe(1);
  expect(await count('earshot_ai_provider_calls_total', embeddings)).toBe(1);
  expect(await count('earshot_ai_provider_errors_total', embeddings)).toBe(1);
});

test('the purpose comes from the OpenAI-compatible path; the provider label never carries credentials', () => {
  expect(purposeOf('/v1/chat/completions')).toBe('chat');
  expect(purposeOf('/v1/audio/transcriptions')).toBe('speech-to-text');
  expect(purposeOf('/openai/v1/embeddings')).toBe('embeddings');
  expect(purposeOf('/v1/models/gpt-4o')).toBe('models');
  expect(purposeOf('/v1/files')).toBe('other');
  expect(providerLabel('https://user:secret@llm.example.test:8443/v1')).toBe('llm.example.test:8443');
});
