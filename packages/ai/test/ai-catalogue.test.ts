import { randomUUID } from 'node:crypto';
import type { Envelope, ModelState, ProviderState } from '@earshot/contracts';
import { buildEnvelope, defineService, EventConsumer } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import {
  aiCatalogue,
  aiCatalogueMigrations,
  UnknownProviderError,
  type AiCatalogue,
  type ProviderKeySource,
} from '../src';

/** Two services with their own catalogue, mounted on one connection as the all-in-one does. */
const reader = (schema: string) =>
  defineService({
    name: schema,
    schema,
    prefixes: [],
    migrations: aiCatalogueMigrations(),
    async routes() {},
  });

let stack: TestStack;
let catalogue: AiCatalogue;
let other: AiCatalogue;
let handle: (envelope: Envelope) => Promise<void>;
/** The keys the prompt service holds, and how often it was asked (a stand-in for its in-process answer). */
const keys = new Map<string, string | null>();
const asked: string[] = [];
const prompt: ProviderKeySource = {
  async key(providerId) {
    asked.push(providerId);
    if (!keys.has(providerId)) throw new UnknownProviderError(providerId);
    return keys.get(providerId)!;
  },
};

beforeAll(async () => {
  stack = await createTestStack([reader('catalogue_one'), reader('catalogue_two')]);
  const ctx = stack.running.contexts.get('catalogue_one')!;
  catalogue = aiCatalogue(ctx, prompt);
  other = aiCatalogue(stack.running.contexts.get('catalogue_two')!, prompt);
  const consumer = new EventConsumer(ctx, 'catalogue-test', catalogue.handlers(), 1);
  handle = (envelope) => consumer.receive(envelope);
});
afterAll(async () => stack.close());

const actor = { type: 'user' as const, id: randomUUID() };

function event(type: string, data: Record<string, unknown>, occurredAt?: Date): Envelope {
  const envelope = buildEnvelope({ type, companyId: null, actor, data });
  return occurredAt ? { ...envelope, occurredAt: occurredAt.toISOString() } : envelope;
}

function providerState(overrides: Partial<ProviderState> = {}): ProviderState {
  return {
    name: 'Local',
    kind: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:9/v1',
    enabled: true,
    apiKeyLast4: null,
    ...overrides,
  };
}

async function addProvider(apiKey: string | null = null, overrides: Partial<ProviderState> = {}): Promise<string> {
  const id = randomUUID();
  keys.set(id, apiKey);
  await handle(event('ai_provider.created', { id, before: null, after: providerState(overrides) }));
  return id;
}

async function addModel(
  providerId: string,
  overrides: Partial<ModelState> = {},
  at?: Date,
): Promise<{ id: string; state: ModelState }> {
  const id = randomUUID();
  const state: ModelState = {
    providerId,
    name: `model-${id.slice(0, 6)}`,
    label: `Model ${id.slice(0, 6)}`,
    purpose: 'chat',
    isDefault: false,
    contextSize: 8192,
    enabled: true,
    ...overrides,
  };
  await handle(event('ai_model.created', { id, before: null, after: state }, at));
  return { id, state };
}

test('the default of a purpose resolves with its provider endpoint and the key the prompt service gives', async () => {
  const providerId = await addProvider('sk-secret-1234', { baseUrl: 'https://api.example.com/v1' });
  await addModel(providerId, { purpose: 'embeddings' });
  const chosen = await addModel(providerId, {
    purpose: 'embeddings',
    isDefault: true,
    name: 'text-embed',
    label: 'Embed',
    contextSize: null,
  });
  expect(await catalogue.resolve('embeddings')).toEqual({
    modelId: chosen.id,
    providerId,
    model: 'text-embed',
    label: 'Embed',
    contextSize: null,
    endpoint: { baseUrl: 'https://api.example.com/v1', apiKey: 'sk-secret-1234' },
  });
  // The other service's catalogue lives in its own schema and heard nothing.
  expect(await other.resolve('embeddings')).toBeNull();
});

test('without a default the oldest usable model is chosen; with none, nothing', async () => {
  expect(await catalogue.resolve('speech-to-text')).toBeNull();
  const providerId = await addProvider();
  const first = await addModel(providerId, { purpose: 'speech-to-text' });
  await addModel(providerId, { purpose: 'speech-to-text' }, new Date(Date.now() + 60_000));
  const resolved = await catalogue.resolve('speech-to-text');
  expect(resolved?.modelId).toBe(first.id);
  expect(resolved?.endpoint.apiKey).toBeNull();
});

test('by id: the model must exist, be enabled, match the purpose and have an enabled provider', async () => {
  const providerId = await addProvider('k-1');
  const chat = await addModel(providerId);
  const disabled = await addModel(providerId, { enabled: false });
  expect((await catalogue.resolve('chat', chat.id))?.modelId).toBe(chat.id);
  expect(await catalogue.resolve('chat', disabled.id)).toBeNull();
  expect(await catalogue.resolve('embeddings', chat.id)).toBeNull();
  expect(await catalogue.resolve('chat', randomUUID())).toBeNull();
  expect(await catalogue.resolve('chat', 'not-a-uuid')).toBeNull();

  await handle(
    event('ai_provider.updated', { id: providerId, before: providerState(), after: providerState({ enabled: false }) }),
  );
  expect(await catalogue.resolve('chat', chat.id)).toBeNull();
  expect((await catalogue.listModels('chat')).map((m) => m._id)).not.toContain(chat.id);
});

test('listModels gives enabled models of enabled providers, the default first', async () => {
  const providerId = await addProvider();
  const plain = await addModel(providerId, { purpose: 'chat', label: 'Plain' });
  const preferred = await addModel(providerId, { purpose: 'chat', label: 'Preferred', isDefault: true });
  await addModel(providerId, { purpose: 'chat', label: 'Off', enabled: false });
  const listed = await catalogue.listModels('chat');
  expect(listed[0]).toEqual({ _id: preferred.id, name: 'Preferred', isDefault: true });
  expect(listed).toContainEqual({ _id: plain.id, name: 'Plain', isDefault: false });
  expect(listed.map((m) => m.name)).not.toContain('Off');
});

test('a deleted model is gone, and an older update delivered late does not bring it back', async () => {
  const providerId = await addProvider();
  const model = await addModel(providerId, { purpose: 'embeddings', isDefault: true, label: 'Doomed' });
  const before = new Date(Date.now() - 60_000);
  await handle(event('ai_model.deleted', { id: model.id, before: model.state, after: null }));
  expect(await catalogue.resolve('embeddings', model.id)).toBeNull();
  await handle(
    event(
      'ai_model.updated',
      { id: model.id, before: model.state, after: { ...model.state, label: 'Revived' } },
      before,
    ),
  );
  expect(await catalogue.resolve('embeddings', model.id)).toBeNull();
  expect((await catalogue.listModels('embeddings')).map((m) => m.name)).not.toContain('Revived');
});

test('a redelivered event is applied once, and a stale update loses to a newer one', async () => {
  const providerId = await addProvider();
  const model = await addModel(providerId, { purpose: 'chat', label: 'Current' });
  const renamed = event('ai_model.updated', {
    id: model.id,
    before: model.state,
    after: { ...model.state, label: 'Renamed' },
  });
  await handle(renamed);
  await handle(renamed);
  await handle(
    event(
      'ai_model.updated',
      { id: model.id, before: model.state, after: { ...model.state, label: 'Stale' } },
      new Date(Date.now() - 60_000),
    ),
  );
  expect((await catalogue.resolve('chat', model.id))?.label).toBe('Renamed');
});

test('a key the prompt service cannot give is reported, not silently dropped', async () => {
  const providerId = randomUUID();
  await handle(event('ai_provider.created', { id: providerId, before: null, after: providerState() }));
  const model = await addModel(providerId, { purpose: 'chat' });
  await expect(catalogue.resolve('chat', model.id)).rejects.toThrow(/could not be had from the prompt service/);
});

test('a fetched key is kept until a provider event says the provider changed', async () => {
  const providerId = await addProvider('sk-old');
  const model = await addModel(providerId, { purpose: 'chat' });
  asked.length = 0;
  expect((await catalogue.resolve('chat', model.id))?.endpoint.apiKey).toBe('sk-old');
  expect((await catalogue.resolve('chat', model.id))?.endpoint.apiKey).toBe('sk-old');
  expect(asked).toEqual([providerId]);

  // The key is replaced: the event carries no key, only that the provider changed.
  keys.set(providerId, 'sk-new');
  await handle(
    event(
      'ai_provider.updated',
      { id: providerId, before: providerState(), after: providerState() },
      new Date(Date.now() + 1000),
    ),
  );
  expect((await catalogue.resolve('chat', model.id))?.endpoint.apiKey).toBe('sk-new');
  expect(asked).toEqual([providerId, providerId]);
});
