import { randomUUID } from 'node:crypto';
import { eventDefinition, type Actor, type Envelope } from '@earshot/contracts';
import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { auditService } from '@earshot/audit-service';
import { AuditLog } from '../../../services/audit/src/services/audit';
import { redact, REDACTED } from '../../../services/audit/src/services/record';
import { parseCsv } from '../../../services/audit/src/services/export-file';

let stack: TestStack;
let host: string;
const hostId = randomUUID();
const companyA = randomUUID();
const companyB = randomUUID();
const alice: Actor = { type: 'user', id: randomUUID(), email: 'alice@a.test', role: 'ADMIN', ip: '203.0.113.7' };

beforeAll(async () => {
  stack = await createTestStack([auditService, tenantService, billingService]);
  host = await stack.tokenFor('HOST_ADMIN', null, hostId);
}, 60_000);
afterAll(async () => stack.close());

/** The topic of a catalogued type; a type from a newer producer goes where its domain's events go. */
const eventTopic = (type: string) => (type.startsWith('company.') ? 'earshot.tenant' : eventDefinition(type).topic);

/** Publishes envelopes as the auth service (or any producer) would, and waits for the log. */
async function publish(...envelopes: Envelope[]) {
  await stack.bus.publish(
    envelopes.map((envelope) => ({
      topic: eventTopic(envelope.type),
      key: envelope.companyId ?? 'platform',
      envelope,
    })),
  );
  await stack.settle();
}

async function audit(query = '') {
  const res = await stack.as(host, { method: 'GET', url: `/api/audit${query}` });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    items: {
      _id: string;
      type: string;
      occurredAt: string;
      companyId: string | null;
      actor: Actor;
      target: { type: string; id: string | null };
      before: unknown;
      after: unknown;
      data: Record<string, unknown>;
    }[];
    total: number;
    totalPages: number;
    page: number;
    pageSize: number;
  };
}

async function entryCount(): Promise<number> {
  return Number((await stack.database.query<{ n: string }>('select count(*)::text as n from audit.entries'))[0]!.n);
}

describe('what the log records', () => {
  test('sign-ins, successful and failed, show up with who, where and what', async () => {
    const userId = alice.id!;
    const signedIn = buildEnvelope({
      type: 'user.signed_in',
      companyId: companyA,
      actor: alice,
      data: { id: userId, email: alice.email!, method: 'password' },
    });
    const failed = buildEnvelope({
      type: 'user.sign_in_failed',
      companyId: null,
      actor: { type: 'system', id: null, ip: '198.51.100.9' },
      data: { id: null, email: 'nobody@a.test', reason: 'invalid_credentials' },
    });
    await publish(signedIn, failed);

    const ok = (await audit('?type=user.signed_in')).items;
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({
      _id: signedIn.id,
      type: 'user.signed_in',
      companyId: companyA,
      actor: alice,
      target: { type: 'user', id: userId },
      before: null,
      after: null,
    });
    const bad = (await audit('?type=user.sign_in_failed')).items;
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({
      actor: { type: 'system', id: null, ip: '198.51.100.9' },
      target: { type: 'user', id: null },
      data: { email: 'nobody@a.test', reason: 'invalid_credentials' },
    });
  });

  test('user changes show up with before and after', async () => {
    const id = randomUUID();
    const before = { email: 'bob@a.test', firstName: 'Bob', lastName: 'B', role: 'USER' as const, companyId: companyA };
    const after = { ...before, role: 'ADMIN' as const };
    await publish(
      buildEnvelope({
        type: 'user.created',
        companyId: companyA,
        actor: alice,
        data: { id, before: null, after: before },
      }),
      buildEnvelope({ type: 'user.updated', companyId: companyA, actor: alice, data: { id, before, after } }),
    );
    const items = (await audit(`?type=user.updated&actorId=${alice.id}`)).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      target: { type: 'user', id },
      before: { role: 'USER' },
      after: { role: 'ADMIN' },
    });
  });

  test('company changes made through the tenant API show up with the platform administrator as actor', async () => {
    const created = await stack.as(host, {
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'Audited', code: 'AUD', domain: 'audited' },
    });
    expect(created.statusCode).toBe(201);
    const { _id: id, apiKey } = created.json();
    await stack.as(host, { method: 'PUT', url: `/api/companies/${id}`, payload: { status: 'suspended' } });
    await stack.as(host, { method: 'POST', url: `/api/companies/${id}/api-key` });
    await stack.as(host, { method: 'DELETE', url: `/api/companies/${id}` });
    await stack.settle();

    const log = await audit(`?companyId=${id}`);
    // The tenant's and billing's own reports that they removed the company's data close the
    // deletion here. The company's opening credits are granted with it, and logged like any grant.
    expect(log.items.map((e) => e.type)).toEqual([
      'company.data_removed',
      'company.data_removed',
      'company.deleted',
      'company.api_key_rotated',
      'company.updated',
      'credits.granted',
      'company.created',
    ]);
    expect(log.items[0]).toMatchObject({ actor: { type: 'user', id: hostId }, after: null });
    expect(log.items[1]).toMatchObject({ actor: { type: 'user', id: hostId }, after: null });
    log.items.splice(0, 2);
    for (const entry of log.items) {
      // The service names the actor from the identity it is given, address included.
      expect(entry.actor).toMatchObject({ type: 'user', id: hostId, role: 'HOST_ADMIN', ip: '127.0.0.1' });
      if (entry.type === 'credits.granted') expect(entry.target).toEqual({ type: 'credits', id: expect.any(String) });
      else expect(entry.target).toEqual({ type: 'company', id });
    }
    const updated = log.items.find((e) => e.type === 'company.updated')!;
    expect(updated.before).toMatchObject({ status: 'active', code: 'AUD' });
    expect(updated.after).toMatchObject({ status: 'suspended', code: 'AUD' });
    expect(log.items.find((e) => e.type === 'company.deleted')!).toMatchObject({
      before: { domain: 'audited' },
      after: null,
    });
    // The key shown at creation is nowhere in the log.
    expect(JSON.stringify(log)).not.toContain(apiKey);
  });

  test('secret-looking fields are redacted before they are stored, at any depth', async () => {
    const id = randomUUID();
    const reset = buildEnvelope({
      type: 'user.password_reset_requested',
      companyId: companyB,
      actor: { type: 'system', id: null },
      data: {
        id,
        email: 'c@b.test',
        firstName: 'C',
        lastName: 'B',
        sealedLink: 'v1:s3cr3t-token',
        expiresInMinutes: 30,
      },
    });
    // A producer of a newer version (not in this catalogue yet) with secrets nested in its data.
    const future: Envelope = {
      id: randomUUID(),
      type: 'company.integration_added',
      version: 1,
      occurredAt: new Date().toISOString(),
      companyId: companyB,
      actor: alice,
      data: {
        id: 'int-1',
        after: {
          name: 'CRM',
          credentials: { apiKey: 'sk-live-xyz', clientSecret: 'very-secret' },
          hooks: [{ url: 'https://h', authToken: 'tok-1' }],
        },
      },
    };
    await publish(reset, future);

    const stored = await stack.database.query<{ data: unknown; after: unknown }>(
      'select data, after from audit.entries where id = any($1::uuid[])',
      [[reset.id, future.id]],
    );
    const text = JSON.stringify(stored);
    for (const secret of ['s3cr3t-token', 'sk-live-xyz', 'very-secret', 'tok-1']) expect(text).not.toContain(secret);
    const entry = (await audit(`?type=company.integration_added`)).items[0]!;
    expect(entry.after).toEqual({
      name: 'CRM',
      credentials: REDACTED,
      hooks: [{ url: 'https://h', authToken: REDACTED }],
    });
    expect((await audit('?type=user.password_reset_requested')).items[0]!.data).toEqual({
      id,
      email: 'c@b.test',
      firstName: 'C',
      lastName: 'B',
      sealedLink: REDACTED,
      expiresInMinutes: 30,
    });
  });

  test('redact keeps everything that is not a secret', () => {
    expect(
      redact({ id: 'x', list: [1, { password: 'p', name: 'n' }], nested: { token: null, keep: true }, n: 3 }),
    ).toEqual({ id: 'x', list: [1, { password: REDACTED, name: 'n' }], nested: { token: REDACTED, keep: true }, n: 3 });
  });

  test('transcript text and sealed provider keys stay out of the log', () => {
    expect(
      redact({
        id: 't',
        segments: [{ text: 'private words' }, { text: 'more' }],
        segmentText: 'edited words',
        apiKeySealed: 'v1:abc',
      }),
    ).toEqual({ id: 't', segments: '[2 items omitted]', segmentText: '[omitted]', apiKeySealed: REDACTED });
  });

  test('a redelivered event is stored once', async () => {
    const event = buildEnvelope({
      type: 'user.signed_out',
      companyId: companyA,
      actor: alice,
      data: { id: alice.id! },
    });
    await publish(event);
    const count = await entryCount();
    await publish(event, event);
    expect(await entryCount()).toBe(count);
    expect((await audit('?type=user.signed_out')).total).toBe(1);
  });

  test('events that arrive together, a redelivered one among them, are each stored once and in their order', async () => {
    const before = buildEnvelope({
      type: 'user.signed_out',
      companyId: companyA,
      actor: alice,
      data: { id: alice.id! },
    });
    await publish(before);
    const burst = Array.from({ length: 30 }, () =>
      buildEnvelope({ type: 'user.signed_out', companyId: companyA, actor: alice, data: { id: alice.id! } }),
    );
    await publish(...burst.slice(0, 15), before, ...burst.slice(15), burst[3]!);
    const rows = await stack.database.query<{ id: string }>(
      'select id::text from audit.entries where id = any($1::uuid[]) order by seq',
      [[before, ...burst].map((e) => e.id)],
    );
    expect(rows.map((r) => r.id)).toEqual([before, ...burst].map((e) => e.id));
  });

  test('transcript events target the file when they name no transcript id', async () => {
    const fileId = randomUUID();
    await publish(
      buildEnvelope({
        type: 'transcript.status_changed',
        companyId: companyA,
        actor: { type: 'system', id: null },
        data: { fileId, status: 'processing' },
      }),
    );
    expect((await audit('?type=transcript.status_changed')).items[0]!.target).toEqual({
      type: 'transcript',
      id: fileId,
    });
  });
});

describe('querying the log', () => {
  const old = (iso: string, companyId: string, actor: Actor): Envelope => ({
    id: randomUUID(),
    type: 'user.signed_out',
    version: 1,
    occurredAt: iso,
    companyId,
    actor,
    data: { id: actor.id },
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
    const admin = {
      userId: alice.id!,
      companyId: companyA,
      role: 'ADMIN' as const,
      email: alice.email!,
      via: 'bearer' as const,
      ip: '127.0.0.1',
      sessionId: 'test-session',
    };
    const asked = await log.list(admin, {
      companyId: companyB,
      to: '2020-12-31',
      page: 1,
      pageSize: 50,
      withTotal: true,
    });
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
    ['withTotal', '?withTotal=no'],
  ])('a bad %s is a 400 naming it', async (field, query) => {
    const res = await stack.as(host, { method: 'GET', url: `/api/audit${query}` });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(field);
  });
});

describe('keyset pages', () => {
  const company = randomUUID();
  // 23 entries of one instant and 4 of others: the order must still be total and stable.
  const same = '2021-06-01T08:00:00.000Z';
  const events = [
    ...Array.from({ length: 23 }, (_, i) => ({
      id: randomUUID(),
      type: 'user.signed_out',
      version: 1,
      occurredAt: same,
      companyId: company,
      actor: alice,
      data: { id: `u${i}` },
    })),
    ...[
      '2021-06-02T00:00:00.000Z',
      '2021-05-01T00:00:00.000Z',
      '2021-06-01T08:00:00.001Z',
      '2021-06-01T07:59:59.999Z',
    ].map((occurredAt) => ({
      id: randomUUID(),
      type: 'company.updated',
      version: 1,
      occurredAt,
      companyId: company,
      actor: alice,
      data: { id: company },
    })),
  ] satisfies Envelope[];
  beforeAll(async () => publish(...events));

  type Page = { items: { _id: string }[]; nextCursor: string | null; total: number | null; page: number | null };

  test('walking with cursors gives every entry once, in the same order as one big page', async () => {
    const all = await audit(`?companyId=${company}&pageSize=200`);
    expect(all.total).toBe(events.length);
    const first = (await audit(`?companyId=${company}&pageSize=4`)) as unknown as Page;
    expect(first.total).toBe(events.length);
    const seen = first.items.map((e) => e._id);
    let cursor = first.nextCursor;
    while (cursor) {
      const next = (await audit(`?companyId=${company}&pageSize=4&cursor=${cursor}`)) as unknown as Page;
      // A keyset read never counts.
      expect(next).toMatchObject({ total: null, page: null, totalPages: null });
      expect(next.items.length).toBeGreaterThan(0);
      seen.push(...next.items.map((e) => e._id));
      cursor = next.nextCursor;
    }
    expect(seen).toEqual(all.items.map((e) => e._id));
    expect(new Set(seen).size).toBe(events.length);
  });

  test('withTotal=false: the same first page and cursor, no count', async () => {
    const counted = (await audit(`?companyId=${company}&pageSize=4`)) as unknown as Page;
    const uncounted = (await audit(`?companyId=${company}&pageSize=4&withTotal=false`)) as unknown as Page;
    expect(uncounted).toMatchObject({ page: 1, total: null, totalPages: null });
    expect(uncounted.items).toEqual(counted.items);
    expect(uncounted.nextCursor).toBe(counted.nextCursor);
    const all = (await audit(`?companyId=${company}&pageSize=${events.length}&withTotal=false`)) as unknown as Page;
    expect(all.items).toHaveLength(events.length);
    expect(all.nextCursor).toBeNull();
  });

  test('an exactly full last page says no more follow', async () => {
    const page = (await audit(`?companyId=${company}&pageSize=${events.length}`)) as unknown as Page;
    expect(page.nextCursor).toBeNull();
    const firstFive = (await audit(`?companyId=${company}&pageSize=5`)) as unknown as Page;
    const rest = (await audit(
      `?companyId=${company}&pageSize=${events.length - 5}&cursor=${firstFive.nextCursor}`,
    )) as unknown as Page;
    expect(rest.items).toHaveLength(events.length - 5);
    expect(rest.nextCursor).toBeNull();
  });

  test('by target and by actor e-mail', async () => {
    const byTarget = await audit(`?targetType=company&targetId=${company}`);
    expect(byTarget.items.map((e) => e._id).sort()).toEqual(
      events
        .filter((e) => e.type === 'company.updated')
        .map((e) => e.id)
        .sort(),
    );
    expect((await audit(`?companyId=${company}&targetType=user`)).total).toBe(23);
    expect((await audit(`?companyId=${company}&targetId=u7`)).items.map((e) => e._id)).toEqual([events[7]!.id]);
    expect((await audit(`?companyId=${company}&actorEmail=ALICE@a.test`)).total).toBe(events.length);
    expect((await audit(`?companyId=${company}&actorEmail=bob@b.test`)).total).toBe(0);
  });

  test.each([
    ['not base64url', 'not a cursor!'],
    ['not ours', Buffer.from('hello').toString('base64url')],
    ['names no entry', Buffer.from('s999999999999').toString('base64url')],
  ])('a cursor that is %s is a 400 naming it', async (_, cursor) => {
    const res = await stack.as(host, { method: 'GET', url: `/api/audit?cursor=${encodeURIComponent(cursor)}` });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('cursor');
  });

  test('page and cursor together are a 400 naming the cursor', async () => {
    const { nextCursor } = (await audit(`?companyId=${company}&pageSize=2`)) as unknown as Page;
    const res = await stack.as(host, { method: 'GET', url: `/api/audit?page=2&cursor=${nextCursor}` });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('query.cursor');
  });
});

describe('export', () => {
  const company = randomUUID();
  const mallory: Actor = { type: 'user', id: randomUUID(), email: '=cmd@evil.test', role: 'ADMIN', ip: '203.0.113.9' };
  // Raw, not built: the log keeps whatever a producer sent, and that is what must export safely.
  const tricky: Envelope = {
    id: randomUUID(),
    type: 'company.updated',
    version: 1,
    occurredAt: new Date().toISOString(),
    companyId: company,
    actor: mallory,
    data: {
      id: '+SUM(A1:A9)',
      before: { name: 'Say "hi", then\nleave' },
      after: { name: '@once', password: 'hunter2' },
    },
  };
  const plain = buildEnvelope({
    type: 'user.signed_in',
    companyId: company,
    actor: alice,
    data: { id: alice.id!, email: alice.email!, method: 'password' },
  });
  beforeAll(async () => publish(tricky, plain));

  const download = (query: string, token = host) =>
    stack.as(token, { method: 'GET', url: `/api/audit/export${query}` });

  test('CSV of the filtered log: attachment, header, escaped cells, formulas defused, secrets redacted', async () => {
    const res = await download(`?format=csv&companyId=${company}&type=company.`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-[\d-T]+\.csv"$/);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([
      'occurredAt',
      'type',
      'companyId',
      'actorType',
      'actorId',
      'actorEmail',
      'actorRole',
      'actorIp',
      'targetType',
      'targetId',
      'before',
      'after',
      'data',
      'id',
      'version',
      'seq',
      'prevHash',
      'hash',
    ]);
    expect(rows).toHaveLength(1);
    const cell = Object.fromEntries(header!.map((name, i) => [name, rows[0]![i]]));
    expect(cell).toMatchObject({
      type: 'company.updated',
      companyId: company,
      actorEmail: "'=cmd@evil.test",
      targetType: 'company',
      targetId: "'+SUM(A1:A9)",
      id: tricky.id,
    });
    expect(JSON.parse(cell.before!)).toEqual({ name: 'Say "hi", then\nleave' });
    expect(JSON.parse(cell.after!)).toEqual({ name: '@once', password: REDACTED });
    expect(res.body).not.toContain('hunter2');
  });

  test('JSON Lines of the filtered log: one entry per line, as the list gives it, with its place in the chain', async () => {
    const res = await download(`?format=jsonl&companyId=${company}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/\.jsonl"$/);
    const lines = res.body.split('\n');
    expect(lines.pop()).toBe('');
    const exported = lines.map((line) => JSON.parse(line) as { seq: number; prevHash: string; hash: string });
    expect(exported.map(({ seq: _seq, prevHash: _prev, hash: _hash, ...entry }) => entry)).toEqual(
      (await audit(`?companyId=${company}`)).items,
    );
    for (const entry of exported)
      expect(entry).toMatchObject({
        seq: expect.any(Number),
        prevHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
  });

  test('5,000 entries stream out in batches: all of them, once each, newest first', async () => {
    const big = randomUUID();
    // Seven distinct instants for 5,000 rows: batches must cut through runs of equal timestamps.
    await stack.database.query(
      `insert into audit.entries (id, occurred_at, type, version, company_id, actor, target_type, target_id, data)
       select gen_random_uuid(), timestamptz '2019-03-01T00:00:00Z' + (i % 7) * interval '1 second', 'user.signed_in', 1, $1,
              '{"type":"system","id":null}', 'user', i::text, jsonb_build_object('n', i)
       from generate_series(1, 5000) as i`,
      [big],
    );
    const jsonl = await download(`?format=jsonl&companyId=${big}`);
    expect(jsonl.statusCode).toBe(200);
    // Piped as a stream, not buffered into one body of known length.
    expect(jsonl.headers['content-length']).toBeUndefined();
    const entries = jsonl.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { occurredAt: string; data: { n: number } });
    expect(entries).toHaveLength(5000);
    expect(new Set(entries.map((e) => e.data.n)).size).toBe(5000);
    const times = entries.map((e) => e.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);

    const csv = await download(`?format=csv&companyId=${big}&to=2019-03-01T00:00:03Z`);
    const rows = parseCsv(csv.body);
    // Up to second 3: the rows with i % 7 in 0..3.
    const upToSecond3 = Array.from({ length: 5000 }, (_, i) => (i + 1) % 7).filter((second) => second <= 3).length;
    expect(rows).toHaveLength(1 + upToSecond3);
  }, 60_000);

  test.each([
    ['format', '?format=xlsx'],
    ['format', ''],
    ['from', '?format=csv&from=soon'],
    ['cursor', '?format=csv&cursor=abc'],
  ])('a bad %s is a 400 naming it', async (field, query) => {
    const res = await download(query);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(field);
  });

  test('only the platform administrator exports: anonymous 401, an ADMIN 403', async () => {
    expect((await stack.as(null, { method: 'GET', url: '/api/audit/export?format=csv' })).statusCode).toBe(401);
    const admin = await stack.tokenFor('ADMIN', company);
    const res = await download('?format=csv', admin);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(company);
  });
});

describe('protection', () => {
  test('only the platform administrator reads the log: anonymous 401, other roles 403', async () => {
    expect((await stack.as(null, { method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
    for (const role of ['ADMIN', 'USER', 'CALLER'] as const) {
      expect(
        (await stack.as(await stack.tokenFor(role, companyA), { method: 'GET', url: '/api/audit' })).statusCode,
      ).toBe(403);
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
