import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AiModelDto, AiProviderDto, PricingDto } from '@earshot/contracts';
import type { Database } from '@earshot/kit';
import { createTestStack, openTestDatabase, type TestStack } from '@earshot/kit/testing';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { localAi, promptService } from '@earshot/prompt-service';

/**
 * The local-AI profile's first start: with LOCAL_AI_* pointing at a speech server (speaches) and
 * Ollama, the prompt service registers them as providers with a default, free model each, and has
 * the servers fetch their models. The servers here are loopback fakes that start "late" (their
 * first answers fail) and record what they are asked. Prices come from the tenant service mounted
 * beside it, from the model events alone.
 */
interface Seen {
  method: string;
  path: string;
  body: string;
}
interface Fake {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function fakeServer(answer: (seen: Seen, count: number, res: ServerResponse) => void): Promise<Fake> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const one = { method: req.method!, path: req.url!, body };
      seen.push(one);
      answer(one, seen.filter((s) => s.method === one.method && s.path === one.path).length, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const SPEECH_MODEL = 'Systran/faster-whisper-small';
const CHAT_MODEL = 'qwen2.5:1.5b';

/** speaches: not ready on its first health check; installs the model. */
const speaches = () =>
  fakeServer((seen, count, res) => {
    if (seen.method === 'GET' && seen.path === '/health') return res.writeHead(count === 1 ? 503 : 200).end('OK');
    if (seen.method === 'POST' && seen.path === `/v1/models/${SPEECH_MODEL}`)
      return res.writeHead(201).end(JSON.stringify({ detail: 'installed' }));
    res.writeHead(404).end('{"detail":"Not Found"}');
  });

/** Ollama: its first pull breaks off with an error line (as a dropped download does), the next succeeds. */
const ollama = () =>
  fakeServer((seen, count, res) => {
    if (seen.method === 'GET' && seen.path === '/api/version') return res.writeHead(200).end('{"version":"0.5.7"}');
    if (seen.method === 'POST' && seen.path === '/api/pull') {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"status":"pulling manifest"}\n');
      if (count === 1) return res.end('{"error":"max retries exceeded: unexpected EOF"}\n');
      res.write('{"status":"pulling 6e4c38e1172f","digest":"sha256:6e4c","total":100,"completed":50}\n');
      res.write('{"status":"pulling 6e4c38e1172f","digest":"sha256:6e4c","total":100,"completed":100}\n');
      return res.end('{"status":"success"}\n');
    }
    res.writeHead(404).end('404 page not found');
  });

let speech: Fake;
let chat: Fake;
let database: Database;
let env: Record<string, string>;
/** The same database for every start of a test: closing a stack leaves it open. */
const kept = (db: Database): Database => ({ ...db, close: async () => {} });

async function start(withEnv: Record<string, string>, db: Database = database): Promise<TestStack> {
  const stack = await createTestStack([promptService, tenantService, billingService], withEnv, { database: kept(db) });
  await localAi(stack.database)?.settled;
  await stack.settle();
  return stack;
}

async function state(stack: TestStack) {
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const providers = (await stack.as(host, { method: 'GET', url: '/api/ai/config/provider?pageSize=100' })).json()
    .items as AiProviderDto[];
  const models = (await stack.as(host, { method: 'GET', url: '/api/ai/config/model?pageSize=100' })).json()
    .items as AiModelDto[];
  const pricing = (await stack.as(host, { method: 'GET', url: '/api/pricing' })).json() as PricingDto;
  // The engines' prices (PocketSphinx, whisper) are the tenant service's own: only the models' count here.
  return { host, providers, models, prices: pricing.prices.filter((p) => p.modelId !== null) };
}

beforeAll(async () => {
  [speech, chat] = await Promise.all([speaches(), ollama()]);
  env = {
    LOCAL_AI_SPEECH_URL: `${speech.url}/v1`,
    LOCAL_AI_CHAT_URL: `${chat.url}/v1/`,
    AI_ALLOW_PRIVATE_URLS: 'true',
    LOCAL_AI_RETRY_MS: '10',
    LOCAL_AI_ATTEMPTS: '5',
  };
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => {
  await database.close();
  await Promise.all([speech.close(), chat.close()]);
});

test('the first start registers both servers: providers, a default model each, free; the servers fetch their models', async () => {
  const stack = await start(env);
  try {
    const { providers, models, prices } = await state(stack);
    expect(
      providers
        .map((p) => ({ baseUrl: p.baseUrl, enabled: p.enabled, hasApiKey: p.hasApiKey }))
        .sort((a, b) => a.baseUrl.localeCompare(b.baseUrl)),
    ).toEqual(
      [
        { baseUrl: `${speech.url}/v1`, enabled: true, hasApiKey: false },
        { baseUrl: `${chat.url}/v1`, enabled: true, hasApiKey: false },
      ].sort((a, b) => a.baseUrl.localeCompare(b.baseUrl)),
    );
    const byPurpose = Object.fromEntries(models.map((m) => [m.purpose, m]));
    expect(models).toHaveLength(2);
    expect(byPurpose['speech-to-text']).toMatchObject({
      name: SPEECH_MODEL,
      isDefault: true,
      enabled: true,
      providerId: providers.find((p) => p.baseUrl.startsWith(speech.url))!._id,
    });
    expect(byPurpose.chat).toMatchObject({
      name: CHAT_MODEL,
      isDefault: true,
      enabled: true,
      providerId: providers.find((p) => p.baseUrl.startsWith(chat.url))!._id,
    });
    // Priced by the tenant service from the model events: without a price a model is refused (MODEL_NOT_PRICED).
    const priced = prices.map((p) => [p.modelId, p.unit, p.credits]).sort();
    expect(priced).toEqual(
      [
        [byPurpose.chat!._id, 'input_1k', 0],
        [byPurpose.chat!._id, 'output_1k', 0],
        [byPurpose['speech-to-text']!._id, 'audio_minute', 0],
      ].sort(),
    );

    // Both servers were waited for, asked for their model, and Ollama's broken pull was tried again.
    expect(speech.seen.filter((s) => s.path === '/health').length).toBeGreaterThanOrEqual(2);
    expect(speech.seen.filter((s) => s.method === 'POST').map((s) => s.path)).toEqual([`/v1/models/${SPEECH_MODEL}`]);
    const pulls = chat.seen.filter((s) => s.method === 'POST' && s.path === '/api/pull');
    expect(pulls).toHaveLength(2);
    expect(pulls.map((p) => JSON.parse(p.body) as unknown)).toEqual([
      { model: CHAT_MODEL, stream: true },
      { model: CHAT_MODEL, stream: true },
    ]);
  } finally {
    await stack.close();
  }
}, 120_000);

test('a second start registers nothing new (the servers are asked for their models again, which they already have)', async () => {
  const before = speech.seen.length;
  const stack = await start(env);
  try {
    const { providers, models, host } = await state(stack);
    expect(providers).toHaveLength(2);
    expect(models).toHaveLength(2);
    const history = (
      await stack.as(host, { method: 'GET', url: '/api/pricing/history' })
    ).json() as PricingDto['prices'];
    expect(history.filter((p) => p.modelId !== null)).toHaveLength(3);
    expect(
      speech.seen
        .slice(before)
        .filter((s) => s.method === 'POST')
        .map((s) => s.path),
    ).toEqual([`/v1/models/${SPEECH_MODEL}`]);
  } finally {
    await stack.close();
  }
}, 120_000);

test('with a provider already configured, nothing is registered', async () => {
  const own = await openTestDatabase();
  try {
    const first = await start({ AI_ALLOW_PRIVATE_URLS: 'true' }, own);
    const host = await first.tokenFor('HOST_ADMIN', null);
    const made = await first.as(host, {
      method: 'POST',
      url: '/api/ai/config/provider',
      payload: { name: 'Team vLLM', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', enabled: true },
    });
    expect(made.statusCode).toBe(201);
    await first.close();
    const stack = await start(env, own);
    try {
      const { providers, models } = await state(stack);
      expect(providers.map((p) => p.name)).toEqual(['Team vLLM']);
      expect(models).toEqual([]);
    } finally {
      await stack.close();
    }
  } finally {
    await own.close();
  }
}, 120_000);

test('a server that never answers is given up after LOCAL_AI_ATTEMPTS, and nothing is registered', async () => {
  const own = await openTestDatabase();
  const closed = await fakeServer((_seen, _count, res) => void res.writeHead(503).end());
  await closed.close();
  try {
    const stack = await start({ ...env, LOCAL_AI_SPEECH_URL: `${closed.url}/v1`, LOCAL_AI_ATTEMPTS: '3' }, own);
    try {
      const { providers } = await state(stack);
      expect(providers).toEqual([]);
    } finally {
      await stack.close();
    }
  } finally {
    await own.close();
  }
}, 120_000);
