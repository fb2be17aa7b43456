import { buildEnvelope } from '@earshot/kit';
import { createTestStack, type TestStack } from '@earshot/kit/testing';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { billingService } from '@earshot/billing-service';
import { tenantService } from '@earshot/tenant-service';
import { uploadRequest, wavHeader } from '../../../services/file/test/helpers';

// Clients (tenant service) with the file and transcription services in the same stack: the
// recordings a client's profile lists, link-client's company check and unlinking on delete all
// travel by events. The transcription worker stays off: nothing here needs a transcript's words.
let stack: TestStack;
let host: string;
const a = { id: '', admin: '', caller: '', user: '', ownerId: crypto.randomUUID() };
const b = { id: '', admin: '', ownerId: crypto.randomUUID() };
const silence = Buffer.concat([wavHeader(32_000), Buffer.alloc(32_000)]);

async function createCompany(name: string, code: string): Promise<string> {
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/companies',
    payload: { name, code, domain: code.toLowerCase() },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { _id: string })._id;
}

/** A user of the company, the way the auth service announces one (the tenant keeps a member projection). */
async function announceUser(userId: string, companyId: string): Promise<void> {
  const envelope = buildEnvelope({
    type: 'user.created',
    companyId,
    actor: { type: 'system', id: null },
    data: {
      id: userId,
      before: null,
      after: { email: `${userId}@x.test`, firstName: 'O', lastName: 'W', role: 'USER', companyId },
    },
  });
  await stack.bus.publish([{ topic: 'earshot.auth', key: companyId, envelope }]);
  await stack.settle();
}

async function createClient(token: string, payload: Record<string, unknown>): Promise<{ _id: string }> {
  const res = await stack.as(token, { method: 'POST', url: '/api/clients', payload });
  expect(res.statusCode).toBe(201);
  await stack.settle();
  return res.json();
}

async function upload(token: string, fields: Record<string, string> = {}): Promise<string> {
  const res = await stack.as(token, uploadRequest(silence, 'call.wav', fields));
  expect(res.statusCode).toBe(201);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}

const link = (token: string, transcriptId: string, clientId: string | null) =>
  stack.as(token, { method: 'PUT', url: '/api/transcripts/link-client', payload: { transcriptId, clientId } });

beforeAll(async () => {
  stack = await createTestStack([tenantService, billingService, fileService, transcriptionService], {
    TRANSCRIPTION_WORKER: 'false',
  });
  host = await stack.tokenFor('HOST_ADMIN', null);
  a.id = await createCompany('Alpha', 'ALPHA');
  b.id = await createCompany('Beta', 'BETA');
  await stack.settle();
  a.admin = await stack.tokenFor('ADMIN', a.id);
  a.caller = await stack.tokenFor('CALLER', a.id);
  a.user = await stack.tokenFor('USER', a.id);
  b.admin = await stack.tokenFor('ADMIN', b.id);
  await announceUser(a.ownerId, a.id);
  await announceUser(b.ownerId, b.id);
}, 60_000);
afterAll(async () => stack?.close());

describe('create, read, change, delete', () => {
  test('a CALLER creates a client with every field; it is listed, searched and in the dropdown; client.created is emitted', async () => {
    const payload = {
      name: '  Jane Roe ',
      organisation: 'Roe & Co',
      email: 'Jane@Roe.test',
      phone: '+372 5555 1234',
      externalId: 'CRM-1',
      notes: 'Calls after 10.\nPrefers e-mail.',
      ownerId: a.ownerId,
    };
    const res = await stack.as(a.caller, { method: 'POST', url: '/api/clients', payload });
    expect(res.statusCode).toBe(201);
    const client = res.json() as Record<string, unknown>;
    expect(client).toMatchObject({
      companyId: a.id,
      name: 'Jane Roe',
      email: 'jane@roe.test',
      externalId: 'CRM-1',
      ownerId: a.ownerId,
      notes: 'Calls after 10.\nPrefers e-mail.',
    });
    await stack.settle();

    const page = (
      await stack.as(a.admin, { method: 'GET', url: '/api/clients?search=roe%20%26&page=1&pageSize=5' })
    ).json() as { items: { _id: string }[]; total: number };
    expect(page.total).toBe(1);
    expect(page.items[0]!._id).toBe(client._id);
    expect((await stack.as(a.admin, { method: 'GET', url: '/api/clients?search=nobody' })).json()).toMatchObject({
      total: 0,
      items: [],
    });
    expect((await stack.as(a.caller, { method: 'GET', url: '/api/clients/dropdown' })).json()).toContainEqual({
      _id: client._id,
      name: 'Jane Roe',
    });

    const [event] = await stack.database.query<{ data: { after: { name: string } } }>(
      "select envelope->'data' as data from tenant.outbox where envelope->>'type' = 'client.created' and envelope->'data'->>'id' = $1",
      [client._id],
    );
    expect(event?.data.after.name).toBe('Jane Roe');
  });

  test('update changes only what is sent and emits client.updated with before and after; an empty body is a 400', async () => {
    const { _id } = await createClient(a.admin, { name: 'Old Name', phone: '123 456' });
    const res = await stack.as(a.caller, {
      method: 'PUT',
      url: `/api/clients/${_id}`,
      payload: { name: 'New Name', phone: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'New Name', phone: null });
    const detail = (await stack.as(a.admin, { method: 'GET', url: `/api/clients/${_id}` })).json();
    expect(detail).toMatchObject({ name: 'New Name', phone: null, recordings: [] });
    const events = await stack.database.query<{ data: { before: { name: string }; after: { name: string } } }>(
      "select envelope->'data' as data from tenant.outbox where envelope->>'type' = 'client.updated' and envelope->'data'->>'id' = $1",
      [_id],
    );
    expect(events.map((e) => [e.data.before.name, e.data.after.name])).toEqual([['Old Name', 'New Name']]);
    expect((await stack.as(a.admin, { method: 'PUT', url: `/api/clients/${_id}`, payload: {} })).statusCode).toBe(400);
  });

  test('bad input is a 400 naming the field, and nothing is written', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'body.name'],
      [{ name: '   ' }, 'body.name'],
      [{ name: 'x'.repeat(121) }, 'body.name'],
      [{ name: 'Nul\u0000byte' }, 'body.name'],
      [{ name: 'Ok', organisation: 'Tab\there' }, 'body.organisation'],
      [{ name: 'Ok', email: 'not-an-email' }, 'body.email'],
      [{ name: 'Ok', phone: 'call me' }, 'body.phone'],
      [{ name: 'Ok', externalId: 'x'.repeat(129) }, 'body.externalId'],
      [{ name: 'Ok', externalId: 'a\u0000b' }, 'body.externalId'],
      [{ name: 'Ok', notes: 'n'.repeat(4001) }, 'body.notes'],
      [{ name: 'Ok', notes: 'bell\u0007' }, 'body.notes'],
      [{ name: 'Ok', ownerId: 'not-a-uuid' }, 'body.ownerId'],
      // An unknown field is named in the detail's message.
      [{ name: 'Ok', companyId: a.id }, 'companyId'],
    ];
    const before = (await stack.as(a.admin, { method: 'GET', url: '/api/clients' })).json().total;
    for (const [payload, field] of cases) {
      const res = await stack.as(a.admin, { method: 'POST', url: '/api/clients', payload });
      expect([res.statusCode, JSON.stringify(payload)]).toEqual([400, JSON.stringify(payload)]);
      expect(JSON.stringify(res.json().details)).toContain(field);
    }
    expect((await stack.as(a.admin, { method: 'GET', url: '/api/clients' })).json().total).toBe(before);
    expect((await stack.as(a.admin, { method: 'GET', url: '/api/clients?search=a%00b' })).statusCode).toBe(400);
  });

  test('the external id is unique per company: a duplicate is a 409 naming it, another company may use it', async () => {
    await createClient(a.admin, { name: 'First', externalId: 'CRM-42' });
    const dup = await stack.as(a.caller, {
      method: 'POST',
      url: '/api/clients',
      payload: { name: 'Second', externalId: 'CRM-42' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().details).toEqual([{ field: 'body.externalId', message: 'is already taken' }]);
    const other = await createClient(a.admin, { name: 'Third', externalId: 'CRM-43' });
    const clash = await stack.as(a.admin, {
      method: 'PUT',
      url: `/api/clients/${other._id}`,
      payload: { externalId: 'CRM-42' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().details[0].field).toBe('body.externalId');
    // Keeping its own external id is no clash.
    expect(
      (
        await stack.as(a.admin, {
          method: 'PUT',
          url: `/api/clients/${other._id}`,
          payload: { externalId: 'CRM-43', name: 'Third!' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await stack.as(b.admin, {
          method: 'POST',
          url: '/api/clients',
          payload: { name: 'Beta’s', externalId: 'CRM-42' },
        })
      ).statusCode,
    ).toBe(201);
  });

  test('the owner must be a user of the same company: another company’s user or an unknown one is a 400 naming ownerId', async () => {
    for (const ownerId of [b.ownerId, crypto.randomUUID()]) {
      const res = await stack.as(a.admin, { method: 'POST', url: '/api/clients', payload: { name: 'Owned', ownerId } });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ field: 'body.ownerId', message: 'must be a user of this company' }]);
    }
    const { _id } = await createClient(a.admin, { name: 'Owned' });
    const res = await stack.as(a.admin, { method: 'PUT', url: `/api/clients/${_id}`, payload: { ownerId: b.ownerId } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('body.ownerId');
    expect(
      (await stack.as(a.admin, { method: 'PUT', url: `/api/clients/${_id}`, payload: { ownerId: a.ownerId } })).json()
        .ownerId,
    ).toBe(a.ownerId);
  });
});

describe('who may do what', () => {
  test('a USER gets 403 on every clients route', async () => {
    const { _id } = await createClient(a.admin, { name: 'Hidden from users' });
    const requests = [
      { method: 'GET', url: '/api/clients' },
      { method: 'GET', url: '/api/clients/dropdown' },
      { method: 'POST', url: '/api/clients', payload: { name: 'X' } },
      { method: 'GET', url: `/api/clients/${_id}` },
      { method: 'PUT', url: `/api/clients/${_id}`, payload: { name: 'X' } },
      { method: 'DELETE', url: `/api/clients/${_id}` },
    ] as const;
    for (const request of requests)
      expect([request.method, (await stack.as(a.user, request)).statusCode]).toEqual([request.method, 403]);
  });

  test('a HOST_ADMIN reads any company’s clients (filtered by companyId) but changes none', async () => {
    const { _id } = await createClient(b.admin, { name: 'Beta Client' });
    const all = (await stack.as(host, { method: 'GET', url: '/api/clients?pageSize=100' })).json() as {
      items: { companyId: string }[];
    };
    expect(new Set(all.items.map((c) => c.companyId))).toEqual(new Set([a.id, b.id]));
    const onlyB = (
      await stack.as(host, { method: 'GET', url: `/api/clients?companyId=${b.id}&pageSize=100` })
    ).json() as { items: { companyId: string }[] };
    expect(onlyB.items.length).toBeGreaterThan(0);
    expect(onlyB.items.every((c) => c.companyId === b.id)).toBe(true);
    expect(
      (await stack.as(host, { method: 'GET', url: `/api/clients/dropdown?companyId=${b.id}` })).json(),
    ).toContainEqual({ _id, name: 'Beta Client' });
    expect((await stack.as(host, { method: 'GET', url: `/api/clients/${_id}` })).statusCode).toBe(200);
    expect((await stack.as(host, { method: 'POST', url: '/api/clients', payload: { name: 'X' } })).statusCode).toBe(
      403,
    );
    expect(
      (await stack.as(host, { method: 'PUT', url: `/api/clients/${_id}`, payload: { name: 'X' } })).statusCode,
    ).toBe(403);
    expect((await stack.as(host, { method: 'DELETE', url: `/api/clients/${_id}` })).statusCode).toBe(403);
    expect((await stack.as(b.admin, { method: 'GET', url: `/api/clients/${_id}` })).json().name).toBe('Beta Client');
  });

  test('another company’s client is a 404 on every route, and never listed', async () => {
    const { _id } = await createClient(b.admin, { name: 'Beta Secret' });
    for (const token of [a.admin, a.caller]) {
      expect((await stack.as(token, { method: 'GET', url: `/api/clients/${_id}` })).statusCode).toBe(404);
      expect(
        (await stack.as(token, { method: 'PUT', url: `/api/clients/${_id}`, payload: { name: 'Mine now' } }))
          .statusCode,
      ).toBe(404);
      expect((await stack.as(token, { method: 'DELETE', url: `/api/clients/${_id}` })).statusCode).toBe(404);
      // A companyId filter is the platform administrator's: a company member still sees only their own.
      const listed = (
        await stack.as(token, { method: 'GET', url: `/api/clients?companyId=${b.id}&pageSize=100` })
      ).json() as { items: { companyId: string }[] };
      expect(listed.items.every((c) => c.companyId === a.id)).toBe(true);
      expect(
        JSON.stringify((await stack.as(token, { method: 'GET', url: '/api/clients/dropdown' })).json()),
      ).not.toContain(_id);
    }
    expect((await stack.as(b.admin, { method: 'GET', url: `/api/clients/${_id}` })).json().name).toBe('Beta Secret');
  });
});

describe('recordings of a client', () => {
  test('link-client accepts only a client of the transcript’s company: another company’s or an unknown one is a 404', async () => {
    const fileId = await upload(a.caller);
    const mine = await createClient(a.admin, { name: 'Linkable' });
    const theirs = await createClient(b.admin, { name: 'Not linkable' });
    expect((await link(a.caller, fileId, theirs._id)).statusCode).toBe(404);
    expect((await link(a.admin, fileId, crypto.randomUUID())).statusCode).toBe(404);
    // Not even a platform administrator links a recording to a client of another company.
    expect((await link(host, fileId, theirs._id)).statusCode).toBe(404);
    expect((await link(a.user, fileId, mine._id)).statusCode).toBe(403);
    expect((await link(a.caller, fileId, mine._id)).statusCode).toBe(200);
    expect((await link(a.caller, fileId, null)).statusCode).toBe(200);
  });

  test('a linked or uploaded-for recording shows on the profile and in the files filter; deleting the client unlinks it and keeps it', async () => {
    const client = await createClient(a.caller, { name: 'With recordings' });
    const other = await createClient(a.caller, { name: 'Someone else' });
    const linked = await upload(a.caller);
    const uploadedFor = await upload(a.caller, { clientId: client._id });
    const unrelated = await upload(a.caller, { clientId: other._id });
    expect((await link(a.caller, linked, client._id)).statusCode).toBe(200);
    await stack.settle();

    const profile = (await stack.as(a.admin, { method: 'GET', url: `/api/clients/${client._id}` })).json() as {
      recordings: { fileId: string; name: string; status: string; uploadedAt: string }[];
    };
    expect(profile.recordings.map((r) => r.fileId).sort()).toEqual([linked, uploadedFor].sort());
    expect(profile.recordings[0]).toMatchObject({ name: 'call.wav', status: 'pending', duration: null });
    expect(Date.parse(profile.recordings[0]!.uploadedAt)).not.toBeNaN();

    const filtered = (await stack.as(a.user, { method: 'GET', url: `/api/files?clientId=${client._id}` })).json() as {
      items: { _id: string }[];
      total: number;
    };
    expect(filtered.items.map((f) => f._id).sort()).toEqual([linked, uploadedFor].sort());
    expect(filtered.total).toBe(2);
    expect(
      (await stack.as(a.user, { method: 'GET', url: `/api/files?clientId=${other._id}` }))
        .json()
        .items.map((f: { _id: string }) => f._id),
    ).toEqual([unrelated]);
    expect((await stack.as(a.user, { method: 'GET', url: '/api/files?clientId=nope' })).statusCode).toBe(400);

    const removed = await stack.as(a.caller, { method: 'DELETE', url: `/api/clients/${client._id}` });
    expect(removed.statusCode).toBe(200);
    await stack.settle();
    expect((await stack.as(a.admin, { method: 'GET', url: `/api/clients/${client._id}` })).statusCode).toBe(404);
    // The recordings stay, linked to no one, in every service.
    for (const fileId of [linked, uploadedFor]) {
      const transcript = await stack.as(a.user, { method: 'GET', url: `/api/transcripts/file/${fileId}` });
      expect(transcript.statusCode).toBe(200);
      expect(transcript.json().clientId).toBeNull();
      expect((await stack.as(a.user, { method: 'GET', url: `/api/files/${fileId}` })).json().clientId).toBeNull();
    }
    expect((await stack.as(a.user, { method: 'GET', url: `/api/files?clientId=${client._id}` })).json().total).toBe(0);
    expect((await stack.as(a.user, { method: 'GET', url: `/api/files/${unrelated}` })).json().clientId).toBe(other._id);
    expect(
      (await stack.as(a.admin, { method: 'GET', url: `/api/clients/${other._id}` }))
        .json()
        .recordings.map((r: { fileId: string }) => r.fileId),
    ).toEqual([unrelated]);
    // The deleted client can no longer be linked.
    expect((await link(a.caller, linked, client._id)).statusCode).toBe(404);
    const unlinks = await stack.database.query<{ file_id: string }>(
      "select envelope->'data'->>'fileId' as file_id from transcription.outbox where envelope->>'type' = 'transcript.client_linked' and envelope->'data'->'before'->>'clientId' = $1 and envelope->'data'->'after'->>'clientId' is null",
      [client._id],
    );
    expect(unlinks.map((e) => e.file_id).sort()).toEqual([linked, uploadedFor].sort());
  });

  test('status and duration follow the transcription events; a deleted recording leaves the profile', async () => {
    const client = await createClient(a.caller, { name: 'Followed' });
    const fileId = await upload(a.caller, { clientId: client._id });
    const publish = async (type: string, data: Record<string, unknown>) => {
      await stack.bus.publish([
        {
          topic: 'earshot.transcription',
          key: a.id,
          envelope: buildEnvelope({ type, companyId: a.id, actor: { type: 'system', id: null }, data }),
        },
      ]);
      await stack.settle();
    };
    await publish('transcript.status_changed', { fileId, status: 'processing' });
    await publish('transcript.completed', {
      id: crypto.randomUUID(),
      fileId,
      engine: 'test',
      duration: 12.5,
      speakers: 1,
      words: 3,
      fileName: 'call.wav',
      parts: 0,
    });
    await publish('transcript.status_changed', { fileId, status: 'completed' });
    const recordings = () =>
      stack.as(a.admin, { method: 'GET', url: `/api/clients/${client._id}` }).then((r) => r.json().recordings);
    expect(await recordings()).toMatchObject([{ fileId, status: 'completed', duration: 12.5 }]);
    expect((await stack.as(a.admin, { method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(200);
    await stack.settle();
    expect(await recordings()).toEqual([]);
  });

  test('an upload naming another company’s client is not listed on that client’s profile', async () => {
    const theirs = await createClient(b.admin, { name: 'Beta Profile' });
    await upload(a.caller, { clientId: theirs._id });
    expect((await stack.as(b.admin, { method: 'GET', url: `/api/clients/${theirs._id}` })).json().recordings).toEqual(
      [],
    );
  });
});

test('the transcription service ignores a client event older than one it applied: a late update does not bring a deleted client back', async () => {
  const fileId = await upload(a.caller);
  const clientId = crypto.randomUUID();
  const state = {
    name: 'Late',
    organisation: null,
    email: null,
    phone: null,
    externalId: null,
    notes: null,
    ownerId: null,
  };
  const event = (
    type: 'client.created' | 'client.updated' | 'client.deleted',
    after: typeof state | null,
    occurredAt: string,
  ) => ({
    ...buildEnvelope({
      type,
      companyId: a.id,
      actor: { type: 'system', id: null },
      data: { id: clientId, before: state, after },
    }),
    occurredAt,
  });
  const deliver = async (...envelopes: ReturnType<typeof event>[]) => {
    await stack.bus.publish(envelopes.map((envelope) => ({ topic: 'earshot.tenant', key: a.id, envelope })));
    await stack.settle();
  };
  await deliver(event('client.created', state, '2026-01-01T09:00:00.000Z'));
  expect((await link(a.caller, fileId, clientId)).statusCode).toBe(200);
  // Deleted at 10:00; a change made at 09:30 is delivered afterwards.
  await deliver(
    event('client.deleted', null, '2026-01-01T10:00:00.000Z'),
    event('client.updated', state, '2026-01-01T09:30:00.000Z'),
  );
  expect(
    (await stack.as(a.user, { method: 'GET', url: `/api/transcripts/file/${fileId}` })).json().clientId,
  ).toBeNull();
  expect((await link(a.caller, fileId, clientId)).statusCode).toBe(404);
});
