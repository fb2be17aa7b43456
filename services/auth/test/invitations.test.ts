import { createHash } from 'node:crypto';
import { ACCESS_COOKIE, REFRESH_COOKIE, secretBox } from '@earshot/kit';
import { AUTH_CODES, AUTH_MESSAGES, INVITATION_DAYS } from '@earshot/contracts';
import type { TestStack } from '@earshot/kit/testing';
import { RESET_INVALID } from '../src/services/credentials';
import { Browser, authStack, cookieValue, createCompany, createUser, login, outboxEvents } from './helpers';

// Invitations: a user created with invite: true waits (status invited, no password) until they
// choose a password with the mailed link, which also signs them in. Administrators resend (the old
// link dies) or revoke (the waiting account goes) within their own company.

let stack: TestStack;
let acme: string;
let host: string;
let acmeAdmin: string;
let globexAdmin: string;

beforeAll(async () => {
  stack = await authStack({ PUBLIC_URL: 'https://console.example.com' });
  acme = await createCompany(stack, { domain: 'acme' });
  const globex = await createCompany(stack, { domain: 'globex' });
  host = await stack.tokenFor('HOST_ADMIN', null);
  acmeAdmin = await stack.tokenFor(
    'ADMIN',
    acme,
    await createUser(stack, { email: 'admin@acme.test', role: 'ADMIN', companyId: acme }),
  );
  globexAdmin = await stack.tokenFor(
    'ADMIN',
    globex,
    await createUser(stack, { email: 'admin@globex.test', role: 'ADMIN', companyId: globex }),
  );
});
afterAll(async () => stack.close());

const api = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  stack.as(token, { method, url, ...(payload ? { payload } : {}) });

async function invite(email: string, token = acmeAdmin) {
  const res = await api(token, 'POST', '/api/users/register', {
    firstName: 'Ivy',
    lastName: 'Invited',
    email,
    role: 'USER',
    invite: true,
  });
  expect([res.statusCode, res.statusCode === 201 ? '' : res.body]).toEqual([201, '']);
  return res.json() as { _id: string; status: string; invitationExpiresAt: string | null; temporaryPassword?: string };
}

/** The invitation links announced for `email`, newest last, opened as the mail sender opens them. */
async function invitationLinks(email: string): Promise<string[]> {
  const box = secretBox(stack.config, 'mail');
  return (await outboxEvents(stack, 'user.invited'))
    .filter((e) => e.data.email === email)
    .map((e) => box.open(String(e.data.sealedLink)));
}

async function latestToken(email: string): Promise<string> {
  const link = (await invitationLinks(email)).at(-1)!;
  return new URL(link).searchParams.get('token')!;
}

const accept = (token: string, password: string, browser = new Browser(stack)) =>
  browser.request('POST', '/api/auth/password/reset', { token, password });

test('an invited user waits without a password: the sealed link starts with PUBLIC_URL, the token is stored hashed', async () => {
  const created = await invite('ivy@acme.test');
  expect(created).toMatchObject({ status: 'invited' });
  expect(created).not.toHaveProperty('temporaryPassword');
  const expires = Date.parse(created.invitationExpiresAt!) - Date.now();
  expect(expires).toBeGreaterThan((INVITATION_DAYS * 24 - 1) * 3600_000);
  expect(expires).toBeLessThanOrEqual(INVITATION_DAYS * 24 * 3600_000);

  const [event] = (await outboxEvents(stack, 'user.invited')).filter((e) => e.data.email === 'ivy@acme.test');
  expect(event).toMatchObject({
    companyId: acme,
    data: { id: created._id, firstName: 'Ivy', expiresInDays: INVITATION_DAYS, resent: false },
  });
  const [link] = await invitationLinks('ivy@acme.test');
  expect(link).toMatch(/^https:\/\/console\.example\.com\/reset-password\?token=[\w-]+&invite=1$/);
  const token = new URL(link!).searchParams.get('token')!;
  // Neither the event nor the database holds the usable token.
  expect(JSON.stringify(event)).not.toContain(token);
  const rows = await stack.database.query<{ token_hash: string; purpose: string }>(
    'select token_hash, purpose from auth.password_resets where user_id = $1',
    [created._id],
  );
  expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex'), purpose: 'invitation' }]);
  expect(JSON.stringify(rows)).not.toContain(token);

  const created2 = (await outboxEvents(stack, 'user.created')).find((e) => e.data.id === created._id);
  expect(created2?.data.after).toMatchObject({ status: 'invited' });
});

test('an invited user cannot sign in and is told why; a reset request makes no link for them', async () => {
  await invite('wait@acme.test');
  for (const password of ['x', 'anything at all']) {
    const res = await login(stack, { email: 'wait@acme.test', password });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: AUTH_MESSAGES.invitationPending, code: AUTH_CODES.invitationPending });
  }
  expect(
    (await stack.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email: 'wait@acme.test' } }))
      .statusCode,
  ).toBe(202);
  expect(
    (await outboxEvents(stack, 'user.password_reset_requested')).filter((e) => e.data.email === 'wait@acme.test'),
  ).toEqual([]);
});

test('the link sets the first password, makes the user active and signs them in; it works once', async () => {
  const { _id } = await invite('sam@acme.test');
  const token = await latestToken('sam@acme.test');
  const browser = new Browser(stack);
  const done = await accept(token, 'sam chose this password', browser);
  expect(done.statusCode).toBe(200);
  expect(done.json().user).toMatchObject({ _id, email: 'sam@acme.test' });
  expect(cookieValue(done, ACCESS_COOKIE)).toEqual(expect.any(String));
  expect(cookieValue(done, REFRESH_COOKIE)).toEqual(expect.any(String));
  expect((await browser.request('GET', '/api/users/profile')).json()).toMatchObject({ _id, status: 'active' });

  const again = await accept(token, 'another password here');
  expect(again.statusCode).toBe(400);
  expect(again.json()).toMatchObject({
    message: RESET_INVALID,
    details: [{ field: 'body.token', message: RESET_INVALID }],
  });
  expect((await login(stack, { email: 'sam@acme.test', password: 'sam chose this password' })).statusCode).toBe(200);
  expect((await api(acmeAdmin, 'GET', `/api/users/${_id}`)).json()).toMatchObject({
    status: 'active',
    invitationExpiresAt: null,
  });
  const updated = (await outboxEvents(stack, 'user.updated')).filter((e) => e.data.id === _id);
  expect(
    updated.map((e) => [(e.data.before as { status: string }).status, (e.data.after as { status: string }).status]),
  ).toEqual([['invited', 'active']]);
});

test('an expired invitation gives the same error as a spent reset link', async () => {
  const { _id } = await invite('late@acme.test');
  const token = await latestToken('late@acme.test');
  await stack.database.query(
    `update auth.password_resets set expires_at = now() - interval '1 second' where user_id = $1`,
    [_id],
  );
  const res = await accept(token, 'too late for this');
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ message: RESET_INVALID, details: [{ field: 'body.token' }] });
  expect((await api(acmeAdmin, 'GET', `/api/users/${_id}`)).json()).toMatchObject({
    status: 'invited',
    invitationExpiresAt: null,
  });
});

test('resend makes a new link and kills the old one; revoke deletes the waiting account', async () => {
  const { _id } = await invite('re@acme.test');
  const first = await latestToken('re@acme.test');
  const resent = await api(acmeAdmin, 'POST', `/api/users/${_id}/invitation`);
  expect(resent.statusCode).toBe(200);
  expect(resent.json()).toMatchObject({ _id, status: 'invited', invitationExpiresAt: expect.any(String) });
  const events = (await outboxEvents(stack, 'user.invited')).filter((e) => e.data.id === _id);
  expect(events.map((e) => e.data.resent)).toEqual([false, true]);
  expect(events[1]!.actor).toMatchObject({ type: 'user' });
  const second = await latestToken('re@acme.test');
  expect(second).not.toBe(first);
  expect((await accept(first, 'the first link is dead')).statusCode).toBe(400);
  expect((await accept(second, 'the second link works')).statusCode).toBe(200);
  // Accepted: nothing left to resend or revoke.
  expect((await api(acmeAdmin, 'POST', `/api/users/${_id}/invitation`)).json()).toMatchObject({
    message: AUTH_MESSAGES.notInvited,
  });
  expect((await api(acmeAdmin, 'DELETE', `/api/users/${_id}/invitation`)).statusCode).toBe(409);

  const gone = await invite('gone@acme.test');
  const goneToken = await latestToken('gone@acme.test');
  expect((await api(acmeAdmin, 'DELETE', `/api/users/${gone._id}/invitation`)).statusCode).toBe(204);
  expect((await api(acmeAdmin, 'GET', `/api/users/${gone._id}`)).statusCode).toBe(404);
  expect((await accept(goneToken, 'revoked link here')).statusCode).toBe(400);
  expect((await outboxEvents(stack, 'user.invitation_revoked')).map((e) => e.data)).toEqual([
    { id: gone._id, email: 'gone@acme.test' },
  ]);
  expect((await outboxEvents(stack, 'user.deleted')).map((e) => e.data.id)).toContain(gone._id);
});

test("another company's administrator gets 404; the platform administrator acts on any company", async () => {
  const { _id } = await invite('iso@acme.test');
  expect((await api(globexAdmin, 'POST', `/api/users/${_id}/invitation`)).statusCode).toBe(404);
  expect((await api(globexAdmin, 'DELETE', `/api/users/${_id}/invitation`)).statusCode).toBe(404);
  expect(await invitationLinks('iso@acme.test')).toHaveLength(1);
  expect((await api(host, 'POST', `/api/users/${_id}/invitation`)).statusCode).toBe(200);
  expect((await api(host, 'DELETE', `/api/users/${_id}/invitation`)).statusCode).toBe(204);
});

test('validation names the field; an invited user is activated only by a password, never by a switch', async () => {
  const both = await api(acmeAdmin, 'POST', '/api/users/register', {
    firstName: 'A',
    lastName: 'B',
    email: 'both@acme.test',
    role: 'USER',
    invite: true,
    password: 'a long password',
  });
  expect(both.statusCode).toBe(400);
  expect(both.json().details).toEqual([expect.objectContaining({ field: 'body.invite' })]);
  const notTrue = await api(acmeAdmin, 'POST', '/api/users/register', {
    firstName: 'A',
    lastName: 'B',
    email: 'no@acme.test',
    role: 'USER',
    invite: 'yes',
  });
  expect(notTrue.statusCode).toBe(400);
  expect(notTrue.json().details).toEqual([expect.objectContaining({ field: 'body.invite' })]);
  expect((await api(acmeAdmin, 'GET', '/api/users?q=both@acme.test')).json().total).toBe(0);

  const { _id } = await invite('switch@acme.test');
  const switched = await api(acmeAdmin, 'PUT', `/api/users/${_id}`, { status: 'active' });
  expect(switched.statusCode).toBe(400);
  expect(switched.json().details).toEqual([expect.objectContaining({ field: 'body.status' })]);
  expect((await api(acmeAdmin, 'PUT', `/api/users/${_id}`, { status: 'invited' })).statusCode).toBe(400);
  expect((await api(acmeAdmin, 'POST', `/api/users/${_id}/reset-password`)).statusCode).toBe(409);
  const token = await latestToken('switch@acme.test');
  // An administrator who sets a password instead: the account is active, the invitation link dead.
  expect((await api(acmeAdmin, 'PUT', `/api/users/${_id}`, { password: 'set by the admin' })).json()).toMatchObject({
    status: 'active',
    invitationExpiresAt: null,
  });
  expect((await accept(token, 'the link is spent now')).statusCode).toBe(400);
  expect((await login(stack, { email: 'switch@acme.test', password: 'set by the admin' })).statusCode).toBe(200);
  // The status filter finds the invited.
  const invited = (await api(acmeAdmin, 'GET', '/api/users?status=invited')).json();
  expect(invited.items.every((u: { status: string }) => u.status === 'invited')).toBe(true);
  expect(invited.items.map((u: { email: string }) => u.email)).toContain('wait@acme.test');
});
