import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { fileService } from '@earshot/file-service';
import { tenantService } from '@earshot/tenant-service';
import {
  API_KEY_OWNER_PATH,
  ApiKeyVerifier,
  HttpError,
  INTERNAL_TOKEN_HEADER,
  MemoryBus,
  TokenSigner,
  TokenVerifier,
  createLogger,
  hashApiKey,
  type ServiceModule,
} from '@earshot/kit';
import { serviceProcesses, testSigningKeys, type ServiceProcess } from '@earshot/kit/testing';

/**
 * Distributed mode: the tenant and file services as their own processes (own app, port, database
 * handle and verifier), sharing only the event bus. The file service checks a company API key with
 * the tenant's internal route (INTERNAL_API_TOKEN), keeps the answer briefly, and drops it when the
 * key's revocation reaches it.
 */
const TOKEN = 'internal-token-internal-token-0123456789';
const logger = createLogger('silent', 'test');
const signer = new TokenSigner(testSigningKeys(), 900);
const dataDir = mkdtempSync(join(tmpdir(), 'earshot-keys-'));
// Each process its own verifier, as in a deployment: only the tenant's answers from its table.
const processes = serviceProcesses(new MemoryBus(logger), logger, () => new TokenVerifier(900).trust(signer.jwks()));
const settle = () => processes.settle();

let tenant: ServiceProcess;
let file: ServiceProcess;

beforeAll(async () => {
  // Credits are no part of this: billing's address only has to be set (nothing listens there).
  tenant = await processes.start(tenantService as ServiceModule, {
    INTERNAL_API_TOKEN: TOKEN,
    BILLING_SERVICE_URL: 'http://127.0.0.1:9',
    DATA_DIR: dataDir,
  });
  file = await processes.start(fileService as ServiceModule, {
    TENANT_SERVICE_URL: tenant.url,
    BILLING_SERVICE_URL: 'http://127.0.0.1:9',
    INTERNAL_API_TOKEN: TOKEN,
    DATA_DIR: dataDir,
  });
}, 60_000);
afterAll(async () => {
  await processes.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function asHost(options: InjectOptions) {
  const host = await signer.sign({
    userId: randomUUID(),
    companyId: null,
    role: 'HOST_ADMIN',
    email: 'host@test.local',
  });
  return tenant.app.inject({
    ...options,
    headers: { authorization: `Bearer ${host}`, 'x-requested-with': 'XMLHttpRequest' },
  });
}

test('the file service checks a key with the tenant service and refuses it once the revocation reaches it', async () => {
  const created = await asHost({
    method: 'POST',
    url: '/api/companies',
    payload: {
      name: 'Remote Co',
      code: 'REMOTE',
      domain: 'remote-co',
      type: 'business',
      status: 'active',
      maxUsers: 5,
      maxStorage: 1024 ** 2,
      language: 'en',
    },
  });
  const { _id: companyId, apiKey } = created.json() as { _id: string; apiKey: string };
  await settle();

  const list = (key: string) => file.app.inject({ method: 'GET', url: '/api/files', headers: { 'x-api-key': key } });
  expect((await list(apiKey)).statusCode).toBe(200);
  expect((await list(`esk_${'y'.repeat(32)}`)).statusCode).toBe(401);
  // A service account may not do more over there than here.
  const other = await tenant.app.inject({
    method: 'GET',
    url: `/api/companies/${companyId}`,
    headers: { 'x-api-key': apiKey },
  });
  expect(other.statusCode).toBe(403);

  expect((await asHost({ method: 'DELETE', url: `/api/companies/${companyId}/api-key` })).statusCode).toBe(200);
  await settle();
  expect((await list(apiKey)).statusCode).toBe(401);
});

test('the internal route answers only with the service credential, and only for hashes', async () => {
  const hash = hashApiKey(`esk_${'z'.repeat(32)}`);
  const ask = (headers: Record<string, string>, body: unknown) =>
    fetch(`${tenant.url}${API_KEY_OWNER_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  expect((await ask({}, { hash })).status).toBe(401);
  expect((await ask({ [INTERNAL_TOKEN_HEADER]: `${TOKEN}x` }, { hash })).status).toBe(401);
  expect((await ask({ [INTERNAL_TOKEN_HEADER]: TOKEN }, { hash })).status).toBe(404);
  expect((await ask({ [INTERNAL_TOKEN_HEADER]: TOKEN }, { hash: 'esk_plain-key' })).status).toBe(400);
});

describe('the verifier of a process without the tenant service', () => {
  const key = `esk_${'k'.repeat(32)}`;

  test('keeps a positive answer for its window, asks again after it, and forgets the company on its events', async () => {
    let now = 1_000_000;
    let asked = 0;
    let owner: { companyId: string } | null = { companyId: 'c-1' };
    const verifier = new ApiKeyVerifier(10_000, () => now);
    verifier.useRemote({ owner: async () => (asked++, owner) });
    expect(await verifier.verify(key)).toEqual({ companyId: 'c-1' });
    owner = null;
    now += 9_999;
    // Within the window and without the event, the kept answer stands: the documented delay.
    expect(await verifier.verify(key)).toEqual({ companyId: 'c-1' });
    expect(asked).toBe(1);
    now += 2;
    expect(await verifier.verify(key)).toBeNull();
    owner = { companyId: 'c-1' };
    expect(await verifier.verify(key)).toEqual({ companyId: 'c-1' });
    owner = null;
    verifier.forgetCompany('c-1');
    expect(await verifier.verify(key)).toBeNull();
    // Malformed keys never reach the tenant service.
    const before = asked;
    expect(await verifier.verify('esk_short')).toBeNull();
    expect(asked).toBe(before);
  });

  test('without TENANT_SERVICE_URL and INTERNAL_API_TOKEN a key is a 503 naming them; an unreachable tenant too', async () => {
    await expect(new ApiKeyVerifier().verify(key)).rejects.toMatchObject({
      statusCode: 503,
      message: expect.stringContaining('TENANT_SERVICE_URL'),
    });
    const down = new ApiKeyVerifier();
    down.useRemote({
      owner: async () => {
        throw new Error('ECONNREFUSED');
      },
    });
    await expect(down.verify(key)).rejects.toBeInstanceOf(HttpError);
  });
});
