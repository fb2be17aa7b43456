import type { InjectOptions } from 'fastify';
import { multipart } from '@earshot/kit/testing';
import { createWorld, spokenWav, type World } from './world';

/**
 * Company API keys and b2c privacy in the all-in-one process: a company's API key acts as that
 * company's service account (upload, read transcripts and statuses, nothing else; rate-limited per
 * key; audited), and the members of a b2c company do not see each other's recordings.
 */
// Above what the tests below send with company A's key in one window, so only the busy company hits it.
const KEY_LIMIT = 30;
let world: World;

beforeAll(async () => {
  world = await createWorld({ API_KEY_RATE_LIMIT_MAX: String(KEY_LIMIT) });
}, 120_000);
afterAll(async () => world?.close());

const wav = () => multipart({}, { name: 'call.wav', type: 'audio/wav', data: spokenWav() });
const upload = (send: (options: InjectOptions) => ReturnType<World['request']>) =>
  send({ method: 'POST', url: '/api/files/upload', ...wav() });

async function newCompany(domain: string, type = 'business'): Promise<{ _id: string; apiKey: string }> {
  const res = await world.request(world.host.token, {
    method: 'POST',
    url: '/api/companies',
    payload: {
      name: `Company ${domain}`,
      code: domain.toUpperCase(),
      domain,
      type,
      status: 'active',
      maxUsers: 10,
      maxStorage: 1024 ** 3,
      language: 'en',
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function newUser(companyId: string, email: string, role = 'USER'): Promise<string> {
  const res = await world.request(world.host.token, {
    method: 'POST',
    url: '/api/users/register',
    payload: { firstName: 'B2C', lastName: 'Person', email, password: 'password-123', role, companyId },
  });
  expect(res.statusCode).toBe(201);
  const domain = email.split('@')[1]!.replace(/\.test$/, '');
  const login = await world.earshot.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: 'password-123', domain },
  });
  expect(login.statusCode).toBe(200);
  return login.cookies.find((c) => c.name === 'earshot_at')!.value;
}

describe('a company API key (X-API-Key)', () => {
  test('uploads a real recording, reads its transcript and status; the actor is the service account', async () => {
    const key = (options: InjectOptions) => world.requestWithKey(world.companies.A.apiKey, options);
    const res = await upload(key);
    expect(res.statusCode).toBe(201);
    const fileId = (res.json() as { _id: string })._id;
    await world.earshot.settle();

    const file = await key({ method: 'GET', url: `/api/files/${fileId}` });
    expect(file.statusCode).toBe(200);
    expect(file.json()).toMatchObject({ _id: fileId, companyId: world.companies.A.id });
    expect((await key({ method: 'GET', url: '/api/files' })).json().items.map((f: { _id: string }) => f._id)).toContain(
      fileId,
    );
    const statuses = await key({ method: 'GET', url: `/api/transcripts/status?fileIds=${fileId}` });
    expect(statuses.statusCode).toBe(200);
    expect(statuses.json()).toEqual([
      expect.objectContaining({ fileId, companyId: world.companies.A.id, status: expect.any(String) }),
    ]);
    const transcript = await key({ method: 'GET', url: `/api/transcripts/file/${fileId}` });
    expect(transcript.statusCode).toBe(200);
    expect(transcript.json()).toMatchObject({ fileId, companyId: world.companies.A.id });

    // Audited: the upload's event names the company's service account as its actor.
    const audit = await world.request(world.host.token, {
      method: 'GET',
      url: `/api/audit?type=file.uploaded&targetId=${fileId}`,
    });
    expect(audit.statusCode).toBe(200);
    expect(audit.json().items[0].actor).toMatchObject({
      type: 'service',
      id: `api-key:${world.companies.A.id}`,
      role: 'SERVICE',
    });
    expect(audit.body).not.toContain(world.companies.A.apiKey);
  }, 60_000);

  test('nothing else: users, companies, clients, chat, deleting are 403; another company’s recording is 404', async () => {
    const key = (options: InjectOptions) => world.requestWithKey(world.companies.A.apiKey, options);
    for (const [method, url] of [
      ['GET', '/api/users'],
      ['GET', '/api/companies'],
      ['GET', '/api/clients'],
      ['GET', '/api/chat/conversations'],
      ['GET', `/api/companies/${world.companies.A.id}/credits`],
    ] as const) {
      const res = await key({ method, url });
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({
        url,
        status: 403,
        body: expect.objectContaining({ message: 'An API key may only upload recordings and read transcripts' }),
      });
    }
    const theirs = await upload((options) => world.request(world.users.B.ADMIN.token, options));
    const fileId = (theirs.json() as { _id: string })._id;
    await world.earshot.settle();
    expect((await key({ method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(403);
    expect((await key({ method: 'GET', url: `/api/files/${fileId}` })).statusCode).toBe(404);
    expect((await key({ method: 'GET', url: `/api/transcripts/file/${fileId}` })).statusCode).toBe(404);
    expect((await key({ method: 'GET', url: `/api/transcripts/status?fileIds=${fileId}` })).json()).toEqual([]);
  }, 60_000);

  test('an unknown, rotated or revoked key is a 401 at once; a new key works at once', async () => {
    const company = await newCompany('keys-co');
    const first = company.apiKey;
    expect((await world.requestWithKey(first, { method: 'GET', url: '/api/files' })).statusCode).toBe(200);
    for (const wrong of ['esk_' + 'x'.repeat(32), 'not-a-key', '']) {
      const res = await world.requestWithKey(wrong, { method: 'GET', url: '/api/files' });
      expect({ wrong, status: res.statusCode, body: res.json() }).toEqual({
        wrong,
        status: 401,
        body: expect.objectContaining({ message: 'Invalid API key' }),
      });
    }
    const rotated = await world.request(world.host.token, {
      method: 'POST',
      url: `/api/companies/${company._id}/api-key`,
    });
    expect(rotated.statusCode).toBe(201);
    const second = (rotated.json() as { apiKey: string }).apiKey;
    expect((await world.requestWithKey(first, { method: 'GET', url: '/api/files' })).statusCode).toBe(401);
    expect((await world.requestWithKey(second, { method: 'GET', url: '/api/files' })).statusCode).toBe(200);
    expect(
      (await world.request(world.host.token, { method: 'DELETE', url: `/api/companies/${company._id}/api-key` }))
        .statusCode,
    ).toBe(200);
    expect(
      (await world.requestWithKey(second, { method: 'POST', url: '/api/files/upload', ...wav() })).statusCode,
    ).toBe(401);
  });

  test('is rate-limited per key (429), whatever address it comes from; other callers keep their own limit', async () => {
    const { apiKey } = await newCompany('busy-co');
    const statuses: number[] = [];
    for (let i = 0; i <= KEY_LIMIT; i++) {
      const res = await world.requestWithKey(apiKey, {
        method: 'GET',
        url: '/api/files',
        remoteAddress: `127.0.0.${(i % 200) + 1}`,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, KEY_LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses[KEY_LIMIT]).toBe(429);
    // A member of the same company is not held back by the integration's bucket.
    expect((await world.request(world.users.A.USER.token, { method: 'GET', url: '/api/files' })).statusCode).toBe(200);
  });
});

describe('b2c privacy', () => {
  test('a member of a b2c company sees only their own recordings; the company ADMIN neither; HOST_ADMIN all', async () => {
    const company = await newCompany('homes', 'b2c');
    await world.earshot.settle();
    const alice = await newUser(company._id, 'alice@homes.test');
    const bob = await newUser(company._id, 'bob@homes.test');
    const admin = await newUser(company._id, 'boss@homes.test', 'ADMIN');
    const res = await upload((options) => world.request(alice, options));
    expect(res.statusCode).toBe(201);
    const { _id: fileId, path } = res.json() as { _id: string; path: string };
    await world.earshot.settle();

    const reads: InjectOptions[] = [
      { method: 'GET', url: `/api/files/${fileId}` },
      { method: 'GET', url: `/api/uploads/${path}` },
      { method: 'GET', url: `/api/transcripts/file/${fileId}` },
      { method: 'POST', url: '/api/transcripts/transcribe', payload: { fileId } },
      { method: 'DELETE', url: `/api/transcripts/${fileId}` },
    ];
    for (const [who, token] of [
      ['bob', bob],
      ['admin', admin],
    ] as const) {
      for (const read of reads) {
        const answer = await world.request(token, read);
        expect({ who, url: read.url, status: answer.statusCode }).toEqual({ who, url: read.url, status: 404 });
      }
      expect((await world.request(token, { method: 'GET', url: '/api/files' })).json().items).toEqual([]);
      expect(
        (await world.request(token, { method: 'GET', url: `/api/transcripts/status?fileIds=${fileId}` })).json(),
      ).toEqual([]);
    }
    expect((await world.request(alice, { method: 'GET', url: `/api/files/${fileId}` })).statusCode).toBe(200);
    expect((await world.request(alice, { method: 'GET', url: `/api/transcripts/file/${fileId}` })).statusCode).toBe(
      200,
    );
    expect(
      (await world.request(alice, { method: 'GET', url: '/api/files' }))
        .json()
        .items.map((f: { _id: string }) => f._id),
    ).toEqual([fileId]);
    // The platform administrator sees every company's, and can narrow to one.
    const listed = await world.request(world.host.token, { method: 'GET', url: `/api/files?companyId=${company._id}` });
    expect(listed.json().items.map((f: { _id: string; companyId: string }) => [f._id, f.companyId])).toEqual([
      [fileId, company._id],
    ]);
    const statuses = await world.request(world.host.token, {
      method: 'GET',
      url: `/api/transcripts/status?companyId=${company._id}`,
    });
    expect(statuses.json().map((s: { fileId: string; companyId: string }) => [s.fileId, s.companyId])).toEqual([
      [fileId, company._id],
    ]);
    expect((await world.request(alice, { method: 'DELETE', url: `/api/transcripts/${fileId}` })).statusCode).toBe(200);
  }, 60_000);

  test('members of an enterprise company still share recordings', async () => {
    const res = await upload((options) => world.request(world.users.A.USER.token, options));
    const fileId = (res.json() as { _id: string })._id;
    await world.earshot.settle();
    expect(
      (await world.request(world.users.A.CALLER.token, { method: 'GET', url: `/api/files/${fileId}` })).statusCode,
    ).toBe(200);
    expect(
      (await world.request(world.users.A.CALLER.token, { method: 'GET', url: `/api/transcripts/file/${fileId}` }))
        .statusCode,
    ).toBe(200);
  }, 60_000);

  test('a HOST_ADMIN uploads into the company named by ?companyId=', async () => {
    const res = await world.request(world.host.token, {
      method: 'POST',
      url: `/api/files/upload?companyId=${world.companies.B.id}`,
      ...wav(),
    });
    expect(res.statusCode).toBe(201);
    const got = await world.request(world.users.B.USER.token, {
      method: 'GET',
      url: `/api/files/${(res.json() as { _id: string })._id}`,
    });
    expect(got.json()).toMatchObject({ companyId: world.companies.B.id });
  }, 60_000);
});
