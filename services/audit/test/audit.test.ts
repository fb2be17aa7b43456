import { randomUUID } from 'node:crypto';
import { eventDefinition, type Actor, type Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { tenantService } from '@earshot/tenant-service';
import { auditService } from '../src';
import { AuditLog } from '../src/services/audit';
import { redact, REDACTED } from '../src/services/record';

let stack: TestStack;
let host: string;
const hostId = randomUUID();
const companyA = randomUUID();
const companyB = randomUUID();
const alice: Actor = { type: 'user', id: randomUUID(), email: 'alice@a.test', role: 'ADMIN', ip: '203.0.113.7' };

beforeAll(async () => {
  stack = await createTestStack([auditService, tenantService]);
  host = await stack.tokenFor('HOST_ADMIN', null, hostId);
}, 60_000);
afterAll(async () => stack.close());

/** The topic of a catalogued type; a type from a newer producer goes where its domain's events go. */
const eventTopic = (type: string) => (type.startsWith('company.') ? 'earshot.tenant' : eventDefinition(type).topic);

/** Publishes envelopes as the auth service (or any producer) would, and waits for the log. */
async function publish(...envelopes: Envelope[]) {
  await stack.bus.publish(envelopes.map((envelope) => ({ topic: eventTopic(envelope.type), key: envelope.companyId ?? 'platform', envelope })));
  await stack.settle();
}

async function audit(query = '') {
  const res = await stack.as(host, { method: 'GET', url: `/api/audit${query}` });
  expect(res.statusCode).toBe(200);
  return res.json() as { items: { _id: string; type: string; occurredAt: string; companyId: string | null; actor: Actor; target: { type: string; id: string | null }; before: unknown; after: unknown; data: Record<string, unknown> }[]; total: number; totalPages: number; page: number; pageSize: number };
}

async function entryCount(): Promise<number> {
  return Number((await stack.database.query<{ n: string }>('select count(*)::text as n from audit.entries'))[0]!.n);
}

describe('what the log records', () => {
  test('sign-ins, successful and failed, show up with who, where and what', async () => {
    const userId = alice.id!;
    const signedIn = buildEnvelope({ type: 'user.signed_in', companyId: companyA, actor: alice, data: { id: userId, email: alice.email!, method: 'password' } });
    const failed = buildEnvelope({
      type: 'user.sign_in_failed', companyId: null, actor: { type: 'system', id: null, ip: '198.51.100.9' },
      data: { id: null, email: 'nobody@a.test', reason: 'invalid_credentials' },
    });
    await publish(signedIn, failed);

    const ok = (await audit('?type=user.signed_in')).items;
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ _id: signedIn.id, type: 'user.signed_in', companyId: companyA, actor: alice, target: { type: 'user', id: userId }, before: null, after: null });
    const bad = (await audit('?type=user.sign_in_failed')).items;
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({ actor: { type: 'system', id: null, ip: '198.51.100.9' }, target: { type: 'user', id: null }, data: { email: 'nobody@a.test', reason: 'invalid_credentials' } });
  });

  test('user changes show up with before and after', async () => {
    const id = randomUUID();
    const before = { email: 'bob@a.test', firstName: 'Bob', lastName: 'B', role: 'USER' as const, companyId: companyA };
    const after = { ...before, role: 'ADMIN' as const };
    await publish(
      buildEnvelope({ type: 'user.created', companyId: companyA, actor: alice, data: { id, before: null, after: before } }),
      buildEnvelope({ type: 'user.updated', companyId: companyA, actor: alice, data: { id, before, after } }),
    );
    const items = (await audit(`?type=user.updated&actorId=${alice.id}`)).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ target: { type: 'user', id }, before: { role: 'USER' }, after: { role: 'ADMIN' } });
  });

  test('company changes made through the tenant API show up with the platform administrator as actor', async () => {
    const created = await stack.as(host, { method: 'POST', url: '/api/companies', payload: { name: 'Audited', code: 'AUD', domain: 'audited' } });
    expect(created.statusCode).toBe(201);
    const { _id: id, apiKey } = created.json();
    await stack.as(host, { method: 'PUT', url: `/api/companies/${id}`, payload: { status: 'suspended' } });
    await stack.as(host, { method: 'POST', url: `/api/companies/${id}/api-key` });
    await stack.as(host, { method: 'DELETE', url: `/api/companies/${id}` });
    await stack.settle();

    const log = await audit(`?companyId=${id}`);
    expect(log.items.map((e) => e.type)).toEqual(['company.deleted', 'company.api_key_rotated', 'company.updated', 'company.created']);
    for (const entry of log.items) {
      // The service names the actor from the identity it is given, address included.
      expect(entry.actor).toMatchObject({ type: 'user', id: hostId, role: 'HOST_ADMIN', ip: '127.0.0.1' });
      expect(entry.target).toEqual({ type: 'company', id });
    }
    const updated = log.items.find((e) => e.type === 'company.updated')!;
    expect(updated.before).toMatchObject({ status: 'active', code: 'AUD' });
    expect(updated.after).toMatchObject({ status: 'suspended', code: 'AUD' });
    expect(log.items.find((e) => e.type === 'company.deleted')!).toMatchObject({ before: { domain: 'audited' }, after: null });
    // The key shown at creation is nowhere in the log.
    expect(JSON.stringify(log)).not.toContain(apiKey);
  });

  test('secret-looking fields are redacted before they are stored, at any depth', async () => {
    const id = randomUUID();
    const reset = buildEnvelope({ type: 'user.password_reset_requested', companyId: companyB, actor: { type: 'system', id: null }, data: { id, email: 'c@b.test', resetUrl: 'https://b.example/reset?token=s3cr3t-token' } });
    // A producer of a newer version (not in this catalogue yet) with secrets nested in its data.
    const future: Envelope = {
      id: randomUUID(), type: 'company.integration_added', version: 1, occurredAt: new Date().toISOString(), companyId: companyB, actor: alice,
      data: { id: 'int-1', after: { name: 'CRM', credentials: { apiKey: 'sk-live-xyz', clientSecret: 'very-secret' }, hooks: [{ url: 'https://h', authToken: 'tok-1' }] } },
    };
    await publish(reset, future);

    const stored = await stack.database.query<{ data: unknown; after: unknown }>('select data, after from audit.entries where id = any($1::uuid[])', [[reset.id, future.id]]);
    const text = JSON.stringify(stored);
    for (const secret of ['s3cr3t-token', 'sk-live-xyz', 'very-secret', 'tok-1']) expect(text).not.toContain(secret);
    const entry = (await audit(`?type=company.integration_added`)).items[0]!;
    expect(entry.after).toEqual({ name: 'CRM', credentials: REDACTED, hooks: [{ url: 'https://h', authToken: REDACTED }] });
    expect((await audit('?type=user.password_reset_requested')).items[0]!.data).toEqual({ id, email: 'c@b.test', resetUrl: REDACTED });
  });

  test('redact keeps everything that is not a secret', () => {
    expect(redact({ id: 'x', list: [1, { password: 'p', name: 'n' }], nested: { token: null, keep: true }, n: 3 }))
      .toEqual({ id: 'x', list: [1, { password: REDACTED, name: 'n' }], nested: { token: REDACTED, keep: true }, n: 3 });
  });

  test('transcript text and sealed provider keys stay out of the log', () => {
    expect(redact({ id: 't', segments: [{ text: 'private words' }, { text: 'more' }], segmentText: 'edited words', apiKeySealed: 'v1:abc' }))
      .toEqual({ id: 't', segments: '[2 items omitted]', segmentText: '[omitted]', apiKeySealed: REDACTED });
  });

  test('a redelivered event is stored once', async () => {
    const event = buildEnvelope({ type: 'user.signed_out', companyId: companyA, actor: alice, data: { id: alice.id! } });
    await publish(event);
    const count = await entryCount();
    await publish(event, event);
    expect(await entryCount()).toBe(count);
    expect((await audit('?type=user.signed_out')).total).toBe(1);
  });

  test('transcript events target the file when they name no transcript id', async () => {
    const fileId = randomUUID();
    await publish(buildEnvelope({ type: 'transcript.status_changed', companyId: companyA, actor: { type: 'system', id: null }, data: { fileId, status: 'processing' } }));
    expect((await audit('?type=transcript.status_changed')).items[0]!.target).toEqual({ type: 'transcript', id: fileId });
  });
});

describe('querying the log', () => {
  const old = (iso: string, companyId: string, actor: Actor): Envelope => ({
    id: randomUUID(), type: 'user.signed_out', version: 1, occurredAt: iso, companyId, actor, data: { id: actor.id },
  });
  const bob: Actor = { type: 'user', id: randomUUID(), email: 'bob@b.test', role: 'USER' };
  const history = [
    old('2020-01-01T10:00:00.000Z', companyA, alice),
    old('2020-01-02T10:00:00.000Z', companyB, bob),
    old('2020-01-03T10:00:00.000Z', companyA, bob),
    old('2020-01-03T23:30:00.000Z', companyB, alice),
  ];
  beforeAll(async () => publish(...history));

  test('newest first, paginated', async () => {
    const all = await audit('?pageSize=3');
    expect(all.total).toBeGreaterThan(history.length);
    expect(all.totalPages).toBe(Math.ceil(all.total / 3));
    const times = all.items.map((e) => e.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);
    const last = await audit(`?pageSize=3&page=${all.totalPages}`);
    expect(last.items.at(-1)!._id).toBe(history[0]!.id);
  });

  test('by date range: ISO date-times, and bare dates covering the whole UTC day', async () => {
    const range = await audit('?from=2020-01-02T00:00:00Z&to=2020-01-03T12:00:00%2B00:00');
    expect(range.items.map((e) => e._id)).toEqual([history[2]!.id, history[1]!.id]);
    const day = await audit('?from=2020-01-03&to=2020-01-03');
    expect(day.items.map((e) => e._id)).toEqual([history[3]!.id, history[2]!.id]);
    expect((await audit('?to=2020-01-01')).items.map((e) => e._id)).toEqual([history[0]!.id]);
  });

  test('by company, actor and type (exact or prefix), combined', async () => {
    const byCompany = await audit(`?companyId=${companyB}&to=2020-12-31`);
    expect(byCompany.items.map((e) => e._id)).toEqual([history[3]!.id, history[1]!.id]);
    const byActor = await audit(`?actorId=${bob.id}`);
    expect(byActor.items.map((e) => e._id)).toEqual([history[2]!.id, history[1]!.id]);
    const both = await audit(`?actorId=${bob.id}&companyId=${companyA}`);
    expect(both.items.map((e) => e._id)).toEqual([history[2]!.id]);

    const users = await audit('?type=user.');
    expect(users.total).toBeGreaterThan(0);
    expect(users.items.every((e) => e.type.startsWith('user.'))).toBe(true);
    const companies = await audit('?type=company.');
    expect(companies.items.every((e) => e.type.startsWith('company.'))).toBe(true);
    // Without the dot it is an exact type: "user" alone matches nothing; "_" is not a wildcard.
    expect((await audit('?type=user')).total).toBe(0);
    expect((await audit('?type=user.signed_')).total).toBe(0);
    expect((await audit('?type=user.signed_in')).total).toBe(1);
  });

  test('the service takes a plain identity and scopes by it: a company identity never reads another company', async () => {
    const log = new AuditLog(stack.running.contexts.get('audit')!);
    const admin = { userId: alice.id!, companyId: companyA, role: 'ADMIN' as const, email: alice.email!, via: 'bearer' as const, ip: '127.0.0.1', sessionId: 'test-session' };
    const asked = await log.list(admin, { companyId: companyB, to: '2020-12-31', page: 1, pageSize: 50 });
    expect(asked.items.map((e) => e._id)).toEqual([history[2]!.id, history[0]!.id]);
  });

  test.each([
    ['from', '?from=yesterday'],
    ['from', '?from=2020-13-01'],
    ['to', '?to=2020-01-01T25:00:00Z'],
    ['from', '?from=2020-02-01&to=2020-01-01'],
    ['type', '?type=DROP%20TABLE'],
    ['pageSize', '?pageSize=0'],
    ['sort', '?sort=asc'],
  ])('a bad %s is a 400 naming it', async (field, query) => {
    const res = await stack.as(host, { method: 'GET', url: `/api/audit${query}` });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(field);
  });
});

describe('protection', () => {
  test('only the platform administrator reads the log: anonymous 401, other roles 403', async () => {
    expect((await stack.as(null, { method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
    for (const role of ['ADMIN', 'USER', 'CALLER'] as const) {
      expect((await stack.as(await stack.tokenFor(role, companyA), { method: 'GET', url: '/api/audit' })).statusCode).toBe(403);
    }
  });

  test('there is no route that changes the log', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect((await stack.as(host, { method, url: '/api/audit', payload: {} })).statusCode).toBe(404);
    }
  });

  test('the table itself refuses UPDATE, DELETE and TRUNCATE', async () => {
    const count = await entryCount();
    await expect(stack.database.query("update audit.entries set type = 'forged'")).rejects.toThrow(/append-only/);
    await expect(stack.database.query('delete from audit.entries')).rejects.toThrow(/append-only/);
    await expect(stack.database.query('truncate audit.entries')).rejects.toThrow(/append-only/);
    expect(await entryCount()).toBe(count);
    expect((await audit('?type=forged')).total).toBe(0);
  });
});
