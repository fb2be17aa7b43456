import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { AI_CONFIG_MESSAGES, type Envelope } from '@earshot/contracts';
import { OUTBOUND_MESSAGES } from '@earshot/ai';
import { startFakeOpenAI } from '@earshot/ai/testing';
import { loggerOptions, SecretBox } from '@earshot/kit';
import { createTestStack, TEST_JWT_SECRET, TEST_SECRETS_KEY, type TestStack } from '@earshot/kit/testing';
import { promptService } from '../src';

/** A fake OpenAI-compatible provider: a real local HTTP server; `handler` decides each answer. */
interface FakeProvider {
  url: string;
  requests: { method: string; path: string; authorization?: string; body: string }[];
  close(): Promise<void>;
}

async function fakeProvider(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<FakeProvider> {
  const requests: FakeProvider['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** Answers like OpenAI: a model list, a one-token chat completion, an embedding. */
const openAiLike = (req: IncomingMessage, res: ServerResponse) => {
  if (req.method === 'GET' && req.url === '/v1/models')
    return json(res, 200, {
      object: 'list',
      data: [
        { id: 'm1', object: 'model' },
        { id: 'whisper-1', object: 'model' },
      ],
    });
  if (req.method === 'POST' && req.url === '/v1/chat/completions') {
    return json(res, 200, {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm1',
      choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: 'p' } }],
    });
  }
  if (req.method === 'POST' && req.url === '/v1/embeddings')
    return json(res, 200, {
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }],
      model: 'e1',
    });
  json(res, 404, { error: { message: `Unknown route ${req.url}`, type: 'invalid_request_error' } });
};

const API_KEY = 'sk-live-abcdefghijklmnop-WXYZ';
const logLines: string[] = [];
const seen: Envelope[] = [];
let stack: TestStack;
let strict: TestStack;
let host: string;
let strictHost: string;
let provider: FakeProvider;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  stack = await createTestStack(
    [promptService],
    { AI_ALLOW_PRIVATE_URLS: 'true' },
    { logger: pino(loggerOptions('trace', 'test'), sink) },
  );
  // The default policy: private and loopback addresses refused.
  strict = await createTestStack([promptService]);
  await stack.bus.subscribe({
    group: 'test-observer',
    topics: ['earshot.prompt'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  // Each test stack trusts only its own test signer.
  strictHost = await strict.tokenFor('HOST_ADMIN', null);
  provider = await fakeProvider(openAiLike);
  // Two stacks, each with its migrations on embedded PostgreSQL: over a minute on a busy machine.
}, 180_000);
afterAll(async () => {
  await provider.close();
  await strict.close();
  await stack.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, target = stack) =>
  target.as(target === strict ? strictHost : host, {
    method,
    url: `/api/ai/config${url}`,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

let counter = 0;
async function createProvider(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const res = await call('POST', '/provider', {
    name: `Provider ${counter}`,
    baseUrl: provider.url,
    apiKey: API_KEY,
    ...overrides,
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { _id: string; name: string };
}

async function createModel(providerId: string, overrides: Record<string, unknown> = {}) {
  counter += 1;
  const res = await call('POST', '/model', { providerId, name: `model-${counter}`, purpose: 'chat', ...overrides });
  expect(res.statusCode).toBe(201);
  return res.json() as { _id: string; isDefault: boolean; name: string; label: string };
}

describe('providers', () => {
  test('create, read, list, dropdown, update and delete; the key is never returned', async () => {
    const created = await call('POST', '/provider', { name: 'OpenAI', baseUrl: `${provider.url}/`, apiKey: API_KEY });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      name: 'OpenAI',
      kind: 'openai-compatible',
      baseUrl: provider.url,
      enabled: true,
      hasApiKey: true,
      apiKeyLast4: 'WXYZ',
    });
    expect(created.body).not.toContain(API_KEY);

    const got = await call('GET', `/provider/${body._id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(body);
    const list = await call('GET', '/provider?search=openai');
    expect(list.json()).toMatchObject({ total: 1, items: [{ _id: body._id }] });
    expect(list.body).not.toContain(API_KEY);
    expect((await call('GET', '/provider/dropdown')).json()).toContainEqual({ _id: body._id, name: 'OpenAI' });

    const renamed = await call('PATCH', `/provider/${body._id}`, { name: 'OpenAI (prod)', enabled: false });
    expect(renamed.json()).toMatchObject({
      name: 'OpenAI (prod)',
      enabled: false,
      hasApiKey: true,
      apiKeyLast4: 'WXYZ',
    });
    const keyless = await call('PATCH', `/provider/${body._id}`, { apiKey: null });
    expect(keyless.json()).toMatchObject({ hasApiKey: false, apiKeyLast4: null, name: 'OpenAI (prod)' });

    expect((await call('DELETE', `/provider/${body._id}`)).json()).toEqual({ message: 'Provider deleted' });
    expect((await call('GET', `/provider/${body._id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/provider/${body._id}`)).statusCode).toBe(404);
  });

  test('the key is sealed at rest, never travels on an event (not even sealed) and never reaches the logs', async () => {
    const sealedOf = async (id: string) =>
      (
        await stack.database.query<{ api_key_sealed: string }>(
          'select api_key_sealed from prompt.ai_providers where id = $1',
          [id],
        )
      )[0]!.api_key_sealed;
    const { _id } = await createProvider();
    const sealed = [await sealedOf(_id)];
    expect(sealed[0]).toMatch(/^v1:/);
    expect(sealed[0]).not.toContain(API_KEY);
    expect(new SecretBox(TEST_SECRETS_KEY, TEST_JWT_SECRET, 'ai').open(sealed[0]!)).toBe(API_KEY);

    // Every way a key changes: replaced (same last four), removed, given again, then the provider deleted.
    const replacement = 'sk-live-replacement-key-WXYZ';
    await call('PATCH', `/provider/${_id}`, { apiKey: replacement });
    sealed.push(await sealedOf(_id));
    await call('PATCH', `/provider/${_id}`, { apiKey: null });
    await call('PATCH', `/provider/${_id}`, { apiKey: API_KEY, name: 'Renamed' });
    sealed.push(await sealedOf(_id));
    await call('POST', `/provider/${_id}/test`);
    expect((await call('DELETE', `/provider/${_id}`)).statusCode).toBe(200);
    await stack.settle();

    const mine = seen.filter((e) => e.data.id === _id);
    expect(mine.map((e) => e.type)).toEqual([
      'ai_provider.created',
      'ai_provider.updated',
      'ai_provider.updated',
      'ai_provider.updated',
      'ai_provider.deleted',
    ]);
    // A key replaced by one with the same last four still says that the provider changed.
    expect(mine[1]!.data).toMatchObject({ before: { apiKeyLast4: 'WXYZ' }, after: { apiKeyLast4: 'WXYZ' } });
    for (const event of mine) expect(Object.keys(event.data).sort()).toEqual(['after', 'before', 'id']);
    const outbox = JSON.stringify(await stack.database.query('select envelope from prompt.outbox'));
    for (const secret of [API_KEY, replacement, ...sealed]) {
      expect(JSON.stringify(seen)).not.toContain(secret);
      expect(outbox).not.toContain(secret);
    }
    expect(outbox).not.toContain('"v1:');
    // Something was logged (requests at trace level), none of it the key.
    expect(logLines.some((line) => line.includes('/api/ai/config/provider'))).toBe(true);
    expect(logLines.join('\n')).not.toContain(API_KEY);
  });

  test('only the platform administrator may touch AI settings', async () => {
    const { _id } = await createProvider();
    for (const role of ['ADMIN', 'CALLER', 'USER'] as const) {
      const token = await stack.tokenFor(role, crypto.randomUUID());
      expect((await stack.as(token, { method: 'GET', url: '/api/ai/config/provider' })).statusCode).toBe(403);
      expect((await stack.as(token, { method: 'POST', url: `/api/ai/config/provider/${_id}/test` })).statusCode).toBe(
        403,
      );
    }
    expect((await stack.as(null, { method: 'GET', url: '/api/ai/config/model' })).statusCode).toBe(401);
  });

  test('a provider with models cannot be deleted', async () => {
    const { _id } = await createProvider();
    const model = await createModel(_id);
    const refused = await call('DELETE', `/provider/${_id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(AI_CONFIG_MESSAGES.providerInUse);
    await call('DELETE', `/model/${model._id}`);
    expect((await call('DELETE', `/provider/${_id}`)).statusCode).toBe(200);
  });
});

describe('base URL checks', () => {
  const refused = async (baseUrl: string, message: string, target = stack) => {
    const res = await call('POST', '/provider', { name: 'Bad', baseUrl }, target);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, details: [{ field: 'body.baseUrl', message }] });
  };

  test('metadata, link-local and unspecified addresses are refused even when private ones are allowed', async () => {
    await refused('http://169.254.169.254/latest', AI_CONFIG_MESSAGES.urlBlocked);
    await refused('http://[::ffff:169.254.169.254]/v1', AI_CONFIG_MESSAGES.urlBlocked);
    await refused('http://[fe80::1]/v1', AI_CONFIG_MESSAGES.urlBlocked);
    await refused('http://0.0.0.0:11434/v1', AI_CONFIG_MESSAGES.urlBlocked);
    await refused('http://[fd00:ec2::254]/latest/meta-data/', AI_CONFIG_MESSAGES.urlBlocked);
    await refused('http://100.100.100.200/latest/meta-data/', AI_CONFIG_MESSAGES.urlBlocked);
    await refused('http://[64:ff9b::a9fe:a9fe]/v1', AI_CONFIG_MESSAGES.urlBlocked);
    const { _id } = await createProvider();
    const patched = await call('PATCH', `/provider/${_id}`, { baseUrl: 'http://169.254.169.254/' });
    expect(patched.statusCode).toBe(400);
    expect((await call('GET', `/provider/${_id}`)).json().baseUrl).toBe(provider.url);
  });

  test('a URL that is not http(s) is refused by the schema', async () => {
    const res = await call('POST', '/provider', { name: 'Bad', baseUrl: 'file:///etc/passwd' });
    expect(res.statusCode).toBe(400);
  });

  test('private and loopback addresses need AI_ALLOW_PRIVATE_URLS=true', async () => {
    await refused('http://127.0.0.1:11434/v1', AI_CONFIG_MESSAGES.urlPrivate, strict);
    await refused('http://10.1.2.3/v1', AI_CONFIG_MESSAGES.urlPrivate, strict);
    await refused('http://[::ffff:127.0.0.1]:11434/v1', AI_CONFIG_MESSAGES.urlPrivate, strict);
    // IPv4-compatible IPv6 (URLs write it [::7f00:1]) is the loopback address it embeds.
    await refused('http://[::127.0.0.1]:11434/v1', AI_CONFIG_MESSAGES.urlPrivate, strict);
    await refused('http://localhost:11434/v1', AI_CONFIG_MESSAGES.urlPrivate, strict);
    expect((await call('POST', '/provider', { name: 'Ollama', baseUrl: 'http://10.1.2.3:11434/v1' })).statusCode).toBe(
      201,
    );
  });

  test('a redirect to the metadata address is not followed during a test connection', async () => {
    const redirector = await fakeProvider((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    try {
      const { _id } = await createProvider({ baseUrl: redirector.url });
      const res = await call('POST', `/provider/${_id}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ ok: false, message: OUTBOUND_MESSAGES.blocked });
      expect(redirector.requests).toHaveLength(1);
    } finally {
      await redirector.close();
    }
  });

  test("test connection follows a redirect to another origin without the provider's key, and one within the origin with it", async () => {
    const elsewhere = await fakeProvider(openAiLike);
    const redirector = await fakeProvider((req, res) => {
      if (req.url === '/v1/landing') return json(res, 200, { object: 'list', data: [{ id: 'm1', object: 'model' }] });
      res.writeHead(302, {
        location: req.url === '/v1/same-origin/models' ? '/v1/landing' : `${elsewhere.url}/models`,
      });
      res.end();
    });
    try {
      const cross = await createProvider({ baseUrl: redirector.url });
      expect((await call('POST', `/provider/${cross._id}/test`)).json()).toMatchObject({ ok: true });
      expect(redirector.requests.at(-1)).toMatchObject({ path: '/v1/models', authorization: `Bearer ${API_KEY}` });
      expect(elsewhere.requests).toEqual([expect.objectContaining({ path: '/v1/models', authorization: undefined })]);

      const same = await createProvider({ baseUrl: `${redirector.url}/same-origin` });
      expect((await call('POST', `/provider/${same._id}/test`)).json()).toMatchObject({ ok: true });
      expect(redirector.requests.slice(-2)).toEqual([
        expect.objectContaining({ path: '/v1/same-origin/models', authorization: `Bearer ${API_KEY}` }),
        expect.objectContaining({ path: '/v1/landing', authorization: `Bearer ${API_KEY}` }),
      ]);
    } finally {
      await redirector.close();
      await elsewhere.close();
    }
  });
});

describe('models', () => {
  test('create with the label defaulting to the name, read, list, filter, update, delete', async () => {
    const { _id: providerId, name: providerName } = await createProvider();
    const created = await call('POST', '/model', {
      providerId,
      name: 'gpt-4o-mini',
      purpose: 'chat',
      contextSize: 128000,
    });
    expect(created.statusCode).toBe(201);
    const model = created.json();
    expect(model).toMatchObject({
      providerId,
      providerName,
      name: 'gpt-4o-mini',
      label: 'gpt-4o-mini',
      purpose: 'chat',
      isDefault: false,
      contextSize: 128000,
      enabled: true,
    });

    // A label that repeated the name follows a rename; other fields stay as they were.
    const renamed = await call('PATCH', `/model/${model._id}`, { name: 'gpt-4.1-mini' });
    expect(renamed.json()).toMatchObject({
      name: 'gpt-4.1-mini',
      label: 'gpt-4.1-mini',
      contextSize: 128000,
      enabled: true,
      isDefault: false,
    });
    const labelled = await call('PATCH', `/model/${model._id}`, { label: 'Fast', enabled: false });
    expect(labelled.json()).toMatchObject({ name: 'gpt-4.1-mini', label: 'Fast', enabled: false });

    const listed = await call('GET', `/model?providerId=${providerId}&purpose=chat`);
    expect(listed.json()).toMatchObject({ total: 1, items: [{ _id: model._id, label: 'Fast' }] });
    expect((await call('GET', `/model?providerId=${providerId}&purpose=embeddings`)).json().total).toBe(0);
    // Disabled: not offered in pickers.
    expect((await call('GET', '/model/dropdown?purpose=chat')).json().map((m: { _id: string }) => m._id)).not.toContain(
      model._id,
    );
    await call('PATCH', `/model/${model._id}`, { enabled: true });
    expect((await call('GET', '/model/dropdown?purpose=chat')).json()).toContainEqual({
      _id: model._id,
      name: 'Fast',
      purpose: 'chat',
      isDefault: false,
    });

    expect((await call('DELETE', `/model/${model._id}`)).json()).toEqual({ message: 'Model deleted' });
    expect((await call('GET', `/model/${model._id}`)).statusCode).toBe(404);
  });

  test('an unknown provider and a duplicate name are refused clearly', async () => {
    const unknown = await call('POST', '/model', { providerId: crypto.randomUUID(), name: 'x', purpose: 'chat' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      message: AI_CONFIG_MESSAGES.unknownProvider,
      details: [{ field: 'body.providerId' }],
    });
    const { _id: providerId } = await createProvider();
    await createModel(providerId, { name: 'same' });
    const duplicate = await call('POST', '/model', { providerId, name: 'same', purpose: 'chat' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe(AI_CONFIG_MESSAGES.duplicateModel);
    // Same name for another purpose is another model.
    await createModel(providerId, { name: 'same', purpose: 'embeddings' });
  });

  test('one default per purpose: a new default takes the mark and consumers are told', async () => {
    const { _id: providerId } = await createProvider();
    const first = await createModel(providerId, { purpose: 'speech-to-text', isDefault: true });
    const other = await createModel(providerId, { purpose: 'embeddings', isDefault: true });
    const second = await createModel(providerId, { purpose: 'speech-to-text', isDefault: true });
    expect((await call('GET', `/model/${first._id}`)).json().isDefault).toBe(false);
    expect((await call('GET', `/model/${other._id}`)).json().isDefault).toBe(true);
    await stack.settle();
    expect(seen.find((e) => e.type === 'ai_model.updated' && e.data.id === first._id)?.data).toMatchObject({
      before: { isDefault: true },
      after: { isDefault: false },
    });

    // Back again through PATCH.
    await call('PATCH', `/model/${first._id}`, { isDefault: true });
    const defaults = (await call('GET', '/model?purpose=speech-to-text&pageSize=200'))
      .json()
      .items.filter((m: { isDefault: boolean }) => m.isDefault);
    expect(defaults.map((m: { _id: string }) => m._id)).toEqual([first._id]);
    expect((await call('GET', `/model/${second._id}`)).json().isDefault).toBe(false);
  });

  test('two models made the default at once end with exactly one default', async () => {
    const { _id: providerId } = await createProvider();
    const [a, b] = await Promise.all([
      call('POST', '/model', { providerId, name: 'race-a', purpose: 'chat', isDefault: true }),
      call('POST', '/model', { providerId, name: 'race-b', purpose: 'chat', isDefault: true }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const defaults = (await call('GET', '/model?purpose=chat&pageSize=200'))
      .json()
      .items.filter((m: { isDefault: boolean }) => m.isDefault);
    expect(defaults).toHaveLength(1);
  });
});

describe('test connection', () => {
  test('a working provider lists its models; the key went to the provider', async () => {
    const { _id } = await createProvider();
    const res = await call('POST', `/provider/${_id}/test`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, models: ['m1', 'whisper-1'] });
    expect(res.json().latencyMs).toEqual(expect.any(Number));
    expect(provider.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      authorization: `Bearer ${API_KEY}`,
    });
  });

  test('a chat model answers a one-token completion; embeddings embed; speech-to-text must be listed', async () => {
    const { _id: providerId } = await createProvider();
    const chat = await createModel(providerId, { name: 'm1', purpose: 'chat' });
    const chatTest = await call('POST', `/model/${chat._id}/test`);
    expect(chatTest.json()).toMatchObject({ ok: true });
    const sent = JSON.parse(provider.requests.at(-1)!.body);
    expect(sent).toMatchObject({ model: 'm1', max_tokens: 1 });

    const embed = await createModel(providerId, { name: 'e1', purpose: 'embeddings' });
    expect((await call('POST', `/model/${embed._id}/test`)).json()).toMatchObject({ ok: true });
    expect(provider.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/embeddings' });

    const listed = await createModel(providerId, { name: 'whisper-1', purpose: 'speech-to-text' });
    expect((await call('POST', `/model/${listed._id}/test`)).json()).toMatchObject({ ok: true });
    const missing = await createModel(providerId, { name: 'whisper-9', purpose: 'speech-to-text' });
    expect((await call('POST', `/model/${missing._id}/test`)).json()).toMatchObject({
      ok: false,
      message: expect.stringContaining('whisper-9'),
    });
  });

  test("a refused key is reported with the provider's own message", async () => {
    const refusing = await fakeProvider((_req, res) =>
      json(res, 401, {
        error: {
          message: 'Incorrect API key provided: sk-li***WXYZ',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    );
    try {
      const { _id } = await createProvider({ baseUrl: refusing.url });
      const res = await call('POST', `/provider/${_id}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ ok: false });
      expect(res.json().message).toMatch(/refused the API key \(401: .*Incorrect API key provided/);
      const model = await createModel(_id, { purpose: 'chat' });
      expect((await call('POST', `/model/${model._id}/test`)).json()).toMatchObject({
        ok: false,
        message: expect.stringContaining('401'),
      });
    } finally {
      await refusing.close();
    }
  });

  test('an unreachable provider is an answer, not a server error', async () => {
    const { _id } = await createProvider({ baseUrl: 'http://127.0.0.1:9/v1' });
    const res = await call('POST', `/provider/${_id}/test`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: false, message: expect.stringContaining('could not be reached') });
  });
});

describe('provider models (the model form picks from them)', () => {
  test("lists the provider's models sorted, with the key sent; a failing provider is a 424 with its words", async () => {
    const fake = await startFakeOpenAI();
    try {
      fake.models = ['gpt-b', 'gpt-a', 'gpt-a'];
      const { _id } = await createProvider({ baseUrl: fake.url });
      const res = await call('GET', `/providers/${_id}/models`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([{ id: 'gpt-a' }, { id: 'gpt-b' }]);
      expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
      expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    } finally {
      await fake.close();
    }
    const down = await createProvider({ baseUrl: 'http://127.0.0.1:9/v1' });
    const failed = await call('GET', `/providers/${down._id}/models`);
    expect(failed.statusCode).toBe(424);
    expect(failed.json()).toMatchObject({
      code: 'PROVIDER_ERROR',
      message: expect.stringContaining('could not be reached'),
    });
    expect((await call('GET', '/providers/00000000-0000-4000-8000-000000000000/models')).statusCode).toBe(404);
  });
});
