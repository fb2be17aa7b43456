import { createServer, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '@earshot/kit';
import type { TestStack } from '@earshot/kit/testing';
import { ScureBase32Plugin, generateSync } from 'otplib';

/** What the person's authenticator app shows (now, or at another time). */
const totp = (secret: string, now = Date.now()) =>
  generateSync({ strategy: 'totp', secret, epoch: Math.floor(now / 1000) });
const hotp = (secret: string, counter: number) => generateSync({ strategy: 'hotp', secret, counter });
const base32Decode = (text: string) => new ScureBase32Plugin().decode(text);
import {
  Browser,
  PASSWORD,
  authStack,
  createCompany,
  createUser,
  login,
  outboxEvents,
  resetLinks,
  setCookieFor,
} from './helpers';

// A tiny OAuth 2.0 provider: authorize (remembers the PKCE challenge), token (checks it), userinfo.
interface Grant {
  challenge: string;
  redirectUri: string;
  email: string;
}
const grants = new Map<string, Grant>();
const accessTokens = new Map<string, string>();
let providerEmail = 'oauth@acme.test';
let fake: Server;
let fakeUrl: string;

function startFakeProvider(): Promise<void> {
  fake = createServer((req, res) => {
    const url = new URL(req.url!, 'http://fake');
    if (url.pathname === '/authorize') {
      const code = `code-${grants.size + 1}`;
      grants.set(code, {
        challenge: url.searchParams.get('code_challenge')!,
        redirectUri: url.searchParams.get('redirect_uri')!,
        email: providerEmail,
      });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const grant = grants.get(form.get('code') ?? '');
        const basic = Buffer.from('client-id:client-secret').toString('base64');
        const pkce =
          grant &&
          createHash('sha256')
            .update(form.get('code_verifier') ?? '')
            .digest('base64url') === grant.challenge;
        if (
          !grant ||
          !pkce ||
          req.headers.authorization !== `Basic ${basic}` ||
          form.get('redirect_uri') !== grant.redirectUri
        ) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
          return;
        }
        grants.delete(form.get('code')!);
        const token = `at-${Math.random()}`;
        accessTokens.set(token, grant.email);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: token, token_type: 'Bearer' }));
      });
      return;
    }
    if (url.pathname === '/userinfo') {
      const email = accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!email) return void res.writeHead(401).end();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ sub: '1', email, email_verified: true }));
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    fake.listen(0, '127.0.0.1', () => {
      fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

let stack: TestStack;
let acme: string;

beforeAll(async () => {
  await startFakeProvider();
  stack = await authStack({
    PUBLIC_URL: 'https://console.example.com',
    GOOGLE_CLIENT_ID: 'client-id',
    GOOGLE_CLIENT_SECRET: 'client-secret',
    GOOGLE_AUTH_URL: `${fakeUrl}/authorize`,
    GOOGLE_TOKEN_URL: `${fakeUrl}/token`,
    GOOGLE_USERINFO_URL: `${fakeUrl}/userinfo`,
  });
  acme = await createCompany(stack, { domain: 'acme' });
  await createUser(stack, { email: 'reset@acme.test', role: 'USER', companyId: acme });
  await createUser(stack, { email: 'totp@acme.test', role: 'ADMIN', companyId: acme });
  await createUser(stack, { email: 'oauth@acme.test', role: 'USER', companyId: acme });
});
afterAll(async () => {
  await stack.close();
  await new Promise((resolve) => fake.close(resolve));
});

describe('password reset', () => {
  test('the same 202 whether or not the account exists; only a real account gets a link', async () => {
    const known = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: 'reset@acme.test' },
    });
    const unknown = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: 'nobody@acme.test' },
    });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    const requested = await outboxEvents(stack, 'user.password_reset_requested');
    expect(requested.map((e) => e.data.email)).toEqual(['reset@acme.test']);
  });

  test('a reset link works once, changes the password and ends sessions', async () => {
    const browser = new Browser(stack);
    await browser.request('POST', '/api/auth/login', { email: 'reset@acme.test', password: PASSWORD });
    await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: 'reset@acme.test', domain: 'acme' },
    });
    const resetUrl = (await resetLinks(stack)).at(-1)!;
    expect(resetUrl).toMatch(/^https:\/\/console\.example\.com\/reset-password\?token=/);
    const token = new URL(resetUrl).searchParams.get('token')!;

    const weak = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token, password: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    const done = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token, password: 'after the reset' },
    });
    expect(done.statusCode).toBe(200);
    const again = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token, password: 'a second reset' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This reset link is invalid or has expired');
    expect((await browser.request('POST', '/api/auth/refresh')).statusCode).toBe(401);
    expect((await login(stack, { email: 'reset@acme.test', password: PASSWORD })).statusCode).toBe(401);
    expect((await login(stack, { email: 'reset@acme.test', password: 'after the reset' })).statusCode).toBe(200);
    expect((await outboxEvents(stack, 'user.password_changed')).some((e) => e.data.via === 'reset')).toBe(true);
  });

  test('an expired or made-up token is refused', async () => {
    await stack.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email: 'reset@acme.test' } });
    const token = new URL((await resetLinks(stack)).at(-1)!).searchParams.get('token')!;
    await stack.database.query(`update auth.password_resets set expires_at = now() - interval '1 second'`);
    expect(
      (
        await stack.app.inject({
          method: 'POST',
          url: '/api/auth/password/reset',
          payload: { token, password: 'too late now' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await stack.app.inject({
          method: 'POST',
          url: '/api/auth/password/reset',
          payload: { token: 'made-up', password: 'too late now' },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('two-step verification', () => {
  let secret: string;
  let recoveryCodes: string[];

  test('setup, enable with a code from the app, then sign-in asks for the code', async () => {
    const browser = new Browser(stack);
    await browser.request('POST', '/api/auth/login', { email: 'totp@acme.test', password: PASSWORD });
    const setup = await browser.request('POST', '/api/users/two-step/setup');
    expect(setup.statusCode).toBe(200);
    secret = setup.json().secret;
    expect(base32Decode(secret)).toHaveLength(20);
    expect(setup.json().otpauthUrl).toMatch(
      /^otpauth:\/\/totp\/Earshot(:|%3A)totp%40acme\.test\?secret=[A-Z2-7]+&issuer=Earshot/,
    );
    expect(
      (
        await browser.request('POST', '/api/users/two-step/enable', {
          code: '000000' === totp(secret) ? '111111' : '000000',
        })
      ).statusCode,
    ).toBe(400);
    const enabled = await browser.request('POST', '/api/users/two-step/enable', { code: totp(secret) });
    expect(enabled.statusCode).toBe(200);
    recoveryCodes = enabled.json().recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect((await browser.request('GET', '/api/users/profile')).json().twoStepEnabled).toBe(true);
    // The secret is encrypted at rest.
    const [row] = await stack.database.query<{ two_step_secret: string }>(
      `select two_step_secret from auth.users where email = 'totp@acme.test'`,
    );
    expect(row!.two_step_secret).not.toContain(secret);
  });

  test('a correct password gives no session until the code is verified', async () => {
    const browser = new Browser(stack, '10.9.9.9');
    const first = await browser.request('POST', '/api/auth/login', {
      email: 'totp@acme.test',
      password: PASSWORD,
      remember: true,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ twoStepRequired: true });
    expect(setCookieFor(first, ACCESS_COOKIE)).toBeUndefined();
    expect(setCookieFor(first, REFRESH_COOKIE)).toBeUndefined();
    expect((await browser.request('GET', '/api/users/profile')).statusCode).toBe(401);

    const wrong = await browser.request('POST', '/api/auth/two-step/verify', {
      code: '000000' === totp(secret) ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid verification code');
    // The next time step's code is fresh (the one used at enable time was consumed).
    const code = totp(secret, Date.now() + 30_000);
    const ok = await browser.request('POST', '/api/auth/two-step/verify', { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ email: 'totp@acme.test', roles: { role: { code: 'ADMIN' } } });
    expect(setCookieFor(ok, REFRESH_COOKIE)).toMatch(/Max-Age=/);
    expect(setCookieFor(ok, 'earshot_2fa')).toMatch(/Max-Age=0/);
    expect((await browser.request('GET', '/api/users/profile')).statusCode).toBe(200);
    expect((await outboxEvents(stack, 'user.signed_in')).some((e) => e.data.method === 'two_step')).toBe(true);

    // A code works once: replaying it with a new pending sign-in fails.
    const other = new Browser(stack, '10.9.9.10');
    await other.request('POST', '/api/auth/login', { email: 'totp@acme.test', password: PASSWORD });
    expect((await other.request('POST', '/api/auth/two-step/verify', { code })).statusCode).toBe(401);
  });

  test('guessing codes is throttled', async () => {
    const browser = new Browser(stack, '10.9.9.11');
    await browser.request('POST', '/api/auth/login', { email: 'totp@acme.test', password: PASSWORD });
    const valid = new Set([-1, 0, 1, 2].map((d) => hotp(secret, Math.floor(Date.now() / 30_000) + d)));
    const guesses = ['000000', '111111', '222222', '333333', '444444', '555555', '666666', '777777']
      .filter((g) => !valid.has(g))
      .slice(0, 5);
    for (const code of guesses)
      expect((await browser.request('POST', '/api/auth/two-step/verify', { code })).statusCode).toBe(401);
    const blocked = await browser.request('POST', '/api/auth/two-step/verify', { code: guesses[0]! });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('verify without a pending sign-in is a 401; disabling needs a current code', async () => {
    expect(
      (await stack.app.inject({ method: 'POST', url: '/api/auth/two-step/verify', payload: { code: '123456' } }))
        .statusCode,
    ).toBe(401);
    const token = await stack.tokenFor(
      'ADMIN',
      acme,
      (await stack.database.query<{ id: string }>(`select id from auth.users where email = 'totp@acme.test'`))[0]!.id,
    );
    expect(
      (await stack.as(token, { method: 'POST', url: '/api/users/two-step/disable', payload: { password: PASSWORD } }))
        .statusCode,
    ).toBe(400);
    // The sign-ins above used every code the clock allows now: a recovery code turns it off.
    expect(
      (
        await stack.as(token, {
          method: 'POST',
          url: '/api/users/two-step/disable',
          payload: { code: recoveryCodes[0] },
        })
      ).statusCode,
    ).toBe(200);
    const plain = await login(stack, { email: 'totp@acme.test', password: PASSWORD });
    expect(plain.json().user.email).toBe('totp@acme.test');
    expect((await outboxEvents(stack, 'user.two_step_changed')).map((e) => e.data.enabled)).toEqual([true, false]);
  });
});

describe('sign-in providers', () => {
  test('the list says which are enabled', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/api/auth/provider' });
    expect(res.json()).toEqual({
      providers: [
        { id: 'google', name: 'Google', enabled: true, startUrl: '/api/auth/provider/google/start' },
        { id: 'x', name: 'X', enabled: false },
      ],
    });
    const x = await stack.app.inject({ method: 'GET', url: '/api/auth/provider/x/start' });
    expect(x.statusCode).toBe(404);
    expect(x.json().message).toBe('Sign-in with X is not enabled for this workspace');
  });

  async function runFlow(browser: Browser, tamper?: (callback: URL) => void) {
    const start = await browser.request('GET', '/api/auth/provider/google/start?remember=true');
    expect(start.statusCode).toBe(302);
    const authorize = new URL(String(start.headers.location));
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      'https://console.example.com/api/auth/provider/google/callback',
    );
    expect(setCookieFor(start, 'earshot_oauth')).toMatch(/SameSite=Lax/);
    const atProvider = await fetch(authorize, { redirect: 'manual' });
    const callback = new URL(atProvider.headers.get('location')!);
    tamper?.(callback);
    return browser.request('GET', `${callback.pathname}${callback.search}`);
  }

  test('authorization code + PKCE signs in the existing account with that email', async () => {
    providerEmail = 'oauth@acme.test';
    const browser = new Browser(stack, '10.7.7.7');
    const done = await runFlow(browser);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/chat');
    expect(setCookieFor(done, REFRESH_COOKIE)).toMatch(/Max-Age=/);
    expect((await browser.request('GET', '/api/users/profile')).json().email).toBe('oauth@acme.test');
    expect((await outboxEvents(stack, 'user.signed_in')).some((e) => e.data.method === 'provider')).toBe(true);
  });

  test('no account for the email, or a forged state: back to sign-in, no session', async () => {
    providerEmail = 'stranger@elsewhere.test';
    const stranger = new Browser(stack, '10.7.7.8');
    const noAccount = await runFlow(stranger);
    expect(noAccount.headers.location).toBe('/signin?error=no_account');
    expect(setCookieFor(noAccount, ACCESS_COOKIE)).toBeUndefined();

    providerEmail = 'oauth@acme.test';
    const forged = await runFlow(new Browser(stack, '10.7.7.9'), (callback) =>
      callback.searchParams.set('state', 'forged'),
    );
    expect(forged.headers.location).toBe('/signin?error=provider_state');
    expect(setCookieFor(forged, ACCESS_COOKIE)).toBeUndefined();
  });
});
