import { randomBytes } from 'node:crypto';
import type { CompanyEncryptionProgress, Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { tenantService } from '../src';

// Encryption progress as the console reads it: company.encryption_progressed from the services'
// passes (published on the bus as they would be) projected per company and service.
let stack: TestStack;
let host: string;
const companies = { a: '', b: '' };
const system = { type: 'system', id: null } as const;

beforeAll(async () => {
  // Turning encryption on needs a master key on the server (without one: policies-master-key.test.ts).
  stack = await createTestStack([tenantService], { ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex') });
  host = await stack.tokenFor('HOST_ADMIN', null);
  for (const key of ['a', 'b'] as const) {
    const res = await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: `Encrypting ${key}`, code: `ENC-${key}`, domain: `encrypting-${key}` },
    });
    companies[key] = res.json()._id;
  }
  const on = await stack.as(host, {
    method: 'PUT',
    url: `/api/companies/${companies.a}/policies`,
    payload: {
      redaction: 'off',
      keepOriginal: false,
      encryption: true,
      retention: { recordingsDays: null, chatsDays: null, auditDays: null },
    },
  });
  expect(on.statusCode).toBe(200);
}, 60_000);
afterAll(async () => stack.close());

const url = (id: string) => `/api/companies/${id}/encryption`;

function progressed(
  companyId: string,
  service: string,
  done: number,
  total: number,
  state: 'running' | 'done',
  at: string,
): Envelope {
  return {
    ...buildEnvelope({
      type: 'company.encryption_progressed',
      companyId,
      actor: system,
      data: { companyId, service, done, total, state },
    }),
    occurredAt: at,
  };
}

async function deliver(...envelopes: Envelope[]): Promise<void> {
  await stack.bus.publish(
    envelopes.map((envelope) => ({ topic: 'earshot.keys', key: envelope.companyId ?? '', envelope })),
  );
  await stack.settle();
}

const service = (body: CompanyEncryptionProgress, name: string) => body.services.find((s) => s.service === name);

test('before any service reports, every encrypting service is idle', async () => {
  const res = await stack.as(host, { method: 'GET', url: url(companies.a) });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    encryption: true,
    masterKeyConfigured: true,
    services: ['file', 'transcription', 'chat', 'prompt'].map((name) => ({
      service: name,
      state: 'idle',
      done: 0,
      total: 0,
      updatedAt: null,
    })),
  });
});

test('events from two services are projected; the newest wins, an older one arriving late and the same one again change nothing', async () => {
  const first = progressed(companies.a, 'file', 100, 300, 'running', '2026-11-26T07:00:00.000Z');
  const newer = progressed(companies.a, 'file', 300, 300, 'done', '2026-11-26T07:00:05.000Z');
  const late = progressed(companies.a, 'file', 200, 300, 'running', '2026-11-26T07:00:03.000Z');
  const words = progressed(companies.a, 'transcription', 120, 300, 'running', '2026-11-26T07:00:04.000Z');
  await deliver(first);
  expect(service((await stack.as(host, { method: 'GET', url: url(companies.a) })).json(), 'file')).toEqual({
    service: 'file',
    state: 'running',
    done: 100,
    total: 300,
    updatedAt: '2026-11-26T07:00:00.000Z',
  });
  await deliver(newer, late, words, newer);
  const body = (await stack.as(host, { method: 'GET', url: url(companies.a) })).json();
  expect(service(body, 'file')).toEqual({
    service: 'file',
    state: 'done',
    done: 300,
    total: 300,
    updatedAt: '2026-11-26T07:00:05.000Z',
  });
  expect(service(body, 'transcription')).toEqual({
    service: 'transcription',
    state: 'running',
    done: 120,
    total: 300,
    updatedAt: '2026-11-26T07:00:04.000Z',
  });
  expect(service(body, 'chat')?.state).toBe('idle');
  // Another company's figures are its own.
  expect((await stack.as(host, { method: 'GET', url: url(companies.b) })).json()).toMatchObject({
    encryption: false,
    services: expect.arrayContaining([expect.objectContaining({ service: 'file', state: 'idle' })]),
  });
});

test('the company’s ADMIN reads their own; another company’s is a 404, a USER is refused, an unknown company is a 404', async () => {
  const admin = await stack.tokenFor('ADMIN', companies.a);
  const own = await stack.as(admin, { method: 'GET', url: url(companies.a) });
  expect(own.statusCode).toBe(200);
  expect(service(own.json(), 'file')?.state).toBe('done');
  expect((await stack.as(admin, { method: 'GET', url: url(companies.b) })).statusCode).toBe(404);
  expect(
    (await stack.as(await stack.tokenFor('USER', companies.a), { method: 'GET', url: url(companies.a) })).statusCode,
  ).toBe(403);
  expect((await stack.as(host, { method: 'GET', url: url('00000000-0000-4000-8000-000000000000') })).statusCode).toBe(
    404,
  );
});
