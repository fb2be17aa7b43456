import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ACCESS_COOKIE, REFRESH_COOKIE, buildEnvelope } from '@earshot/kit';
import { SYSTEM_ACTOR } from '@earshot/contracts';
import type { TestStack } from '@earshot/kit/testing';
import {
  Browser,
  PASSWORD,
  authStack,
  cookieValue,
  createCompany,
  createUser,
  login,
  outboxEvents,
  registerUser,
} from './helpers';

// Users administration (one-time passwords, resets, the last administrator, filters),
// the user limit under concurrent creation, and the consumer (b2c) users list.

let stack: TestStack;
let acme: string;
let globex: string;
let host: string;
let acmeAdminId: string;
let acmeAdmin: string;

beforeAll(async () => {
  stack = await authStack();
  acme = await createCompany(stack, { domain: 'acme' });
  globex = await createCompany(stack, { domain: 'globex' });
  host = await stack.tokenFor('HOST_ADMIN', null);
  acmeAdminId = await createUser(stack, { email: 'admin@acme.test', role: 'ADMIN', companyId: acme });
  acmeAdmin = await stack.tokenFor('ADMIN', acme, acmeAdminId);
});
afterAll(async () => stack.close());

const api = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  stack.as(token, { method, url, ...(payload ? { payload } : {}) });

/** Signs in with a one-time password and chooses a new one, as the console's sign-in does. */
async function firstSignIn(email: string, temporaryPassword: string, newPassword: string) {
  const browser = new Browser(stack);
  const step = await browser.request('POST', '/api/auth/login', { email, password: temporaryPassword });
  expect(step.statusCode).toBe(200);
  expect(step.json()).toEqual({ passwordChangeRequired: true });
  // No session yet: only the short-lived pending cookie.
  expect(cookieValue(step, ACCESS_COOKIE)).toBeUndefined();
  expect(browser.cookie('earshot_pwc')).toEqual(expect.any(String));
  const same = await browser.request('POST', '/api/auth/password/change', { password: temporaryPassword });
  expect(same.statusCode).toBe(400);
  expect(same.json().details).toEqual([expect.objectContaining({ field: 'body.password' })]);
  const done = await browser.request('POST', '/api/auth/password/change', { password: newPassword });
  expect(done.statusCode).toBe(200);
  expect(done.json().user.email).toBe(email);
  expect(cookieValue(done, ACCESS_COOKIE)).toEqual(expect.any(String));
  expect(cookieValue(done, REFRESH_COOKIE)).toEqual(expect.any(String));
  // The challenge worked once.
  expect(
    (await browser.request('POST', '/api/auth/password/change', { password: 'yet another password' })).statusCode,
  ).toBe(401);
  return browser;
}

test('created without a password: a one-time password answered once, changed at the first sign-in', async () => {
  const res = await api(acmeAdmin, 'POST', '/api/users/register', {
    firstName: 'Olga',
    lastName: 'Once',
    email: 'olga@acme.test',
    role: 'USER',
  });
  expect(res.statusCode).toBe(201);
  const created = res.json();
  expect(created).toMatchObject({
    email: 'olga@acme.test',
    role: 'USER',
    companyName: 'acme',
    passwordChangeRequired: true,
    temporaryPassword: expect.any(String),
  });
  expect(created.temporaryPassword.length).toBeGreaterThanOrEqual(16);
  expect(JSON.stringify(await outboxEvents(stack, 'user.created'))).not.toContain(created.temporaryPassword);
  // Shown once: reading the user again never gives it.
  const again = await api(acmeAdmin, 'GET', `/api/users/${created._id}`);
  expect(again.json()).not.toHaveProperty('temporaryPassword');

  await firstSignIn('olga@acme.test', created.temporaryPassword, 'olga chose this one');
  expect((await login(stack, { email: 'olga@acme.test', password: created.temporaryPassword })).statusCode).toBe(401);
  const later = await login(stack, { email: 'olga@acme.test', password: 'olga chose this one' });
  expect(later.json().user.email).toBe('olga@acme.test');
  expect((await api(acmeAdmin, 'GET', `/api/users/${created._id}`)).json()).toMatchObject({
    passwordChangeRequired: false,
    lastSignInAt: expect.any(String),
  });
  // A given password is the person's own: no change asked.
  const given = await registerUser(stack, acmeAdmin, { email: 'given@acme.test', role: 'CALLER' });
  expect(given.json()).toMatchObject({ passwordChangeRequired: false });
  expect(given.json()).not.toHaveProperty('temporaryPassword');
});

test('reset password: a one-time password, the sessions end; reset two-step turns it off; neither on yourself or elsewhere', async () => {
  const id = await createUser(stack, { email: 'rita@acme.test', role: 'USER', companyId: acme });
  const browser = new Browser(stack);
  await browser.request('POST', '/api/auth/login', { email: 'rita@acme.test', password: PASSWORD });
  const token = browser.cookie(ACCESS_COOKIE)!;
  const reset = await api(acmeAdmin, 'POST', `/api/users/${id}/reset-password`);
  expect(reset.statusCode).toBe(200);
  const { temporaryPassword } = reset.json();
  expect(Object.keys(reset.json())).toEqual(['temporaryPassword']);
  expect((await api(token, 'GET', '/api/users/profile')).statusCode).toBe(401);
  expect((await browser.request('POST', '/api/auth/refresh')).statusCode).toBe(401);
  expect((await login(stack, { email: 'rita@acme.test', password: PASSWORD })).statusCode).toBe(401);
  await firstSignIn('rita@acme.test', temporaryPassword, 'rita has a new one');
  expect(
    (await outboxEvents(stack, 'user.password_changed')).filter((e) => e.data.id === id).map((e) => e.data.via),
  ).toEqual(['admin', 'profile']);

  await stack.database.query(
    `update auth.users set two_step_enabled = true, two_step_secret = 'sealed' where id = $1`,
    [id],
  );
  const off = await api(acmeAdmin, 'POST', `/api/users/${id}/reset-two-step`);
  expect(off.statusCode).toBe(200);
  expect(off.json()).toMatchObject({ _id: id, twoStepEnabled: false });
  expect(
    (await outboxEvents(stack, 'user.two_step_changed')).some((e) => e.data.id === id && e.data.enabled === false),
  ).toBe(true);

  expect((await api(acmeAdmin, 'POST', `/api/users/${acmeAdminId}/reset-password`)).statusCode).toBe(400);
  const stranger = await createUser(stack, { email: 'gus@globex.test', role: 'USER', companyId: globex });
  expect((await api(acmeAdmin, 'POST', `/api/users/${stranger}/reset-password`)).statusCode).toBe(404);
  expect((await api(acmeAdmin, 'POST', `/api/users/${stranger}/reset-two-step`)).statusCode).toBe(404);
});

test('the last active ADMIN of a company cannot be demoted, disabled, moved or deleted (409); with a second one it can', async () => {
  const solo = await createCompany(stack, { domain: 'solo' });
  const only = await createUser(stack, { email: 'only@solo.test', role: 'ADMIN', companyId: solo });
  for (const [method, payload] of [
    ['PUT', { role: 'USER' }],
    ['PUT', { status: 'disabled' }],
    ['PUT', { companyId: globex }],
    ['DELETE', undefined],
  ] as const) {
    const res = await api(host, method, `/api/users/${only}`, payload);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'LAST_ADMIN',
      message: expect.stringMatching(/at least one active administrator/),
    });
  }
  // Two administrators demoted at once: exactly one of them goes (the company's row serialises the checks).
  const second = await createUser(stack, { email: 'second@solo.test', role: 'ADMIN', companyId: solo });
  const both = await Promise.all([only, second].map((id) => api(host, 'PUT', `/api/users/${id}`, { role: 'USER' })));
  expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  const admins = await stack.database.query<{ n: number }>(
    `select count(*)::int as n from auth.users where company_id = $1 and role = 'ADMIN'`,
    [solo],
  );
  expect(admins[0]!.n).toBe(1);
});

test('an ADMIN never sees HOST_ADMINs nor raises anyone above ADMIN; lists filter by role and status and name the company', async () => {
  const hostId = await createUser(stack, { email: 'root2@platform.test', role: 'HOST_ADMIN' });
  expect((await api(acmeAdmin, 'GET', `/api/users/${hostId}`)).statusCode).toBe(404);
  expect((await api(acmeAdmin, 'PUT', `/api/users/${hostId}`, { firstName: 'X' })).statusCode).toBe(404);
  expect((await api(acmeAdmin, 'GET', '/api/users?role=HOST_ADMIN')).json().total).toBe(0);
  const target = await createUser(stack, { email: 'dora@acme.test', role: 'USER', companyId: acme });
  const raise = await api(acmeAdmin, 'PUT', `/api/users/${target}`, { role: 'HOST_ADMIN' });
  expect(raise.statusCode).toBe(403);
  expect(raise.json().message).toMatch(/HOST_ADMIN/);
  expect((await api(acmeAdmin, 'PUT', `/api/users/${target}`, { status: 'disabled' })).statusCode).toBe(200);

  const disabled = (await api(acmeAdmin, 'GET', '/api/users?status=disabled')).json();
  expect(disabled.items.map((u: { email: string }) => u.email)).toEqual(['dora@acme.test']);
  expect(disabled.items[0]).toMatchObject({
    role: 'USER',
    status: 'disabled',
    companyId: acme,
    companyName: 'acme',
    twoStepEnabled: false,
    lastSignInAt: null,
    createdAt: expect.any(String),
  });
  const admins = (await api(host, 'GET', `/api/users?role=ADMIN&status=active&companyId=${acme}`)).json();
  expect(admins.items.map((u: { _id: string }) => u._id)).toEqual([acmeAdminId]);
  expect((await api(acmeAdmin, 'GET', '/api/users?status=gone')).statusCode).toBe(400);

  const dropdown = (await api(host, 'GET', `/api/users/dropdown?companyId=${acme}`)).json();
  expect(dropdown).toContainEqual({ _id: acmeAdminId, name: 'Test ADMIN', email: 'admin@acme.test' });
  expect(dropdown.every((d: { email: string }) => d.email.endsWith('@acme.test'))).toBe(true);
});

/**
 * On PostgreSQL the creations are made to overlap for certain: a transaction of the test holds
 * auth.users for reads only (inserts wait) until every connection the app has left is waiting, so
 * without the company's row lock each would have counted 0 users and all of them would be inserted.
 * PGlite has one connection: its transactions cannot overlap at all.
 */
async function allAtOnce<T>(requests: () => Promise<T>[]): Promise<T[]> {
  if (stack.database.kind === 'pglite') return Promise.all(requests());
  let pending: Promise<T[]> | undefined;
  await stack.database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table auth.users in exclusive mode`);
    pending = Promise.all(requests());
    // The test stack's pool has 5 connections: this one, and 4 for the requests.
    for (let polls = 0; ; polls += 1) {
      // Activity is read once per transaction unless the snapshot is dropped.
      await tx.execute(sql`select pg_stat_clear_snapshot()`);
      const { rows } = (await tx.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      )) as unknown as { rows: { n: number }[] };
      if (rows[0]!.n >= 4) break;
      if (polls > 100_000) throw new Error('the creations never queued up');
    }
  });
  return pending!;
}

test('max users under concurrent creation: 10 at once against a limit of 3 → exactly 3', async () => {
  const full = await createCompany(stack, { domain: 'full', maxUsers: 3 });
  const results = await allAtOnce(() =>
    Array.from({ length: 10 }, (_, i) =>
      registerUser(stack, host, { email: `racer${i}@full.test`, role: 'USER', companyId: full }),
    ),
  );
  const codes = results.map((r) => r.statusCode);
  expect(codes.filter((c) => c === 201)).toHaveLength(3);
  expect(codes.filter((c) => c === 409)).toHaveLength(7);
  expect(results.find((r) => r.statusCode === 409)!.json()).toMatchObject({
    message: 'This company has reached its maximum number of users',
    code: 'USER_LIMIT_REACHED',
  });
  const rows = await stack.database.query<{ n: number }>(
    `select count(*)::int as n from auth.users where company_id = $1`,
    [full],
  );
  expect(rows[0]!.n).toBe(3);
});

async function publishFile(type: 'file.uploaded' | 'file.deleted', companyId: string, data: Record<string, unknown>) {
  const envelope = buildEnvelope({ type, companyId, actor: SYSTEM_ACTOR, data });
  await stack.bus.publish([{ topic: 'earshot.file', key: String(data.id), envelope }]);
  await stack.settle();
}

test('consumer users: the people of b2c companies with their recordings and storage (from file events), HOST_ADMIN only', async () => {
  const shop = await createCompany(stack, { domain: 'shop', type: 'b2c' });
  const alice = await createUser(stack, {
    email: 'alice@shop.test',
    role: 'USER',
    companyId: shop,
    firstName: 'Alice',
  });
  const bob = await createUser(stack, { email: 'bob@shop.test', role: 'USER', companyId: shop, firstName: 'Bob' });
  const files = [randomUUID(), randomUUID(), randomUUID()];
  const uploaded = (id: string, size: number, by: string) => ({
    id,
    storageKey: `${shop}/${id}`,
    originalName: 'a.wav',
    mimeType: 'audio/wav',
    size,
    clientId: null,
    uploadedBy: by,
  });
  await publishFile('file.uploaded', shop, uploaded(files[0]!, 1000, alice));
  await publishFile('file.uploaded', shop, uploaded(files[1]!, 2500, alice));
  await publishFile('file.uploaded', shop, uploaded(files[1]!, 2500, alice)); // a replay counts once
  await publishFile('file.uploaded', shop, uploaded(files[2]!, 700, bob));
  await publishFile('file.deleted', shop, { id: files[2], storageKey: `${shop}/${files[2]}` });

  const res = await api(host, 'GET', '/api/users/b2c?pageSize=50');
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ page: 1, pageSize: 50, total: 2, totalPages: 1 });
  const byEmail = Object.fromEntries(body.items.map((u: { email: string }) => [u.email, u]));
  expect(byEmail['alice@shop.test']).toEqual({
    _id: alice,
    firstName: 'Alice',
    lastName: 'USER',
    email: 'alice@shop.test',
    companyId: shop,
    companyName: 'shop',
    status: 'active',
    recordings: 2,
    storageUsed: 3500,
    lastSignInAt: null,
    createdAt: expect.any(String),
  });
  expect(byEmail['bob@shop.test']).toMatchObject({ recordings: 0, storageUsed: 0 });
  // Search; and people of other company types are not consumer users.
  expect((await api(host, 'GET', '/api/users/b2c?q=bob')).json().items.map((u: { _id: string }) => u._id)).toEqual([
    bob,
  ]);
  expect((await api(host, 'GET', '/api/users/b2c?q=acme')).json().total).toBe(0);
  for (const role of ['ADMIN', 'USER', 'CALLER'] as const) {
    expect((await api(await stack.tokenFor(role, shop), 'GET', '/api/users/b2c')).statusCode).toBe(403);
  }
});
