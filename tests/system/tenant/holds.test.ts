import { randomUUID } from 'node:crypto';
import { createTestStack, serveUnmeteredCredits, type TestStack } from '@earshot/kit/testing';
import { auditService } from '@earshot/audit-service';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { tenantService } from '@earshot/tenant-service';
import { uploadRequest, wavHeader } from '../../../services/file/test/helpers';

// Legal holds on clients and companies, through the tenant's routes and on to the
// services that delete recordings: a held client or company cannot be deleted, nor can the
// recordings they cover, and each placing and lifting is in the audit log with who and why.
let stack: TestStack;
let host: string;
const hostId = randomUUID();
const a = { id: '', admin: '', adminId: randomUUID(), caller: '', user: '' };
const b = { id: '', admin: '' };
const silence = Buffer.concat([wavHeader(32_000), Buffer.alloc(32_000)]);

async function createCompany(code: string): Promise<string> {
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name: `Hold ${code}`, code, domain: code.toLowerCase() },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { _id: string })._id;
}

async function createClient(token: string, name: string): Promise<string> {
  const res = await stack.as(token, { method: 'POST', url: '/api/clients', payload: { name } });
  expect(res.statusCode).toBe(201);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}

const clientHold = (token: string, id: string, payload: unknown) =>
  stack.as(token, { method: 'PUT', url: `/api/clients/${id}/hold`, payload: payload as Record<string, unknown> });
const companyHold = (token: string, id: string, payload: unknown) =>
  stack.as(token, { method: 'PUT', url: `/api/companies/${id}/hold`, payload: payload as Record<string, unknown> });
const audited = (type: string, id: string) =>
  stack.database.query<{ actor: { id: string }; data: { hold: boolean; reason: string } }>(
    'select actor, data from audit.entries where type = $1 and target_id = $2 order by seq',
    [type, id],
  );

beforeAll(async () => {
  stack = await createTestStack([tenantService, fileService, transcriptionService, auditService], {
    TRANSCRIPTION_WORKER: 'false',
  });
  serveUnmeteredCredits(stack.database);
  host = await stack.tokenFor('HOST_ADMIN', null, hostId);
  a.id = await createCompany('HOLDA');
  b.id = await createCompany('HOLDB');
  await stack.settle();
  a.admin = await stack.tokenFor('ADMIN', a.id, a.adminId);
  a.caller = await stack.tokenFor('CALLER', a.id);
  a.user = await stack.tokenFor('USER', a.id);
  b.admin = await stack.tokenFor('ADMIN', b.id);
}, 120_000);
afterAll(async () => stack.close());

test('a client’s hold: its ADMIN or HOST_ADMIN place it, CALLER and USER may not, another company’s client is a 404', async () => {
  const client = await createClient(a.caller, 'Dispute Ltd');
  const payload = { hold: true, reason: 'Dispute 2026-9' };
  expect((await clientHold(a.caller, client, payload)).statusCode).toBe(403);
  expect((await clientHold(a.user, client, payload)).statusCode).toBe(403);
  expect((await clientHold(b.admin, client, payload)).statusCode).toBe(404);
  expect((await clientHold(a.admin, randomUUID(), payload)).statusCode).toBe(404);
  const placed = await clientHold(a.admin, client, payload);
  expect(placed.statusCode).toBe(200);
  expect(placed.json()).toEqual({ hold: true, reason: 'Dispute 2026-9', by: a.adminId, at: expect.any(String) });
  const lifted = await clientHold(host, client, { hold: false, reason: '  Settled out of court ' });
  expect(lifted.json()).toEqual({ hold: false, reason: 'Settled out of court', by: hostId, at: expect.any(String) });
  // Lifting what is not held changes nothing and announces nothing.
  expect((await clientHold(a.admin, client, { hold: false, reason: 'again' })).json().reason).toBe(
    'Settled out of court',
  );
  await stack.settle();
  expect((await audited('client.hold_changed', client)).map((e) => [e.data.hold, e.data.reason, e.actor.id])).toEqual([
    [true, 'Dispute 2026-9', a.adminId],
    [false, 'Settled out of court', hostId],
  ]);
});

test('the reason is required both ways and checked, each refusal naming the field', async () => {
  const client = await createClient(a.admin, 'Checked');
  for (const [payload, field] of [
    [{ hold: true }, 'body.reason'],
    [{ hold: false, reason: '' }, 'body.reason'],
    [{ hold: true, reason: ' \t ' }, 'body.reason'],
    [{ hold: true, reason: 'x'.repeat(501) }, 'body.reason'],
    [{ hold: true, reason: 'null\u0000byte' }, 'body.reason'],
    [{ reason: 'no hold' }, 'body.hold'],
  ] as const) {
    const res = await clientHold(a.admin, client, payload);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(field);
  }
  expect((await companyHold(host, a.id, { hold: true, reason: 'ok', extra: 1 })).statusCode).toBe(400);
});

test('a held client cannot be deleted, nor can its linked recording; lifted, both can', async () => {
  const client = await createClient(a.admin, 'Keep me');
  const upload = await stack.as(a.admin, uploadRequest(silence, 'call.wav', { clientId: client }));
  expect(upload.statusCode).toBe(201);
  const fileId = (upload.json() as { _id: string })._id;
  await stack.settle();
  await clientHold(a.admin, client, { hold: true, reason: 'Subpoena 12' });
  await stack.settle();
  const refused = await stack.as(a.admin, { method: 'DELETE', url: `/api/clients/${client}` });
  expect(refused.statusCode).toBe(409);
  expect(refused.json().message).toBe('This client is under legal hold: lift the hold before deleting it');
  const recording = await stack.as(a.admin, { method: 'DELETE', url: `/api/transcripts/${fileId}` });
  expect(recording.statusCode).toBe(409);
  expect(recording.json().message).toMatch(/client is under legal hold/);

  await clientHold(a.admin, client, { hold: false, reason: 'Subpoena withdrawn' });
  await stack.settle();
  expect((await stack.as(a.admin, { method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(200);
  expect((await stack.as(a.admin, { method: 'DELETE', url: `/api/clients/${client}` })).statusCode).toBe(200);
});

test('a company’s hold is HOST_ADMIN’s: while held the company, its clients and its recordings are not deleted', async () => {
  const client = await createClient(a.admin, 'Under company hold');
  const upload = await stack.as(a.user, uploadRequest(silence, 'call.wav'));
  const fileId = (upload.json() as { _id: string })._id;
  await stack.settle();
  expect((await companyHold(a.admin, a.id, { hold: true, reason: 'Regulator' })).statusCode).toBe(403);
  expect((await companyHold(host, randomUUID(), { hold: true, reason: 'Regulator' })).statusCode).toBe(404);
  const placed = await companyHold(host, a.id, { hold: true, reason: 'Regulator inquiry 4' });
  expect(placed.json()).toMatchObject({ hold: true, reason: 'Regulator inquiry 4', by: hostId });
  await stack.settle();

  const company = await stack.as(host, { method: 'DELETE', url: `/api/companies/${a.id}` });
  expect(company.statusCode).toBe(409);
  expect(company.json().message).toBe(
    'This company is under legal hold: nothing of it can be deleted until the hold is lifted',
  );
  expect((await stack.as(host, { method: 'GET', url: `/api/companies/${a.id}` })).json().status).toBe('active');
  expect((await stack.as(a.admin, { method: 'DELETE', url: `/api/clients/${client}` })).statusCode).toBe(409);
  expect((await stack.as(a.user, { method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(409);
  // Company B is not held.
  expect(
    (await stack.as(b.admin, { method: 'DELETE', url: `/api/clients/${await createClient(b.admin, 'Free')}` }))
      .statusCode,
  ).toBe(200);

  const lifted = await companyHold(host, a.id, { hold: false, reason: 'Inquiry closed' });
  expect(lifted.json()).toMatchObject({ hold: false, reason: 'Inquiry closed', by: hostId });
  await stack.settle();
  expect((await audited('company.hold_changed', a.id)).map((e) => [e.data.hold, e.data.reason, e.actor.id])).toEqual([
    [true, 'Regulator inquiry 4', hostId],
    [false, 'Inquiry closed', hostId],
  ]);
  expect((await stack.as(a.user, { method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(200);
  expect((await stack.as(a.admin, { method: 'DELETE', url: `/api/clients/${client}` })).statusCode).toBe(200);
});

test('a hold in force reads back on the client (detail and list) and the company (detail and list), and is gone once lifted', async () => {
  const client = await createClient(a.admin, 'Read back');
  await clientHold(a.admin, client, { hold: true, reason: 'Complaint 77' });
  const detail = await stack.as(a.admin, { method: 'GET', url: `/api/clients/${client}` });
  expect(detail.json().hold).toEqual({ reason: 'Complaint 77', by: a.adminId, at: expect.any(String) });
  const listed = (await stack.as(a.admin, { method: 'GET', url: '/api/clients?search=Read%20back' })).json().items as {
    _id: string;
    hold: unknown;
  }[];
  expect(listed.find((c) => c._id === client)?.hold).toMatchObject({ reason: 'Complaint 77' });
  // Another company's admin still cannot see the client, hold or not.
  expect((await stack.as(b.admin, { method: 'GET', url: `/api/clients/${client}` })).statusCode).toBe(404);

  await companyHold(host, a.id, { hold: true, reason: 'Audit season' });
  // A company is read by HOST_ADMIN only (an ADMIN reads their policies, not the company row).
  expect((await stack.as(host, { method: 'GET', url: `/api/companies/${a.id}` })).json().hold).toEqual({
    reason: 'Audit season',
    by: hostId,
    at: expect.any(String),
  });
  const companies = (await stack.as(host, { method: 'GET', url: '/api/companies?pageSize=100' })).json().items as {
    _id: string;
    hold: unknown;
  }[];
  expect(companies.find((c) => c._id === a.id)?.hold).toMatchObject({ reason: 'Audit season' });
  expect(companies.find((c) => c._id === b.id)?.hold).toBeNull();

  await companyHold(host, a.id, { hold: false, reason: 'Season over' });
  await clientHold(a.admin, client, { hold: false, reason: 'Resolved' });
  expect((await stack.as(host, { method: 'GET', url: `/api/companies/${a.id}` })).json().hold).toBeNull();
  expect((await stack.as(a.admin, { method: 'GET', url: `/api/clients/${client}` })).json().hold).toBeNull();
});
