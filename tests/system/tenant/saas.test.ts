import type { Envelope, SaasDto } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';

// The platform overview from what the tenant service keeps: companies (made through its routes),
// members and their sign-ins (auth's events), stored bytes (file events) and the credit ledger
// (transcriptions charged from transcript.completed at a price set through /pricing). Charges of
// earlier months are backdated in SQL: only SQL can move a ledger line in time. Months are UTC.
let stack: TestStack;
let host: string;
const system = { type: 'system', id: null } as const;
const DAY = 86_400_000;

interface Company {
  _id: string;
}
let big: Company;
let small: Company;
let idle: Company;

async function company(payload: Record<string, unknown>): Promise<Company> {
  const res = await stack.as(host, { method: 'POST', url: '/api/companies', payload });
  expect(res.statusCode).toBe(201);
  return res.json() as Company;
}

async function deliver(...envelopes: Envelope[]): Promise<void> {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: envelope.type.startsWith('user.')
        ? 'earshot.auth'
        : envelope.type.startsWith('file.')
          ? 'earshot.file'
          : 'earshot.transcription',
      key: envelope.companyId ?? 'platform',
      envelope,
    })),
  );
  await stack.settle();
}

const member = (id: string, companyId: string) =>
  buildEnvelope({
    type: 'user.created',
    companyId,
    actor: system,
    data: {
      id,
      before: null,
      after: { email: `${id}@saas.test`, firstName: 'P', lastName: id.slice(0, 4), role: 'USER', companyId },
    },
  });
const signedIn = (id: string, companyId: string, daysAgo: number): Envelope => ({
  ...buildEnvelope({
    type: 'user.signed_in',
    companyId,
    actor: system,
    data: { id, email: `${id}@saas.test`, method: 'password' },
  }),
  occurredAt: new Date(Date.now() - daysAgo * DAY).toISOString(),
});
const stored = (companyId: string, size: number) =>
  buildEnvelope({
    type: 'file.uploaded',
    companyId,
    actor: system,
    data: {
      id: crypto.randomUUID(),
      storageKey: 'k',
      originalName: 'a.wav',
      mimeType: 'audio/wav',
      size,
      clientId: null,
      uploadedBy: null,
    },
  });
const transcribed = (companyId: string, duration: number) =>
  buildEnvelope({
    type: 'transcript.completed',
    companyId,
    actor: system,
    data: {
      id: crypto.randomUUID(),
      fileId: crypto.randomUUID(),
      engine: 'pocketsphinx',
      duration,
      speakers: 1,
      words: 0,
      fileName: 'a.wav',
      parts: 0,
    },
  });

const now = new Date();
const month = (back: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
const people = Array.from({ length: 5 }, () => crypto.randomUUID());

beforeAll(async () => {
  stack = await createTestStack([tenantService, billingService], { COMPANY_OPENING_CREDITS: '0' });
  host = await stack.tokenFor('HOST_ADMIN', null);
  big = await company({ name: 'Big Calls', code: 'BIG', domain: 'big', maxStorage: 5_000_000 });
  small = await company({ name: 'Small Calls', code: 'SMALL', domain: 'small', status: 'suspended' });
  idle = await company({ name: 'Idle', code: 'IDLE', domain: 'idle', status: 'inactive' });
  // 2 credits a minute of the offline engine's transcription, from now on.
  expect(
    (
      await stack.as(host, {
        method: 'POST',
        url: '/api/pricing',
        payload: { engine: 'pocketsphinx', unit: 'audio_minute', credits: 2 },
      })
    ).statusCode,
  ).toBe(201);
  await deliver(
    ...people.slice(0, 3).map((id) => member(id, big._id)),
    ...people.slice(3).map((id) => member(id, small._id)),
    // Within 30 days: people 0, 1 (twice: the later counts) and 3; person 2 signed in 31 days ago.
    signedIn(people[0]!, big._id, 1),
    signedIn(people[1]!, big._id, 40),
    signedIn(people[1]!, big._id, 29),
    signedIn(people[2]!, big._id, 31),
    signedIn(people[3]!, small._id, 0),
    // A late, older sign-in does not take back a newer one.
    signedIn(people[0]!, big._id, 60),
    stored(big._id, 1_500_000),
    stored(big._id, 500_000),
    stored(small._id, 42),
    transcribed(big._id, 90),
    transcribed(big._id, 30),
    transcribed(small._id, 60),
  );
  // An earlier charge of Big Calls, moved to two months ago; one of 13 months ago is outside the 12.
  await deliver(transcribed(big._id, 600), transcribed(small._id, 120));
  await stack.database.query(
    `update billing.credit_ledger set created_at = $2::timestamptz where company_id = $1 and measured = 600`,
    [big._id, `${month(2)}-15T12:00:00Z`],
  );
  await stack.database.query(
    `update billing.credit_ledger set created_at = $2::timestamptz where company_id = $1 and measured = 120`,
    [small._id, `${month(12)}-15T12:00:00Z`],
  );
}, 60_000);
afterAll(async () => stack?.close());

test('the platform at a glance: statuses, members active within 30 days, storage against limits, use per month and the top', async () => {
  const res = await stack.as(host, { method: 'GET', url: '/api/dashboards/saas' });
  expect(res.statusCode).toBe(200);
  const dto = res.json() as SaasDto;
  expect(dto.statuses).toEqual([
    { status: 'active', count: 1 },
    { status: 'inactive', count: 1 },
    { status: 'suspended', count: 1 },
  ]);
  expect(dto.activeUsers).toBe(3);
  expect(dto.companies).toEqual([
    {
      companyId: big._id,
      name: 'Big Calls',
      status: 'active',
      users: 3,
      activeUsers: 2,
      storageBytes: 2_000_000,
      maxStorageBytes: 5_000_000,
      transcriptionSeconds: 120,
      credits: 4,
    },
    {
      companyId: idle._id,
      name: 'Idle',
      status: 'inactive',
      users: 0,
      activeUsers: 0,
      storageBytes: 0,
      maxStorageBytes: null,
      transcriptionSeconds: 0,
      credits: 0,
    },
    {
      companyId: small._id,
      name: 'Small Calls',
      status: 'suspended',
      users: 2,
      activeUsers: 1,
      storageBytes: 42,
      maxStorageBytes: null,
      transcriptionSeconds: 60,
      credits: 2,
    },
  ]);
  expect(dto.monthly).toEqual([
    { month: month(2), companyId: big._id, transcriptionSeconds: 600, credits: 20 },
    ...[
      { month: month(0), companyId: big._id, transcriptionSeconds: 120, credits: 4 },
      { month: month(0), companyId: small._id, transcriptionSeconds: 60, credits: 2 },
    ].sort((a, b) => a.companyId.localeCompare(b.companyId)),
  ]);
  expect(dto.top).toEqual([
    { companyId: big._id, name: 'Big Calls', credits: 4, transcriptionSeconds: 120 },
    { companyId: small._id, name: 'Small Calls', credits: 2, transcriptionSeconds: 60 },
  ]);
});

test('only the platform administrator opens it', async () => {
  for (const role of ['ADMIN', 'USER', 'CALLER'] as const) {
    expect(
      (await stack.as(await stack.tokenFor(role, big._id), { method: 'GET', url: '/api/dashboards/saas' })).statusCode,
    ).toBe(403);
  }
  expect((await stack.as(null, { method: 'GET', url: '/api/dashboards/saas' })).statusCode).toBe(401);
});
