import { randomBytes } from 'node:crypto';
import type { Envelope } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { tenantService } from '../src';

let stack: TestStack;
let host: string;
const seen: Envelope[] = [];
const companies: { a: string; b: string } = { a: '', b: '' };

beforeAll(async () => {
  // Turning encryption on needs a master key on the server (without one: policies-master-key.test.ts).
  stack = await createTestStack([tenantService], { ENCRYPTION_MASTER_KEY: randomBytes(32).toString('hex') });
  await stack.bus.subscribe({
    group: 'policies-observer',
    topics: ['earshot.tenant'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  for (const key of ['a', 'b'] as const) {
    const res = await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: `Policy ${key}`, code: `POL-${key}`, domain: `policy-${key}` },
    });
    companies[key] = res.json()._id;
  }
}, 60_000);
afterAll(async () => stack.close());

const url = (id: string) => `/api/companies/${id}/policies`;
const policies = (overrides: Record<string, unknown> = {}) => ({
  redaction: 'text',
  keepOriginal: false,
  encryption: false,
  retention: { recordingsDays: 90, chatsDays: null, auditDays: 365 },
  ...overrides,
});

test('a company starts with no redaction, nothing kept, no encryption and everything kept forever', async () => {
  const res = await stack.as(host, { method: 'GET', url: url(companies.a) });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    redaction: 'off',
    keepOriginal: false,
    encryption: false,
    retention: { recordingsDays: null, chatsDays: null, auditDays: null },
  });
});

test('HOST_ADMIN sets them: the answer and GET say so, company.policies_changed carries before and after, the same again emits nothing', async () => {
  const res = await stack.as(host, { method: 'PUT', url: url(companies.a), payload: policies() });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual(policies());
  expect((await stack.as(host, { method: 'GET', url: url(companies.a) })).json()).toEqual(policies());
  await stack.settle();
  const changed = seen.filter((e) => e.type === 'company.policies_changed');
  expect(changed).toHaveLength(1);
  expect(changed[0]).toMatchObject({
    version: 1,
    companyId: companies.a,
    data: { id: companies.a, before: { redaction: 'off' }, after: policies() },
  });
  await stack.as(host, { method: 'PUT', url: url(companies.a), payload: policies() });
  await stack.settle();
  expect(seen.filter((e) => e.type === 'company.policies_changed')).toHaveLength(1);
});

test('the company’s ADMIN reads its own policies, cannot change them, and another company’s are a 404', async () => {
  const admin = await stack.tokenFor('ADMIN', companies.a);
  expect((await stack.as(admin, { method: 'GET', url: url(companies.a) })).json()).toEqual(policies());
  expect(
    (await stack.as(admin, { method: 'PUT', url: url(companies.a), payload: policies({ redaction: 'off' }) }))
      .statusCode,
  ).toBe(403);
  expect((await stack.as(admin, { method: 'GET', url: url(companies.b) })).statusCode).toBe(404);
  expect(
    (await stack.as(await stack.tokenFor('USER', companies.a), { method: 'GET', url: url(companies.a) })).statusCode,
  ).toBe(403);
});

test('encryption at rest turns on, is carried by company.policies_changed, and cannot be turned off again (409 saying why)', async () => {
  const created = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: 'Policy enc', code: 'POL-enc', domain: 'policy-enc' },
  });
  const id = created.json()._id as string;
  const on = await stack.as(host, { method: 'PUT', url: url(id), payload: policies({ encryption: true }) });
  expect(on.statusCode).toBe(200);
  expect(on.json().encryption).toBe(true);
  await stack.settle();
  const event = seen.find((e) => e.type === 'company.policies_changed' && (e.data as { id: string }).id === id);
  expect(event?.data).toMatchObject({ before: { encryption: false }, after: { encryption: true } });
  const off = await stack.as(host, { method: 'PUT', url: url(id), payload: policies({ encryption: false }) });
  expect(off.statusCode).toBe(409);
  expect(off.json().details).toEqual([
    { field: 'body.encryption', message: expect.stringMatching(/cannot be turned off: .*stored encrypted/) },
  ]);
  expect((await stack.as(host, { method: 'GET', url: url(id) })).json().encryption).toBe(true);
});

test('keeping the unredacted original without encryption is refused with a 409 naming the field and saying to turn encryption on; nothing changes', async () => {
  const original = await stack.as(host, {
    method: 'PUT',
    url: url(companies.b),
    payload: policies({ keepOriginal: true }),
  });
  expect(original.statusCode).toBe(409);
  expect(original.json().details).toEqual([
    { field: 'body.keepOriginal', message: expect.stringMatching(/needs encryption at rest: turn encryption on/) },
  ]);
  expect((await stack.as(host, { method: 'GET', url: url(companies.b) })).json()).toMatchObject({
    redaction: 'off',
    keepOriginal: false,
    encryption: false,
  });
});

test('keeping the unredacted original with encryption on (in the same body) is accepted and announced', async () => {
  const created = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: 'Policy keep', code: 'POL-keep', domain: 'policy-keep' },
  });
  const id = created.json()._id as string;
  const kept = await stack.as(host, {
    method: 'PUT',
    url: url(id),
    payload: policies({ redaction: 'text_audio', keepOriginal: true, encryption: true }),
  });
  expect(kept.statusCode).toBe(200);
  expect(kept.json()).toMatchObject({ redaction: 'text_audio', keepOriginal: true, encryption: true });
  await stack.settle();
  const event = seen.find((e) => e.type === 'company.policies_changed' && (e.data as { id: string }).id === id);
  expect(event?.data).toMatchObject({
    before: { keepOriginal: false },
    after: { keepOriginal: true, encryption: true },
  });
  // Once encryption is on, turning keepOriginal off again is an ordinary change.
  expect(
    (
      await stack.as(host, {
        method: 'PUT',
        url: url(id),
        payload: policies({ keepOriginal: false, encryption: true }),
      })
    ).statusCode,
  ).toBe(200);
});

test('retention under the documented minimum, unknown modes and unknown fields are 400s naming the field', async () => {
  const short = await stack.as(host, {
    method: 'PUT',
    url: url(companies.b),
    payload: policies({ retention: { recordingsDays: 30, chatsDays: 30, auditDays: 364 } }),
  });
  expect(short.statusCode).toBe(400);
  expect(short.body).toContain('retention.auditDays');
  const zero = await stack.as(host, {
    method: 'PUT',
    url: url(companies.b),
    payload: policies({ retention: { recordingsDays: 0, chatsDays: null, auditDays: null } }),
  });
  expect(zero.statusCode).toBe(400);
  expect(zero.body).toContain('retention.recordingsDays');
  expect(
    (await stack.as(host, { method: 'PUT', url: url(companies.b), payload: policies({ redaction: 'audio' }) }))
      .statusCode,
  ).toBe(400);
  expect(
    (await stack.as(host, { method: 'PUT', url: url(companies.b), payload: { ...policies(), extra: 1 } })).statusCode,
  ).toBe(400);
  expect(
    (await stack.as(host, { method: 'PUT', url: url('00000000-0000-4000-8000-000000000000'), payload: policies() }))
      .statusCode,
  ).toBe(404);
});
