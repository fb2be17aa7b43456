import { jest } from '@jest/globals';
import type { TestStack } from '@earshot/kit/testing';
import { authService } from '../src/index';
import type { AuthContext } from '../src/services/context';
import {
  ADMIN_EMAIL,
  Browser,
  PASSWORD,
  authStack,
  createCompany,
  createUser,
  login,
  outboxEvents,
  publishCompany,
  registerUser,
} from './helpers';

let stack: TestStack;
let acme: string;
let globex: string;
let host: string;
let acmeAdmin: string;
let acmeAdminId: string;
let globexUserId: string;

beforeAll(async () => {
  stack = await authStack();
  acme = await createCompany(stack, { domain: 'acme', maxUsers: 4 });
  globex = await createCompany(stack, { domain: 'globex' });
  host = await stack.tokenFor('HOST_ADMIN', null);
  acmeAdminId = await createUser(stack, { email: 'admin@acme.test', role: 'ADMIN', companyId: acme });
  acmeAdmin = await stack.tokenFor('ADMIN', acme, acmeAdminId);
  globexUserId = await createUser(stack, {
    email: 'user@globex.test',
    role: 'USER',
    companyId: globex,
    firstName: 'Gloria',
  });
});
afterAll(async () => stack.close());

test('an ADMIN creates users in their own company; the event carries before/after without secrets', async () => {
  const res = await registerUser(stack, acmeAdmin, { email: 'New.Person@Acme.test', role: 'USER', firstName: 'Nina' });
  expect(res.statusCode).toBe(201);
  const user = res.json();
  expect(user).toMatchObject({
    email: 'new.person@acme.test',
    companyId: acme,
    roles: { role: { code: 'USER' } },
    status: 'active',
    twoStepEnabled: false,
  });
  expect(JSON.stringify(user)).not.toMatch(/argon2|passwordHash|correct horse/i);
  const created = (await outboxEvents(stack, 'user.created')).find((e) => e.data.id === user._id)!;
  expect(created.companyId).toBe(acme);
  expect(created.actor).toMatchObject({ type: 'user', id: acmeAdminId, role: 'ADMIN' });
  expect(created.data.after).toEqual({
    email: 'new.person@acme.test',
    firstName: 'Nina',
    lastName: 'USER',
    role: 'USER',
    companyId: acme,
    status: 'active',
    avatar: null,
    monthlyCredits: null,
  });
  expect(JSON.stringify(created)).not.toMatch(/argon2|correct horse/);
  // The new person signs in with the password given.
  expect((await login(stack, { email: 'new.person@acme.test', password: PASSWORD })).statusCode).toBe(200);
});

test('an ADMIN cannot create a HOST_ADMIN, nor users in another company', async () => {
  const platform = await registerUser(stack, acmeAdmin, { email: 'boss@acme.test', role: 'HOST_ADMIN' });
  expect(platform.statusCode).toBe(403);
  const elsewhere = await registerUser(stack, acmeAdmin, { email: 'spy@globex.test', role: 'USER', companyId: globex });
  expect(elsewhere.statusCode).toBe(404);
  expect(elsewhere.json().message).toBe('Company not found');
});

test('HOST_ADMIN must name an existing company for company roles; creates platform admins without one', async () => {
  const missing = await registerUser(stack, host, { email: 'x@acme.test', role: 'USER' });
  expect(missing.statusCode).toBe(400);
  expect(missing.json().details).toEqual([expect.objectContaining({ field: 'body.companyId' })]);
  const unknown = await registerUser(stack, host, {
    email: 'x@acme.test',
    role: 'USER',
    companyId: '7b0e7c4e-5a43-4d8e-9d0c-2f3c0b9b6f10',
  });
  expect(unknown.statusCode).toBe(404);
  expect(unknown.json().message).toBe('Company not found');
  const platform = await registerUser(stack, host, { email: 'second.root@platform.test', role: 'HOST_ADMIN' });
  expect(platform.statusCode).toBe(201);
  expect(platform.json().companyId).toBeNull();
});

test('a duplicate email in the same company is a 409; the same email in another company is fine', async () => {
  const dup = await registerUser(stack, host, { email: 'ADMIN@acme.test', role: 'USER', companyId: acme });
  expect(dup.statusCode).toBe(409);
  const other = await registerUser(stack, host, { email: 'admin@acme.test', role: 'USER', companyId: globex });
  expect(other.statusCode).toBe(201);
});

test("the company's maxUsers is enforced with 409", async () => {
  // acme allows 4: the admin and new.person exist.
  expect((await registerUser(stack, acmeAdmin, { email: 'third@acme.test', role: 'CALLER' })).statusCode).toBe(201);
  expect((await registerUser(stack, acmeAdmin, { email: 'fourth@acme.test', role: 'USER' })).statusCode).toBe(201);
  const full = await registerUser(stack, acmeAdmin, { email: 'fifth@acme.test', role: 'USER' });
  expect(full.statusCode).toBe(409);
  expect(full.json()).toEqual({
    message: 'This company has reached its maximum number of users',
    code: 'USER_LIMIT_REACHED',
    details: [{ field: 'body.companyId', message: 'This company has reached its maximum number of users' }],
  });
  // Raising the limit (a tenant event) lets the next one in.
  await publishCompany(stack, 'company.updated', acme, { domain: 'acme', maxUsers: 5 });
  expect((await registerUser(stack, acmeAdmin, { email: 'fifth@acme.test', role: 'USER' })).statusCode).toBe(201);
});

test("isolation: an ADMIN of acme gets 404 for globex's user, and never sees globex in lists", async () => {
  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    const res = await stack.as(acmeAdmin, {
      method,
      url: `/api/users/${globexUserId}`,
      ...(method === 'PUT' ? { payload: { firstName: 'Hacked' } } : {}),
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('globex.test');
  }
  const list = await stack.as(acmeAdmin, { method: 'GET', url: `/api/users?companyId=${globex}&pageSize=200` });
  expect(list.statusCode).toBe(200);
  expect(list.json().items.every((u: { companyId: string }) => u.companyId === acme)).toBe(true);
  const dropdown = await stack.as(acmeAdmin, { method: 'GET', url: '/api/users/dropdown' });
  expect(dropdown.json().map((d: { name: string }) => d.name)).not.toContain('Gloria USER');
  // The platform administrator sees and filters every company.
  const hostList = await stack.as(host, { method: 'GET', url: `/api/users?companyId=${globex}` });
  expect(hostList.json().items.map((u: { _id: string }) => u._id)).toContain(globexUserId);
  expect(hostList.json().items.every((u: { companyId: string }) => u.companyId === globex)).toBe(true);
  expect((await stack.as(host, { method: 'GET', url: `/api/users/${globexUserId}` })).json().firstName).toBe('Gloria');
});

test('lists are paginated and searchable', async () => {
  const page = await stack.as(acmeAdmin, { method: 'GET', url: '/api/users?page=2&pageSize=2' });
  expect(page.statusCode).toBe(200);
  const body = page.json();
  expect(body).toMatchObject({ page: 2, pageSize: 2, total: 5, totalPages: 3 });
  expect(body.items).toHaveLength(2);
  const found = await stack.as(acmeAdmin, { method: 'GET', url: '/api/users?q=nina' });
  expect(found.json().items.map((u: { email: string }) => u.email)).toEqual(['new.person@acme.test']);
  const wildcard = await stack.as(acmeAdmin, { method: 'GET', url: '/api/users?q=%25' });
  expect(wildcard.json().total).toBe(0);
});

test('roles: USER and CALLER are refused; an ADMIN sees only the roles it may give', async () => {
  for (const role of ['USER', 'CALLER'] as const) {
    const token = await stack.tokenFor(role, acme);
    expect((await stack.as(token, { method: 'GET', url: '/api/users' })).statusCode).toBe(403);
    expect((await stack.as(token, { method: 'GET', url: '/api/roles' })).statusCode).toBe(403);
    expect((await stack.as(token, { method: 'POST', url: '/api/users/register', payload: {} })).statusCode).toBe(403);
  }
  const assignable = (roles: { code: string; assignable: boolean }[]) =>
    roles.filter((r) => r.assignable).map((r) => r.code);
  const adminRoles = (await stack.as(acmeAdmin, { method: 'GET', url: '/api/roles' })).json();
  expect(adminRoles.map((r: { code: string }) => r.code)).toEqual(['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER']);
  expect(assignable(adminRoles)).toEqual(['ADMIN', 'USER', 'CALLER']);
  expect(adminRoles[0]).toEqual({
    code: 'HOST_ADMIN',
    name: 'Platform administrator',
    description: expect.any(String),
    assignable: false,
  });
  const hostRoles = (await stack.as(host, { method: 'GET', url: '/api/roles' })).json();
  expect(assignable(hostRoles)).toEqual(['HOST_ADMIN', 'ADMIN', 'USER', 'CALLER']);
});

test('updates: an ADMIN edits own-company users, cannot promote to HOST_ADMIN or move users; events show before/after', async () => {
  const target = (await stack.as(acmeAdmin, { method: 'GET', url: '/api/users?q=third' })).json().items[0]._id;
  const promoted = await stack.as(acmeAdmin, {
    method: 'PUT',
    url: `/api/users/${target}`,
    payload: { role: 'HOST_ADMIN' },
  });
  expect(promoted.statusCode).toBe(403);
  const moved = await stack.as(acmeAdmin, {
    method: 'PUT',
    url: `/api/users/${target}`,
    payload: { companyId: globex },
  });
  expect(moved.statusCode).toBe(403);
  const changed = await stack.as(acmeAdmin, {
    method: 'PUT',
    url: `/api/users/${target}`,
    payload: { role: 'USER', lastName: 'Renamed' },
  });
  expect(changed.statusCode).toBe(200);
  expect(changed.json()).toMatchObject({ lastName: 'Renamed', roles: { role: { code: 'USER' } } });
  const updated = (await outboxEvents(stack, 'user.updated')).filter((e) => e.data.id === target).at(-1)!;
  expect(updated.data.before).toMatchObject({ role: 'CALLER', lastName: 'CALLER' });
  expect(updated.data.after).toMatchObject({ role: 'USER', lastName: 'Renamed' });
  // Email collisions are caught on update too.
  const clash = await stack.as(acmeAdmin, {
    method: 'PUT',
    url: `/api/users/${target}`,
    payload: { email: 'admin@acme.test' },
  });
  expect(clash.statusCode).toBe(409);
  // Nobody demotes or disables themselves into a lock-out.
  expect(
    (await stack.as(acmeAdmin, { method: 'PUT', url: `/api/users/${acmeAdminId}`, payload: { role: 'USER' } }))
      .statusCode,
  ).toBe(400);
});

test("an admin-set password works and ends the user's sessions", async () => {
  const target = (await stack.as(acmeAdmin, { method: 'GET', url: '/api/users?q=fourth' })).json().items[0]._id;
  const browser = new Browser(stack);
  await browser.request('POST', '/api/auth/login', { email: 'fourth@acme.test', password: PASSWORD });
  const reset = await stack.as(acmeAdmin, {
    method: 'PUT',
    url: `/api/users/${target}`,
    payload: { password: 'set by the admin' },
  });
  expect(reset.statusCode).toBe(200);
  expect((await browser.request('POST', '/api/auth/refresh')).statusCode).toBe(401);
  expect((await login(stack, { email: 'fourth@acme.test', password: 'set by the admin' })).statusCode).toBe(200);
  expect(
    (await outboxEvents(stack, 'user.password_changed')).some((e) => e.data.id === target && e.data.via === 'admin'),
  ).toBe(true);
});

test('delete: not yourself; others go, with a user.deleted event', async () => {
  const self = await stack.as(acmeAdmin, { method: 'DELETE', url: `/api/users/${acmeAdminId}` });
  expect(self.statusCode).toBe(400);
  const target = (await stack.as(acmeAdmin, { method: 'GET', url: '/api/users?q=fifth' })).json().items[0]._id;
  expect((await stack.as(acmeAdmin, { method: 'DELETE', url: `/api/users/${target}` })).statusCode).toBe(204);
  expect((await stack.as(acmeAdmin, { method: 'GET', url: `/api/users/${target}` })).statusCode).toBe(404);
  const deleted = (await outboxEvents(stack, 'user.deleted')).find((e) => e.data.id === target)!;
  expect(deleted.data.before).toMatchObject({ email: 'fifth@acme.test' });
  expect((await login(stack, { email: 'fifth@acme.test', password: PASSWORD })).statusCode).toBe(401);
});

test('own profile and own password: every role; other sessions end, this one stays', async () => {
  await createUser(stack, { email: 'caller@acme2.test', role: 'CALLER', companyId: globex });
  const mine = new Browser(stack);
  const other = new Browser(stack, '10.0.0.77');
  await mine.request('POST', '/api/auth/login', { email: 'caller@acme2.test', password: PASSWORD });
  await other.request('POST', '/api/auth/login', { email: 'caller@acme2.test', password: PASSWORD });
  const profile = await mine.request('PUT', '/api/users/profile', {
    firstName: 'Carla',
    avatar: '/api/uploads/avatars/carla.png',
  });
  expect(profile.statusCode).toBe(200);
  expect(profile.json()).toMatchObject({ firstName: 'Carla', avatar: '/api/uploads/avatars/carla.png' });
  const wrong = await mine.request('PUT', '/api/users/password', {
    currentPassword: 'not it',
    newPassword: 'a brand new password',
  });
  expect(wrong.statusCode).toBe(400);
  expect(wrong.json().details[0].field).toBe('body.currentPassword');
  const short = await mine.request('PUT', '/api/users/password', { currentPassword: PASSWORD, newPassword: 'short' });
  expect(short.statusCode).toBe(400);
  expect(short.json().message).toMatch(/newPassword/);
  expect(
    (
      await mine.request('PUT', '/api/users/password', {
        currentPassword: PASSWORD,
        newPassword: 'a brand new password',
      })
    ).statusCode,
  ).toBe(200);
  expect((await other.request('POST', '/api/auth/refresh')).statusCode).toBe(401);
  expect((await mine.request('POST', '/api/auth/refresh')).statusCode).toBe(200);
  expect((await login(stack, { email: 'caller@acme2.test', password: PASSWORD })).statusCode).toBe(401);
  expect((await login(stack, { email: 'caller@acme2.test', password: 'a brand new password' })).statusCode).toBe(200);
});

test('bad input: unknown fields, over-long strings and wrong types are a 400 naming the field; nothing is written', async () => {
  const before = (await stack.as(host, { method: 'GET', url: '/api/users' })).json().total;
  const cases: [Record<string, unknown>, RegExp][] = [
    [
      {
        firstName: 'A',
        lastName: 'B',
        email: 'a@b.test',
        password: PASSWORD,
        role: 'USER',
        companyId: globex,
        isAdmin: true,
      },
      /isAdmin/,
    ],
    [
      {
        firstName: 'A'.repeat(101),
        lastName: 'B',
        email: 'a@b.test',
        password: PASSWORD,
        role: 'USER',
        companyId: globex,
      },
      /firstName/,
    ],
    [
      { firstName: 'A', lastName: 'B', email: 'a@b.test', password: 'p'.repeat(201), role: 'USER', companyId: globex },
      /password/,
    ],
    [
      { firstName: 'A', lastName: 'B', email: 'not-an-email', password: PASSWORD, role: 'USER', companyId: globex },
      /email/,
    ],
    [{ firstName: 'A', lastName: 'B', email: 'a@b.test', password: PASSWORD, role: 'KING', companyId: globex }, /role/],
    [
      { firstName: 42, lastName: 'B', email: 'a@b.test', password: PASSWORD, role: 'USER', companyId: globex },
      /firstName/,
    ],
    [
      { firstName: 'A', lastName: 'B', email: 'a@b.test', password: PASSWORD, role: 'USER', companyId: 'acme' },
      /companyId/,
    ],
  ];
  for (const [payload, field] of cases) {
    const res = await stack.as(host, { method: 'POST', url: '/api/users/register', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(field);
  }
  const badLogin = await stack.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'a@b.test', password: 'x', admin: true },
  });
  expect(badLogin.statusCode).toBe(400);
  expect(badLogin.json().message).toMatch(/admin/);
  const malformed = await stack.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: '{"email":',
  });
  expect(malformed.statusCode).toBe(400);
  expect((await stack.as(host, { method: 'GET', url: '/api/users/not-a-uuid' })).statusCode).toBe(400);
  expect((await stack.as(host, { method: 'GET', url: '/api/users?pageSize=100000' })).json().message).toMatch(
    /pageSize/,
  );
  expect((await stack.as(host, { method: 'GET', url: '/api/users' })).json().total).toBe(before);
});

test('first start creates exactly one HOST_ADMIN, and not again on restart', async () => {
  const admins = await stack.database.query<{ email: string }>(
    `select email from auth.users where role = 'HOST_ADMIN' and email = $1`,
    [ADMIN_EMAIL],
  );
  expect(admins).toHaveLength(1);
  const ctx = stack.running.contexts.get('auth') as AuthContext;
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await authService.start!(ctx);
    // Even with another ADMIN_EMAIL, an existing platform administrator means nothing is created.
    await authService.start!({ ...ctx, config: { ...ctx.config, ADMIN_EMAIL: 'other@platform.test' } });
  } finally {
    log.mockRestore();
  }
  expect(log).not.toHaveBeenCalled();
  const count = await stack.database.query<{ n: string }>(
    `select count(*)::text as n from auth.users where role = 'HOST_ADMIN'`,
  );
  expect(count[0]!.n).toBe('2'); // the first-start one and the one created through the API above
});

test('a monthly credits cap: set and cleared by the company’s ADMIN or the platform administrator, carried by user.updated', async () => {
  const personId = await createUser(stack, { email: 'capped@acme.test', role: 'USER', companyId: acme });
  const cap = (token: string, id: string, monthlyCredits: unknown) =>
    stack.as(token, { method: 'PUT', url: `/api/users/${id}/cap`, payload: { monthlyCredits } });

  expect((await cap(acmeAdmin, personId, 250.5)).json()).toEqual({ _id: personId, monthlyCredits: 250.5 });
  const updated = (await outboxEvents(stack, 'user.updated')).filter((e) => e.data.id === personId);
  expect(
    updated.map((e) => [
      (e.data.before as { monthlyCredits: unknown }).monthlyCredits,
      (e.data.after as { monthlyCredits: unknown }).monthlyCredits,
    ]),
  ).toEqual([[null, 250.5]]);
  const listed = (await stack.as(acmeAdmin, { method: 'GET', url: '/api/users?pageSize=100' })).json() as {
    items: { _id: string; monthlyCredits: number | null }[];
  };
  expect(listed.items.find((u) => u._id === personId)?.monthlyCredits).toBe(250.5);

  // The same cap again changes nothing and says nothing.
  await cap(acmeAdmin, personId, 250.5);
  expect((await outboxEvents(stack, 'user.updated')).filter((e) => e.data.id === personId)).toHaveLength(1);
  expect((await cap(host, personId, null)).json()).toEqual({ _id: personId, monthlyCredits: null });

  for (const bad of [0, -5, 'ten', 1.00001]) {
    const res = await cap(acmeAdmin, personId, bad);
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('body.monthlyCredits');
  }
  // Another company's person is not found; a USER may not set caps.
  expect((await cap(acmeAdmin, globexUserId, 10)).statusCode).toBe(404);
  expect((await cap(await stack.tokenFor('USER', acme, personId), personId, 10)).statusCode).toBe(403);
  expect((await cap(host, globexUserId, 10)).statusCode).toBe(200);
});
