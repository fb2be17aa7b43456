import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import {
  buildServiceApp,
  configSchemaFor,
  CREDIT_CHECK_PATH,
  CSRF_HEADER,
  createLogger,
  HttpError,
  INTERNAL_TOKEN_HEADER,
  MemoryBus,
  remoteBilling,
  remoteCreditGate,
  TokenSigner,
  TokenVerifier,
  type BaseConfig,
  type Database,
  type RunningServices,
} from '@earshot/kit';
import { openTestDatabase, TEST_JWT_SECRET, TEST_SECRETS_KEY, testSigningKeys } from '@earshot/kit/testing';
import { billingService } from '../src';

/**
 * Distributed mode: the billing service on its own port answers the credit check that the chat,
 * prompt, file and transcription services make over HTTP (remoteCreditGate), for the internal token
 * only: 204 go, 402/409 refused with the console's message and code.
 */
const TOKEN = 'internal-token-internal-token-0123456789';
const logger = createLogger('silent', 'test');
const bus = new MemoryBus(logger);
const signer = new TokenSigner(testSigningKeys(), 900);
const verifier = new TokenVerifier(900).trust(signer.jwks());
let database: Database;
let app: FastifyInstance;
let running: RunningServices;
let url: string;
let host: string;

beforeAll(async () => {
  database = await openTestDatabase();
  const config = configSchemaFor([billingService]).parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
    OUTBOX_POLL_MS: '50',
    INTERNAL_API_TOKEN: TOKEN,
    MAIL_WORKER: 'false',
    COMPANY_OPENING_CREDITS: '0',
  }) as BaseConfig;
  ({ app, running } = await buildServiceApp(billingService, { config, database, bus, logger, tokens: verifier }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  host = await signer.sign({
    userId: crypto.randomUUID(),
    companyId: null,
    role: 'HOST_ADMIN',
    email: 'host@test.local',
  });
}, 60_000);
afterAll(async () => {
  await app.close();
  await running.stop();
  await bus.stop();
  await database.close();
});

const as = (token: string, options: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: unknown }) =>
  app.inject({
    ...options,
    payload: options.payload as never,
    headers: { authorization: `Bearer ${token}`, [CSRF_HEADER]: 'XMLHttpRequest' },
  });

async function refusal(promise: Promise<void>): Promise<{ statusCode: number; code: string; message: string } | null> {
  return promise.then(
    () => null,
    (error: unknown) => {
      expect(error).toBeInstanceOf(HttpError);
      return error as HttpError & { code: string };
    },
  );
}

test('the remote gate: refused with no credits or an unpriced model, allowed once granted', async () => {
  // The tenant service opens a new company's account over the internal route, as it creates it.
  const company = { _id: crypto.randomUUID() };
  await remoteBilling(url, TOKEN).openAccount({
    company: { id: company._id, name: 'Remote Ltd', code: 'REMOTE', status: 'active' },
    actor: { type: 'system', id: null },
  });
  const gate = remoteCreditGate(url, TOKEN);
  const ask = (extra: Record<string, unknown> = {}) =>
    gate.assertCanSpend({ companyId: company._id, userId: crypto.randomUUID(), feature: 'transcription', ...extra });

  expect(await refusal(ask())).toMatchObject({
    statusCode: 402,
    code: 'CREDITS_EXHAUSTED',
    message: 'Your company has no credits left: ask your administrator',
  });
  expect(
    (
      await as(host, {
        method: 'POST',
        url: `/api/companies/${company._id}/credits`,
        payload: { amount: 10, reason: 'Start' },
      })
    ).statusCode,
  ).toBe(201);
  expect(await refusal(ask({ engine: 'pocketsphinx' }))).toBeNull();
  expect(await refusal(ask({ modelId: crypto.randomUUID() }))).toMatchObject({
    statusCode: 409,
    code: 'MODEL_NOT_PRICED',
  });
});

test('the check is for our services only: a wrong or missing token is a 401, a bad request a 400', async () => {
  const call = (headers: Record<string, string>, body: unknown) =>
    fetch(`${url}${CREDIT_CHECK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const request = { companyId: crypto.randomUUID(), userId: null, feature: 'chat' };
  expect((await call({}, request)).status).toBe(401);
  expect((await call({ [INTERNAL_TOKEN_HEADER]: 'x'.repeat(40) }, request)).status).toBe(401);
  const bad = await call({ [INTERNAL_TOKEN_HEADER]: TOKEN }, { ...request, feature: 'poetry' });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain('body.feature');
  // Never proxied by the gateway: not under /api.
  expect(CREDIT_CHECK_PATH.startsWith('/api')).toBe(false);
});

test("the tenant's calls: an account opened once, balances and monthly use, for our services only", async () => {
  const billing = remoteBilling(url, TOKEN);
  const id = crypto.randomUUID();
  const company = { id, name: 'Twice Ltd', code: 'TWICE', status: 'active' };
  await billing.openAccount({ company, actor: { type: 'system', id: null } });
  await billing.openAccount({ company, actor: { type: 'system', id: null } });
  expect(
    (await as(host, { method: 'POST', url: `/api/companies/${id}/credits`, payload: { amount: 5, reason: 'Start' } }))
      .statusCode,
  ).toBe(201);
  expect(await billing.balances([id, crypto.randomUUID()])).toEqual(new Map([[id, 5]]));
  expect(await billing.monthlyUse(new Date(Date.now() - 86_400_000))).toEqual([]);
  await expect(remoteBilling(url, 'x'.repeat(40)).balances([id])).rejects.toThrow(/401/);
});
