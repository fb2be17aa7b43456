import { sql } from 'drizzle-orm';
import type { Envelope } from '@earshot/contracts';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { tenantService } from '../src';

// A server with no ENCRYPTION_MASTER_KEY: the services that encrypt could not make a data key, so
// the switch is refused up front instead of every later upload of the company failing.
let stack: TestStack;
let host: string;
const seen: Envelope[] = [];

beforeAll(async () => {
  stack = await createTestStack([tenantService]);
  await stack.bus.subscribe({
    group: 'policies-master-key-observer',
    topics: ['earshot.tenant'],
    handle: async (e) => void seen.push(e),
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
}, 60_000);
afterAll(async () => stack.close());

const url = (id: string) => `/api/companies/${id}/policies`;
const policies = (overrides: Record<string, unknown> = {}) => ({
  redaction: 'off',
  keepOriginal: false,
  encryption: false,
  retention: { recordingsDays: null, chatsDays: null, auditDays: null },
  ...overrides,
});

async function createCompany(key: string): Promise<string> {
  const created = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: `No key ${key}`, code: `NOKEY-${key}`, domain: `nokey-${key}` },
  });
  expect(created.statusCode).toBe(201);
  return created.json()._id as string;
}

test('turning encryption on without a master key is refused with 409 naming ENCRYPTION_MASTER_KEY, and nothing changes', async () => {
  const id = await createCompany('a');
  const refused = await stack.as(host, {
    method: 'PUT',
    url: url(id),
    // The rest of the body is not saved either: the request is refused whole.
    payload: policies({
      encryption: true,
      redaction: 'text',
      retention: { recordingsDays: 30, chatsDays: null, auditDays: null },
    }),
  });
  expect(refused.statusCode).toBe(409);
  expect(refused.json()).toEqual({
    message: expect.stringContaining('ENCRYPTION_MASTER_KEY'),
    code: 'CONFLICT',
    details: [{ field: 'body.encryption', message: expect.stringContaining('ENCRYPTION_MASTER_KEY') }],
  });

  expect((await stack.as(host, { method: 'GET', url: url(id) })).json()).toEqual(policies());
  const stored = (await stack.database.db.execute(
    sql`select encryption from tenant.companies where id = ${id}`,
  )) as unknown as { rows: unknown[] };
  expect(stored.rows).toEqual([{ encryption: false }]);
  await stack.settle();
  expect(seen.filter((e) => e.type === 'company.policies_changed' && e.companyId === id)).toEqual([]);
});

test('without a master key the other policies are still set', async () => {
  const id = await createCompany('b');
  const saved = await stack.as(host, { method: 'PUT', url: url(id), payload: policies({ redaction: 'text' }) });
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toEqual(policies({ redaction: 'text' }));
});

test('a company already encrypting (switched on while a key was configured) keeps its switch and its other policies can change', async () => {
  const id = await createCompany('c');
  await stack.database.db.execute(sql`update tenant.companies set encryption = true where id = ${id}`);
  const saved = await stack.as(host, {
    method: 'PUT',
    url: url(id),
    payload: policies({ encryption: true, redaction: 'text' }),
  });
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toEqual(policies({ encryption: true, redaction: 'text' }));
});

test('the encryption progress says no master key is configured, so the console can disable the switch', async () => {
  const id = await createCompany('d');
  const res = await stack.as(host, { method: 'GET', url: `/api/companies/${id}/encryption` });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ encryption: false, masterKeyConfigured: false });
});

test('the company fields cannot change encryption: only the policies can, where the master key is checked', async () => {
  const id = await createCompany('e');
  const on = await stack.as(host, { method: 'PUT', url: `/api/companies/${id}`, payload: { encryption: true } });
  expect(on.statusCode).toBe(409);
  expect(on.json()).toMatchObject({
    code: 'CONFLICT',
    details: [{ field: 'body.encryption', message: expect.stringContaining('/policies') }],
  });
  // The value it already has is accepted, as a form that sends every field does.
  const same = await stack.as(host, {
    method: 'PUT',
    url: `/api/companies/${id}`,
    payload: { encryption: false, name: 'No key e renamed' },
  });
  expect(same.statusCode).toBe(200);
  const created = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: 'Born encrypted', code: 'NOKEY-F', domain: 'nokey-f', encryption: true },
  });
  expect(created.statusCode).toBe(409);
  const stored = (await stack.database.db.execute(
    sql`select encryption from tenant.companies where id = ${id} or domain = 'nokey-f'`,
  )) as unknown as { rows: unknown[] };
  expect(stored.rows).toEqual([{ encryption: false }]);
});
