import { randomUUID } from 'node:crypto';
import { SYSTEM_ACTOR, topicOf, type PriceDto } from '@earshot/contracts';
import { buildEnvelope, type NewEvent } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { billingService } from '../src';

/**
 * A model's starting prices come on its ai_model.created (the local-AI models the prompt service
 * registers, at 0): the tenant service sets them, and never over a price the platform
 * administrator already set.
 */
let stack: TestStack;
let host: string;
beforeAll(async () => {
  stack = await createTestStack([billingService]);
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => stack.close());

const created = (id: string, prices?: { unit: 'input_1k' | 'output_1k' | 'audio_minute'; credits: number }[]) => {
  const after = {
    providerId: randomUUID(),
    name: `model-${id.slice(0, 8)}`,
    label: 'Local',
    purpose: 'chat',
    isDefault: true,
    contextSize: null,
    enabled: true,
  };
  return buildEnvelope({
    type: 'ai_model.created',
    companyId: null,
    actor: SYSTEM_ACTOR,
    data: { id, before: null, after, ...(prices ? { prices } : {}) },
  } as NewEvent);
};
async function deliver(...envelopes: ReturnType<typeof created>[]) {
  await stack.bus.publish(envelopes.map((envelope) => ({ topic: topicOf('ai_model.created'), key: '', envelope })));
  await stack.settle();
}
const history = async (modelId: string) =>
  ((await stack.as(host, { method: 'GET', url: `/api/pricing/history?modelId=${modelId}` })).json() as PriceDto[])
    .map((p) => [p.unit, p.credits])
    .sort();

test('the prices on ai_model.created are set from the event, each with price.set', async () => {
  const id = randomUUID();
  const seen: string[] = [];
  await stack.bus.subscribe({
    group: 'starting-prices-observer',
    topics: ['earshot.tenant'],
    handle: async (e) => {
      const data = e.data as { modelId?: string; unit?: string };
      if (e.type === 'price.set' && data.modelId === id) seen.push(data.unit!);
    },
  });
  await deliver(
    created(id, [
      { unit: 'input_1k', credits: 0 },
      { unit: 'output_1k', credits: 0 },
    ]),
  );
  expect(await history(id)).toEqual([
    ['input_1k', 0],
    ['output_1k', 0],
  ]);
  expect(seen.sort()).toEqual(['input_1k', 'output_1k']);
});

test('a model without starting prices gets none; a model priced already keeps its price', async () => {
  const plain = randomUUID();
  await deliver(created(plain));
  expect(await history(plain)).toEqual([]);

  const priced = randomUUID();
  const set = await stack.as(host, {
    method: 'POST',
    url: '/api/pricing',
    payload: { modelId: priced, unit: 'audio_minute', credits: 2 },
  });
  expect(set.statusCode).toBe(201);
  await deliver(created(priced, [{ unit: 'audio_minute', credits: 0 }]));
  expect(await history(priced)).toEqual([['audio_minute', 2]]);
});
