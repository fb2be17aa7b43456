import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { INTERNAL_TOKEN_HEADER } from '@earshot/ai';
import { CREDIT_CODES, CREDIT_MESSAGES, type CreditCode } from '@earshot/contracts';
import {
  buildServiceApp,
  configSchemaFor,
  ConfigError,
  CREDIT_CHECK_PATH,
  createLogger,
  MemoryBus,
  TokenSigner,
  TokenVerifier,
  type BaseConfig,
  type Database,
  type RunningServices,
  type ServiceModule,
} from '@earshot/kit';
import { startFakeOpenAI, type FakeOpenAI } from '@earshot/ai/testing';
import {
  createTestStack,
  openTestDatabase,
  TEST_JWT_SECRET,
  TEST_SECRETS_KEY,
  testSigningKeys,
} from '@earshot/kit/testing';
import { promptService } from '@earshot/prompt-service';
import { chatService } from '@earshot/chat-service';
import { deltas, streamReply } from './helpers';

/**
 * Distributed mode: the prompt and chat services as separate processes would run them (each its
 * own app, port and database handle), sharing only the event bus. Chat gets the provider's key
 * over the prompt service's internal route, authenticated with INTERNAL_API_TOKEN, and asks the
 * tenant service's credit check (here a stand-in on a real socket) before a model's reply.
 */
const TOKEN = 'internal-token-internal-token-0123456789';
const logger = createLogger('silent', 'test');
const bus = new MemoryBus(logger);
const signer = new TokenSigner(testSigningKeys(), 900);
const verifier = new TokenVerifier(900).trust(signer.jwks());
const opened: { app: FastifyInstance; running: RunningServices; database: Database }[] = [];

async function start(
  module: ServiceModule,
  env: Record<string, string>,
  on = bus,
): Promise<{ app: FastifyInstance; url: string }> {
  const database = await openTestDatabase();
  const config = configSchemaFor([module]).parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
    OUTBOX_POLL_MS: '50',
    ...env,
  }) as BaseConfig;
  try {
    const { app, running } = await buildServiceApp(module, { config, database, bus: on, logger, tokens: verifier });
    opened.push({ app, running, database });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
  } catch (error) {
    await database.close();
    throw error;
  }
}

let fake: FakeOpenAI;
let prompt: { app: FastifyInstance; url: string };
let chat: { app: FastifyInstance; url: string };
let tenant: FastifyInstance;
let tenantUrl: string;
let refusal: CreditCode | null = null;
const checks: unknown[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  tenant = Fastify();
  tenant.post(CREDIT_CHECK_PATH, async (request, reply) => {
    if (request.headers[INTERNAL_TOKEN_HEADER] !== TOKEN)
      return reply.code(401).send({ message: 'Not signed in', code: 'UNAUTHENTICATED' });
    checks.push(request.body);
    return refusal
      ? reply.code(402).send({ message: CREDIT_MESSAGES[refusal], code: refusal })
      : reply.code(204).send();
  });
  await tenant.listen({ host: '127.0.0.1', port: 0 });
  tenantUrl = `http://127.0.0.1:${(tenant.server.address() as AddressInfo).port}`;
  prompt = await start(promptService, {
    AI_ALLOW_PRIVATE_URLS: 'true',
    INTERNAL_API_TOKEN: TOKEN,
    TENANT_SERVICE_URL: tenantUrl,
    BILLING_SERVICE_URL: tenantUrl,
  });
  chat = await start(chatService, {
    AI_ALLOW_PRIVATE_URLS: 'true',
    AI_TIMEOUT_MS: '10000',
    PROMPT_SERVICE_URL: prompt.url,
    INTERNAL_API_TOKEN: TOKEN,
    TENANT_SERVICE_URL: tenantUrl,
    BILLING_SERVICE_URL: tenantUrl,
  });
}, 60_000);
afterAll(async () => {
  for (const { app, running, database } of opened.reverse()) {
    await app.close();
    await running.stop();
    await database.close();
  }
  await bus.stop();
  await fake.close();
  await tenant.close();
});

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    for (const { running } of opened) await running.flush();
    await bus.idle();
  }
};

async function asHost(method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) {
  const host = await signer.sign({
    userId: randomUUID(),
    companyId: null,
    role: 'HOST_ADMIN',
    email: 'host@test.local',
  });
  const res = await prompt.app.inject({
    method,
    url,
    payload,
    headers: { authorization: `Bearer ${host}`, 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(res.statusCode).toBeLessThan(300);
  return res.json() as { _id: string };
}

test('chat in its own process answers with the key it gets over the internal route, and follows a replaced key', async () => {
  const provider = await asHost('POST', '/api/ai/config/provider', {
    name: 'Remote',
    baseUrl: fake.url,
    apiKey: 'sk-remote-key-0001',
  });
  await asHost('POST', '/api/ai/config/model', {
    providerId: provider._id,
    name: 'fake-remote',
    purpose: 'chat',
    isDefault: true,
  });
  await settle();

  const user = await signer.sign({
    userId: randomUUID(),
    companyId: randomUUID(),
    role: 'USER',
    email: 'user@test.local',
  });
  const created = await chat.app.inject({
    method: 'POST',
    url: '/api/chat/conversations',
    payload: {},
    headers: { authorization: `Bearer ${user}`, 'x-requested-with': 'XMLHttpRequest' },
  });
  const conversation = (created.json() as { _id: string })._id;
  fake.queueReply({ pieces: ['Over', ' the wire.'] });
  const first = await streamReply(chat.url, user, conversation, { message: 'Hello?' });
  expect(deltas(first.events)).toEqual(['Over', ' the wire.']);
  expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-remote-key-0001');

  await asHost('PATCH', `/api/ai/config/provider/${provider._id}`, { apiKey: 'sk-remote-key-0002' });
  await settle();
  fake.queueReply({ pieces: ['Rotated.'] });
  await streamReply(chat.url, user, conversation, { message: 'Again?' });
  expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-remote-key-0002');
});

test("chat in its own process asks the tenant service's credit check over the wire and answers its refusal", async () => {
  const provider = await asHost('POST', '/api/ai/config/provider', {
    name: 'Metered',
    baseUrl: fake.url,
    apiKey: 'sk-metered-key-0004',
  });
  const model = await asHost('POST', '/api/ai/config/model', {
    providerId: provider._id,
    name: 'fake-metered',
    purpose: 'chat',
    isDefault: false,
  });
  await settle();
  const companyId = randomUUID();
  const userId = randomUUID();
  const user = await signer.sign({ userId, companyId, role: 'USER', email: 'metered@test.local' });
  const created = await chat.app.inject({
    method: 'POST',
    url: '/api/chat/conversations',
    payload: {},
    headers: { authorization: `Bearer ${user}`, 'x-requested-with': 'XMLHttpRequest' },
  });
  const conversation = (created.json() as { _id: string })._id;

  checks.length = 0;
  refusal = CREDIT_CODES.USER_CAP_REACHED;
  const calls = fake.requests.length;
  const refused = await streamReply(chat.url, user, conversation, { message: 'Hello?', modelId: model._id });
  refusal = null;
  expect(refused.status).toBe(402);
  expect(refused.json).toEqual({ message: CREDIT_MESSAGES.USER_CAP_REACHED, code: 'USER_CAP_REACHED' });
  expect(fake.requests.length).toBe(calls);
  expect(checks).toEqual([{ companyId, userId, feature: 'chat', modelId: model._id }]);

  fake.queueReply({ pieces: ['Paid for.'] });
  expect(
    deltas((await streamReply(chat.url, user, conversation, { message: 'Hello?', modelId: model._id })).events),
  ).toEqual(['Paid for.']);
});

test('the key route wants the service credential, and says nothing to anyone else', async () => {
  const provider = await asHost('POST', '/api/ai/config/provider', {
    name: 'Guarded',
    baseUrl: fake.url,
    apiKey: 'sk-guarded-key-0003',
  });
  const path = `/internal/ai/providers/${provider._id}/key`;
  const get = (headers: Record<string, string>) => fetch(`${prompt.url}${path}`, { headers });

  expect((await get({})).status).toBe(401);
  expect((await get({ [INTERNAL_TOKEN_HEADER]: `${TOKEN}x` })).status).toBe(401);
  // A person's session, even the platform administrator's, is not a service credential.
  const host = await signer.sign({
    userId: randomUUID(),
    companyId: null,
    role: 'HOST_ADMIN',
    email: 'host@test.local',
  });
  const asPerson = await get({ authorization: `Bearer ${host}` });
  expect(asPerson.status).toBe(401);
  expect(await asPerson.text()).not.toContain('sk-guarded');
  // Without the credential a bad id is still a 401, not a hint.
  expect((await fetch(`${prompt.url}/internal/ai/providers/not-an-id/key`)).status).toBe(401);

  const ok = await get({ [INTERNAL_TOKEN_HEADER]: TOKEN });
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ apiKey: 'sk-guarded-key-0003' });
  expect(
    (
      await fetch(`${prompt.url}/internal/ai/providers/${randomUUID()}/key`, {
        headers: { [INTERNAL_TOKEN_HEADER]: TOKEN },
      })
    ).status,
  ).toBe(404);
});

test('in one process (all-in-one) the key route does not exist at all', async () => {
  const stack = await createTestStack([promptService, chatService], { INTERNAL_API_TOKEN: TOKEN });
  try {
    const id = randomUUID();
    for (const url of [`/internal/ai/providers/${id}/key`, `/api/internal/ai/providers/${id}/key`]) {
      expect(
        (await stack.app.inject({ method: 'GET', url, headers: { [INTERNAL_TOKEN_HEADER]: TOKEN } })).statusCode,
      ).toBe(404);
    }
  } finally {
    await stack.close();
  }
});

test('distributed, the prompt service needs INTERNAL_API_TOKEN and chat needs the way to it', async () => {
  // Their own bus: a process that refused to start must not leave handlers on the shared one.
  const apart = new MemoryBus(logger);
  const refusal = async (module: ServiceModule, env: Record<string, string>) => {
    const error = await start(module, env, apart).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  };
  expect(await refusal(promptService, {})).toEqual([expect.stringMatching(/^INTERNAL_API_TOKEN: required/)]);
  // Analysis runs ask the billing service for credits.
  expect(await refusal(promptService, { INTERNAL_API_TOKEN: TOKEN })).toEqual([
    expect.stringMatching(/^BILLING_SERVICE_URL: required/),
  ]);
  // Replies ask the billing service for credits and the prompt service for keys.
  expect(await refusal(chatService, {})).toEqual([
    expect.stringMatching(/^BILLING_SERVICE_URL: required/),
    expect.stringMatching(/^INTERNAL_API_TOKEN: required/),
  ]);
  expect(await refusal(chatService, { INTERNAL_API_TOKEN: TOKEN, BILLING_SERVICE_URL: 'http://127.0.0.1:9' })).toEqual([
    expect.stringMatching(/^PROMPT_SERVICE_URL: required/),
  ]);
  await apart.stop();
});
