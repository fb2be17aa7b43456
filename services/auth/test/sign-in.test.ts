import { ACCESS_COOKIE, REFRESH_COOKIE } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { ROLES } from '@earshot/contracts';
import { KNOWN_DEVICE_COOKIE } from '../src/services/throttle';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  Browser,
  PASSWORD,
  authStack,
  cookieValue,
  createCompany,
  createUser,
  login,
  outboxEvents,
  publishCompany,
  setCookieFor,
} from './helpers';

let stack: TestStack;
let acme: string;
let globex: string;

beforeAll(async () => {
  stack = await authStack();
  acme = await createCompany(stack, { domain: 'acme' });
  globex = await createCompany(stack, { domain: 'globex' });
  await createUser(stack, { email: 'admin@acme.test', role: 'ADMIN', companyId: acme });
  await createUser(stack, { email: 'user@acme.test', role: 'USER', companyId: acme });
  await createUser(stack, { email: 'caller@acme.test', role: 'CALLER', companyId: acme });
  // The same email in two companies, with different passwords.
  await createUser(stack, { email: 'shared@example.com', role: 'USER', companyId: acme, firstName: 'Acme' });
  await createUser(stack, {
    email: 'shared@example.com',
    role: 'USER',
    companyId: globex,
    firstName: 'Globex',
    password: 'globex password!',
  });
});
afterAll(async () => stack.close());

const accounts = [
  { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, role: 'HOST_ADMIN' },
  { email: 'admin@acme.test', password: PASSWORD, role: 'ADMIN' },
  { email: 'user@acme.test', password: PASSWORD, role: 'USER' },
  { email: 'caller@acme.test', password: PASSWORD, role: 'CALLER' },
];

test.each(accounts)('sign-in as $role answers the user and sets session cookies', async ({ email, password, role }) => {
  const res = await login(stack, { email, password });
  expect(res.statusCode).toBe(200);
  const { user } = res.json();
  expect(user).toEqual({
    _id: expect.any(String),
    firstName: expect.any(String),
    lastName: expect.any(String),
    email,
    avatar: null,
    companyId: role === 'HOST_ADMIN' ? null : acme,
    roles: { role: { code: role } },
    language: null,
    monthlyCredits: null,
  });
  const access = setCookieFor(res, ACCESS_COOKIE)!;
  const refresh = setCookieFor(res, REFRESH_COOKIE)!;
  expect(access).toMatch(/Path=\/;.*HttpOnly.*SameSite=Strict/);
  expect(refresh).toMatch(/Path=\/api\/auth;.*HttpOnly.*SameSite=Strict/);
  // Without "keep me logged in" both are session cookies.
  expect(access).not.toMatch(/Max-Age/);
  expect(refresh).not.toMatch(/Max-Age/);
  // The access token is a real session for this user.
  const verified = await stack.tokens.verify(cookieValue(res, ACCESS_COOKIE)!);
  expect(verified).toMatchObject({ userId: user._id, role, email });
  expect(ROLES).toContain(role);
});

test('keep me logged in makes both cookies persistent', async () => {
  const res = await login(stack, { email: 'user@acme.test', password: PASSWORD, remember: true });
  expect(res.statusCode).toBe(200);
  expect(setCookieFor(res, ACCESS_COOKIE)).toMatch(new RegExp(`Max-Age=${stack.config.ACCESS_TOKEN_TTL_SECONDS}`));
  expect(setCookieFor(res, REFRESH_COOKIE)).toMatch(
    new RegExp(`Max-Age=${stack.config.REFRESH_TOKEN_TTL_DAYS * 86400}`),
  );
});

test('wrong password and unknown email get the identical 401, and both are recorded', async () => {
  const wrong = await login(stack, { email: 'user@acme.test', password: 'not the password' }, '10.1.0.1');
  const unknown = await login(stack, { email: 'ghost@acme.test', password: 'not the password' }, '10.1.0.1');
  expect(wrong.statusCode).toBe(401);
  expect(unknown.statusCode).toBe(401);
  expect(wrong.body).toBe(unknown.body);
  expect(wrong.json()).toEqual({ message: 'Invalid email or password', code: 'UNAUTHENTICATED' });
  expect(setCookieFor(wrong, ACCESS_COOKIE)).toBeUndefined();
  const failed = await outboxEvents(stack, 'user.sign_in_failed');
  expect(failed.map((e) => e.data)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ email: 'user@acme.test', reason: 'invalid_credentials' }),
      { id: null, email: 'ghost@acme.test', reason: 'invalid_credentials' },
    ]),
  );
  const signedIn = await outboxEvents(stack, 'user.signed_in');
  expect(signedIn.some((e) => e.data.email === 'user@acme.test' && e.data.method === 'password')).toBe(true);
  expect(JSON.stringify(failed)).not.toContain('not the password');
});

test('domain picks the company when the same email exists in two companies', async () => {
  const inAcme = await login(stack, { email: 'shared@example.com', password: PASSWORD, domain: 'acme' });
  expect(inAcme.statusCode).toBe(200);
  expect(inAcme.json().user).toMatchObject({ companyId: acme, firstName: 'Acme' });
  const inGlobex = await login(stack, { email: 'shared@example.com', password: 'globex password!', domain: 'globex' });
  expect(inGlobex.json().user).toMatchObject({ companyId: globex, firstName: 'Globex' });
  // The acme password does not open the globex account.
  expect((await login(stack, { email: 'shared@example.com', password: PASSWORD, domain: 'globex' })).statusCode).toBe(
    401,
  );
  // Unknown domain: the same 401.
  const unknownDomain = await login(stack, { email: 'shared@example.com', password: PASSWORD, domain: 'nowhere' });
  expect(unknownDomain.statusCode).toBe(401);
  expect(unknownDomain.json().message).toBe('Invalid email or password');
  // Without a domain, the one account whose password matches signs in.
  const noDomain = await login(stack, { email: 'shared@example.com', password: 'globex password!' });
  expect(noDomain.json().user).toMatchObject({ companyId: globex });
});

test('disabled users and switched-off companies cannot sign in (same 401)', async () => {
  const initech = await createCompany(stack, { domain: 'initech' });
  const id = await createUser(stack, { email: 'peter@initech.test', role: 'USER', companyId: initech });
  expect((await login(stack, { email: 'peter@initech.test', password: PASSWORD })).statusCode).toBe(200);
  await publishCompany(stack, 'company.updated', initech, { domain: 'initech', status: 'suspended' });
  // The right password learns that the company is switched off; a wrong one learns nothing.
  const suspended = await login(stack, { email: 'peter@initech.test', password: PASSWORD });
  expect(suspended.statusCode).toBe(403);
  expect(suspended.json().message).toBe("Your company's access is suspended: contact your administrator");
  expect((await login(stack, { email: 'peter@initech.test', password: 'wrong password' })).json().message).toBe(
    'Invalid email or password',
  );
  await publishCompany(stack, 'company.updated', initech, { domain: 'initech', status: 'active' });
  const host = await stack.tokenFor('HOST_ADMIN', null);
  expect(
    (await stack.as(host, { method: 'PUT', url: `/api/users/${id}`, payload: { status: 'disabled' } })).statusCode,
  ).toBe(200);
  expect((await login(stack, { email: 'peter@initech.test', password: PASSWORD })).statusCode).toBe(401);
  const disabled = (await outboxEvents(stack, 'user.updated')).find((e) => e.data.id === id)!;
  expect(disabled.data).toMatchObject({ before: { status: 'active' }, after: { status: 'disabled' } });
  expect((await outboxEvents(stack, 'user.sign_in_failed')).some((e) => e.data.reason === 'disabled')).toBe(true);
});

test('throttling: 429 with Retry-After per account and address; the person still signs in elsewhere; the account lock is short', async () => {
  await createUser(stack, { email: 'target@acme.test', role: 'USER', companyId: acme });
  const attacker = '192.0.2.66';
  for (let i = 0; i < 5; i++)
    expect((await login(stack, { email: 'target@acme.test', password: `guess ${i}` }, attacker)).statusCode).toBe(401);
  const blocked = await login(stack, { email: 'target@acme.test', password: PASSWORD }, attacker);
  expect(blocked.statusCode).toBe(429);
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(60);
  expect(blocked.json().code).toBe('RATE_LIMITED');
  // The owner, from their own address, is not locked out.
  expect((await login(stack, { email: 'target@acme.test', password: PASSWORD }, '198.51.100.1')).statusCode).toBe(200);

  // Many addresses together trip the per-account lock, which is short.
  for (let i = 0; i < 10; i++)
    await login(stack, { email: 'target@acme.test', password: `spray ${i}` }, `203.0.113.${i}`);
  const locked = await login(stack, { email: 'target@acme.test', password: PASSWORD }, '198.51.100.1');
  expect(locked.statusCode).toBe(429);
  expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
  // Let the short lock run out (move it into the past rather than sleeping).
  await stack.database.query(
    `update auth.sign_in_throttle set locked_until = now() - interval '1 second' where key = 'pw:*|target@acme.test'`,
  );
  expect((await login(stack, { email: 'target@acme.test', password: PASSWORD }, '198.51.100.1')).statusCode).toBe(200);
  // The attacker's address is still locked out of this account.
  expect((await login(stack, { email: 'target@acme.test', password: PASSWORD }, attacker)).statusCode).toBe(429);
  expect((await outboxEvents(stack, 'user.sign_in_failed')).some((e) => e.data.reason === 'throttled')).toBe(true);
});

test('a success clears the account-and-address counter', async () => {
  await createUser(stack, { email: 'forgetful@acme.test', role: 'USER', companyId: acme });
  const ip = '192.0.2.10';
  for (let i = 0; i < 4; i++) await login(stack, { email: 'forgetful@acme.test', password: `oops ${i}` }, ip);
  expect((await login(stack, { email: 'forgetful@acme.test', password: PASSWORD }, ip)).statusCode).toBe(200);
  for (let i = 0; i < 4; i++)
    expect((await login(stack, { email: 'forgetful@acme.test', password: `oops again ${i}` }, ip)).statusCode).toBe(
      401,
    );
  expect((await login(stack, { email: 'forgetful@acme.test', password: PASSWORD }, ip)).statusCode).toBe(200);
});

test('refresh rotates the tokens; a reused refresh token revokes its whole family', async () => {
  const browser = new Browser(stack);
  expect(
    (await browser.request('POST', '/api/auth/login', { email: 'user@acme.test', password: PASSWORD })).statusCode,
  ).toBe(200);
  const first = browser.cookie(REFRESH_COOKIE)!;
  const refreshed = await browser.request('POST', '/api/auth/refresh');
  expect(refreshed.statusCode).toBe(200);
  const { token } = refreshed.json();
  expect(await stack.tokens.verify(token)).toMatchObject({ email: 'user@acme.test', role: 'USER' });
  const second = browser.cookie(REFRESH_COOKIE)!;
  expect(second).not.toBe(first);
  expect((await browser.request('POST', '/api/auth/refresh')).statusCode).toBe(200);
  const third = browser.cookie(REFRESH_COOKIE)!;

  // Someone replays the first token after the grace window (backdated, not waited for): refused,
  // and the family (the live third token too) is revoked.
  await stack.database.query(
    `update auth.refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null`,
  );
  const replay = await stack.as(null, { method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first } });
  expect(replay.statusCode).toBe(401);
  const revoked = await stack.as(null, { method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: third } });
  expect(revoked.statusCode).toBe(401);
  expect(
    (await outboxEvents(stack, 'user.session_revoked')).some((e) => e.data.reason === 'refresh_token_reused'),
  ).toBe(true);
});

test('older clients refresh with a body token and get the rotated one back', async () => {
  const res = await login(stack, { email: 'caller@acme.test', password: PASSWORD });
  const refreshToken = cookieValue(res, REFRESH_COOKIE)!;
  const refreshed = await stack.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
  expect(refreshed.statusCode).toBe(200);
  expect(refreshed.json()).toEqual({ token: expect.any(String), refreshToken: expect.any(String) });
  const again = await stack.app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    payload: { refreshToken: refreshed.json().refreshToken },
  });
  expect(again.statusCode).toBe(200);
  expect((await stack.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: {} })).statusCode).toBe(401);
});

test('logout revokes the session and clears both cookies', async () => {
  const browser = new Browser(stack);
  const signedIn = await browser.request('POST', '/api/auth/login', { email: 'admin@acme.test', password: PASSWORD });
  const userId = signedIn.json().user._id;
  const refreshToken = browser.cookie(REFRESH_COOKIE)!;
  const out = await browser.request('POST', '/api/auth/logout');
  expect(out.statusCode).toBe(204);
  expect(setCookieFor(out, ACCESS_COOKIE)).toMatch(/Max-Age=0/);
  expect(setCookieFor(out, REFRESH_COOKIE)).toMatch(/Max-Age=0/);
  expect(browser.cookie(ACCESS_COOKIE)).toBeUndefined();
  expect(browser.cookie(REFRESH_COOKIE)).toBeUndefined();
  // The device stays known: its owner proved the password here (see throttle.ts).
  expect(browser.cookie(KNOWN_DEVICE_COOKIE)).toBeDefined();
  expect(
    (await stack.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } })).statusCode,
  ).toBe(401);
  expect((await outboxEvents(stack, 'user.signed_out')).some((e) => e.data.id === userId)).toBe(true);
  // Logging out without a session is harmless.
  expect((await stack.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(204);
});

test('the access token works as a cookie and as a bearer token', async () => {
  const browser = new Browser(stack);
  await browser.request('POST', '/api/auth/login', { email: 'user@acme.test', password: PASSWORD });
  const viaCookie = await browser.request('GET', '/api/users/profile');
  expect(viaCookie.statusCode).toBe(200);
  expect(viaCookie.json()).toMatchObject({ email: 'user@acme.test', roles: { role: { code: 'USER' } } });
  const token = browser.cookie(ACCESS_COOKIE)!;
  const viaBearer = await stack.app.inject({
    method: 'GET',
    url: '/api/users/profile',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(viaBearer.statusCode).toBe(200);
  expect(viaBearer.json().email).toBe('user@acme.test');
  expect((await stack.app.inject({ method: 'GET', url: '/api/users/profile' })).statusCode).toBe(401);
});

test('CSRF: a cookie-authenticated state change without the custom header is refused', async () => {
  const browser = new Browser(stack);
  await browser.request('POST', '/api/auth/login', { email: 'user@acme.test', password: PASSWORD });
  const forged = await browser.request('PUT', '/api/users/profile', { firstName: 'Forged' }, { csrf: false });
  expect(forged.statusCode).toBe(403);
  expect(forged.json().code).toBe('CSRF_REJECTED');
  // Refresh and logout are not exempt either.
  expect((await browser.request('POST', '/api/auth/refresh', undefined, { csrf: false })).statusCode).toBe(403);
  expect((await browser.request('POST', '/api/auth/logout', undefined, { csrf: false })).statusCode).toBe(403);
  const real = await browser.request('PUT', '/api/users/profile', { firstName: 'Real' });
  expect(real.statusCode).toBe(200);
  expect(real.json().firstName).toBe('Real');
});
