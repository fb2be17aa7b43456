import { withSpan } from '@earshot/kit';
import { traceToReceiver, type OtlpReceiver } from '@earshot/kit/testing';
import { outboundPolicy, providerClient } from '../src';
import { startFakeOpenAI, type FakeOpenAI } from '../src/testing';

// A provider call is a span of the work that made it, with the HTTP call under it (OTLP/JSON to a
// receiver on loopback, the provider a fake on loopback).
let receiver: OtlpReceiver;
let provider: FakeOpenAI;
let stopTracing: () => Promise<void>;

beforeAll(async () => {
  provider = await startFakeOpenAI();
  ({ receiver, stop: stopTracing } = await traceToReceiver('ai-spans-test', 'prompt'));
});
afterAll(async () => {
  await stopTracing();
  await provider.close();
});

test('each provider call is a client span in the trace of the work that made it, never with the key', async () => {
  const client = await providerClient(
    { baseUrl: provider.url, apiKey: 'sk-secret-never-in-a-span' },
    outboundPolicy({ AI_ALLOW_PRIVATE_URLS: true }),
    5_000,
  );
  const work = await withSpan('a prompt run', {}, async (span) => {
    await client.models.list();
    return span.spanContext();
  });
  const call = await receiver.until((spans) =>
    spans.find((s) => s.traceId === work.traceId && s.name === 'ai provider GET models'),
  );
  expect(call.parentSpanId).toBe(work.spanId);
  expect(call.kind).toBe(3);
  expect(call.attributes).toMatchObject({
    'earshot.ai.provider': new URL(provider.url).host,
    'http.request.method': 'GET',
    'http.response.status_code': 200,
    'earshot.service': 'prompt',
  });
  expect(JSON.stringify(receiver.spans)).not.toContain('sk-secret-never-in-a-span');
});
