import { createLocalJWKSet, jwtVerify } from 'jose';
import { ACCESS_COOKIE, REFRESH_COOKIE, TokenVerifier, sessionEndSubscription } from '@earshot/kit';
import { AUTH_CODES, AUTH_MESSAGES, type Envelope } from '@earshot/contracts';
import type { TestStack } from '@earshot/kit/testing';
import { restoreEnded } from '../src/services/sessions';
import { REFRESH_GRACE_SECONDS } from '../src/services/sign-in';
import {
  Browser,
  PASSWORD,
  authStack,
  cookieValue,
  createCompany,
  createUser,
  hostToken,
  login,
  outboxEvents,
  publishCompany,
} from './helpers';

let stack: TestStack;
let acme: string;
let globex: string;
let host: string;

beforeAll(async () => {
  stack = await authStack();
  acme = await createCompany(stack, { domain: 'acme' });
  globex = await createCompany(stack, { domain: 'globex' });
  host = await hostToken(stack);
});
afterAll(async () => stack.close());

let n = 0;
/** A new account of this role, signed in: its id and the access token of its session. */
async function signedIn(role: 'ADMIN' | 'USER' | 'CALLER', companyId = acme) {
  const email = `person${++n}@sessions.test`;
  const id = await createUser(stack, { email, role, companyId });
  const res = await login(stack, { email, password: PASSWORD });
  expect(res.statusCode).toBe(200);
  return { id, email, token: cookieValue(res, ACCESS_COOKIE)!, refresh: cookieValue(res, REFRESH_COOKIE)! };
}

const profile = (token: string) => stack.as(token, { method: 'GET', url: '/api/users/profile' });

describe('ending a session refuses its access token on the very next request', () => {
  test('logout', async () => {
    const user = await signedIn('USER');
    expect((await profile(user.token)).statusCode).toBe(200);
    const out = await stack.as(user.token, { method: 'POST', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(204);
    expect((await profile(user.token)).statusCode).toBe(401);
  });

  test('logout with the cookies ends the cookie session', async () => {
    const browser = new Browser(stack);
    await browser.request('POST', '/api/auth/login', { email: (await signedIn('USER')).email, password: PASSWORD });
    const token = browser.cookie(ACCESS_COOKIE)!;
    expect((await browser.request('POST', '/api/auth/logout')).statusCode).toBe(204);
    expect((await profile(token)).statusCode).toBe(401);
  });

  test('a disabled user', async () => {
    const user = await signedIn('USER');
    expect(
      (await stack.as(host, { method: 'PUT', url: `/api/users/${user.id}`, payload: { status: 'disabled' } }))
        .statusCode,
    ).toBe(200);
    expect((await profile(user.token)).statusCode).toBe(401);
  });

  test('a deleted user', async () => {
    const user = await signedIn('USER');
    expect((await stack.as(host, { method: 'DELETE', url: `/api/users/${user.id}` })).statusCode).toBe(204);
    expect((await profile(user.token)).statusCode).toBe(401);
  });

  test('a demoted ADMIN can no longer create an ADMIN with the old token', async () => {
    const admin = await signedIn('ADMIN');
    await signedIn('ADMIN'); // the company keeps an administrator
    expect(
      (await stack.as(host, { method: 'PUT', url: `/api/users/${admin.id}`, payload: { role: 'USER' } })).statusCode,
    ).toBe(200);
    const created = await stack.as(admin.token, {
      method: 'POST',
      url: '/api/users/register',
      payload: {
        firstName: 'Sneaky',
        lastName: 'Admin',
        email: 'sneaky@sessions.test',
        password: PASSWORD,
        role: 'ADMIN',
      },
    });
    expect(created.statusCode).toBe(401);
  });

  test('a user moved to another company', async () => {
    const user = await signedIn('USER');
    expect(
      (await stack.as(host, { method: 'PUT', url: `/api/users/${user.id}`, payload: { companyId: globex } }))
        .statusCode,
    ).toBe(200);
    expect((await profile(user.token)).statusCode).toBe(401);
  });

  test('a suspended company: all its people, not the other company', async () => {
    const doomed = await createCompany(stack, { domain: 'doomed' });
    const one = await signedIn('ADMIN', doomed);
    const two = await signedIn('CALLER', doomed);
    const elsewhere = await signedIn('USER', globex);
    await publishCompany(stack, 'company.updated', doomed, { domain: 'doomed', status: 'suspended' });
    expect((await profile(one.token)).statusCode).toBe(401);
    expect((await profile(two.token)).statusCode).toBe(401);
    expect((await profile(elsewhere.token)).statusCode).toBe(200);
    // Their refresh tokens are revoked too: nobody gets a new access token, and the open page learns why.
    const refresh = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: one.refresh },
    });
    expect(refresh.statusCode).toBe(403);
    expect(refresh.json()).toEqual({ message: AUTH_MESSAGES.companySuspended, code: AUTH_CODES.companySuspended });
    // Signing in again is refused with the same reason (only to someone with the right password).
    const again = await login(stack, { email: two.email, password: PASSWORD });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({
      message: "Your company's access is suspended: contact your administrator",
      code: 'COMPANY_SUSPENDED',
    });
    expect((await login(stack, { email: two.email, password: 'not the password' })).statusCode).toBe(401);
    // Inactive is switched off too.
    await publishCompany(stack, 'company.updated', doomed, { domain: 'doomed', status: 'inactive' });
    expect((await login(stack, { email: two.email, password: PASSWORD })).statusCode).toBe(403);
    await publishCompany(stack, 'company.updated', doomed, { domain: 'doomed', status: 'active' });
    expect((await login(stack, { email: two.email, password: PASSWORD })).statusCode).toBe(200);
  });

  test('an edit that changes nothing about the session keeps it', async () => {
    const user = await signedIn('USER');
    expect(
      (await stack.as(host, { method: 'PUT', url: `/api/users/${user.id}`, payload: { firstName: 'Renamed' } }))
        .statusCode,
    ).toBe(200);
    expect((await profile(user.token)).statusCode).toBe(200);
  });
});

describe('verifiers elsewhere', () => {
  test('another process learns of ended sessions from the user.sessions_ended event', async () => {
    const user = await signedIn('USER');
    await stack.as(user.token, { method: 'POST', url: '/api/auth/logout' });
    const jwks = (await stack.app.inject({ method: 'GET', url: '/api/auth/jwks' })).json();
    const elsewhere = new TokenVerifier(900).trust(jwks);
    expect(await elsewhere.verify(user.token)).not.toBeNull();
    const rows = await stack.database.query<{ envelope: unknown }>(
      `select envelope from auth.outbox where envelope->>'type' = 'user.sessions_ended' order by seq`,
    );
    const subscription = sessionEndSubscription(elsewhere, 'gateway');
    for (const row of rows)
      await subscription.handle(
        (typeof row.envelope === 'string' ? JSON.parse(row.envelope) : row.envelope) as Envelope,
      );
    expect(await elsewhere.verify(user.token)).toBeNull();
    const [event] = (await outboxEvents(stack, 'user.sessions_ended')).filter((e) => e.data.userId === user.id);
    expect(event!.data).toEqual({
      userId: user.id,
      sessionIds: [expect.any(String)],
      reason: 'signed_out',
      until: expect.any(String),
    });
  });

  test('after a restart the auth service refuses sessions ended before it', async () => {
    const user = await signedIn('USER');
    await stack.as(user.token, { method: 'POST', url: '/api/auth/logout' });
    const ctx = stack.running.contexts.get('auth')!;
    const restarted = new TokenVerifier(900).trust(
      (await stack.app.inject({ method: 'GET', url: '/api/auth/jwks' })).json(),
    );
    await restoreEnded({ db: ctx.db, tokens: restarted });
    expect(await restarted.verify(user.token)).toBeNull();
  });
});

describe('keys', () => {
  test('the JWKS is public and serves the Ed25519 public key that verifies real tokens, never the private part', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/api/auth/jwks' });
    expect(res.statusCode).toBe(200);
    const jwks = res.json();
    expect(jwks.keys).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: expect.any(String), alg: 'EdDSA', use: 'sig' },
    ]);
    const user = await signedIn('USER');
    const { payload, protectedHeader } = await jwtVerify(user.token, createLocalJWKSet(jwks));
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: jwks.keys[0].kid });
    expect(payload).toMatchObject({ sub: user.id, sid: expect.any(String) });
  });

  test('the access token carries the session id, and the identity has it', async () => {
    const user = await signedIn('CALLER');
    expect(await stack.tokens.verify(user.token)).toMatchObject({ userId: user.id, sessionId: expect.any(String) });
  });
});

describe('refresh grace window', () => {
  test(`two tabs refreshing at once (within ${REFRESH_GRACE_SECONDS} s) both get the same successor and keep the session`, async () => {
    const user = await signedIn('USER');
    const refresh = () =>
      stack.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: {
          cookie: `${REFRESH_COOKIE}=${encodeURIComponent(user.refresh)}`,
          'x-requested-with': 'XMLHttpRequest',
        },
      });
    const [a, b] = await Promise.all([refresh(), refresh()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(cookieValue(a, REFRESH_COOKIE)).toBe(cookieValue(b, REFRESH_COOKIE));
    for (const res of [a, b]) expect((await profile(res.json().token)).statusCode).toBe(200);
    const next = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: cookieValue(a, REFRESH_COOKIE) },
    });
    expect(next.statusCode).toBe(200);
  });

  test('reuse after the window still revokes the whole family and ends the session', async () => {
    const user = await signedIn('USER');
    const first = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: user.refresh },
    });
    expect(first.statusCode).toBe(200);
    const { token, refreshToken: successor } = first.json();
    await stack.database.query(
      `update auth.refresh_tokens set used_at = now() - make_interval(secs => $1) where used_at is not null`,
      [REFRESH_GRACE_SECONDS + 1],
    );
    const replay = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: user.refresh },
    });
    expect(replay.statusCode).toBe(401);
    expect(
      (await stack.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: successor } }))
        .statusCode,
    ).toBe(401);
    expect((await profile(token)).statusCode).toBe(401);
  });
});
