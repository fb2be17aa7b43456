import type { TestStack } from '@earshot/kit/testing';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  Browser,
  PASSWORD,
  authStack,
  createCompany,
  createUser,
  hostToken,
  login,
  outboxEvents,
} from '../../../services/auth/test/helpers';
import { signInAtProvider, startIdentityProvider, type IdentityProvider } from './identity-provider';

// Single sign-on per company against a real OpenID provider on loopback: one client per company,
// the provider's login and consent screens driven over HTTP, the callback answered by Earshot.

const CONSOLE = 'http://console.test';
const REDIRECT = `${CONSOLE}/api/auth/sso/callback`;
const SECRET_A = 'acme-client-secret-4f1d9b';
const SECRET_B = 'globex-client-secret-77ae0c';

let stack: TestStack;
let idp: IdentityProvider;
let host: string;
const acme = { id: '', admin: '', user: '' };
const globex = { id: '', admin: '' };

const settingsOf = (overrides: Record<string, unknown> = {}) => ({
  issuer: idp.issuer,
  clientId: 'acme',
  clientSecret: SECRET_A,
  domains: ['acme.test'],
  required: false,
  defaultRole: 'USER',
  roleClaim: 'groups',
  roleMap: { 'earshot-admins': 'ADMIN', 'earshot-callers': 'CALLER' },
  ...overrides,
});

const put = (token: string, companyId: string, payload: unknown) =>
  stack.as(token, { method: 'PUT', url: `/api/companies/${companyId}/sso`, payload: payload as object });

/** A browser signing in through the company of `domain` as the provider's account `login`. */
async function ssoSignIn(domain: string, account: string, returnTo = '/transcripts') {
  const browser = new Browser(stack);
  const start = await browser.request('GET', `/api/auth/sso/start?company=${domain}&returnTo=${returnTo}`);
  expect(start.statusCode).toBe(302);
  const back = await signInAtProvider(start.headers.location as string, account, REDIRECT);
  const flow = browser.cookie('earshot_sso');
  const callback = await browser.request('GET', `${back.pathname}${back.search}`);
  return { browser, callback, back, flow };
}

const profileOf = async (browser: Browser) => (await browser.request('GET', '/api/users/profile')).json();

beforeAll(async () => {
  idp = await startIdentityProvider({
    clients: [
      { clientId: 'acme', clientSecret: SECRET_A },
      { clientId: 'globex', clientSecret: SECRET_B },
    ],
    redirectUris: [REDIRECT],
  });
  stack = await authStack({ PUBLIC_URL: CONSOLE, SSO_ALLOW_INSECURE_ISSUERS: 'true' });
  host = await hostToken(stack);
  acme.id = await createCompany(stack, { domain: 'acme' });
  globex.id = await createCompany(stack, { domain: 'globex' });
  await createCompany(stack, { domain: 'initech', maxUsers: 0 });
  acme.admin = await stack.tokenFor(
    'ADMIN',
    acme.id,
    await createUser(stack, { email: 'boss@acme.test', role: 'ADMIN', companyId: acme.id }),
  );
  acme.user = await stack.tokenFor('USER', acme.id);
  globex.admin = await stack.tokenFor(
    'ADMIN',
    globex.id,
    await createUser(stack, { email: 'boss@globex.test', role: 'ADMIN', companyId: globex.id }),
  );
  idp.accounts.set('new-admin', {
    email: 'New.Admin@acme.test',
    email_verified: true,
    given_name: 'Nora',
    family_name: 'Admin',
    groups: ['earshot-admins'],
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await idp?.close();
});

describe('settings', () => {
  test('an issuer that does not answer a discovery document is refused with 422 naming issuer', async () => {
    const res = await put(acme.admin, acme.id, settingsOf({ issuer: `${idp.issuer}/nowhere` }));
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([expect.objectContaining({ field: 'body.issuer' })]);
    // Nothing was saved.
    expect((await stack.as(acme.admin, { method: 'GET', url: `/api/companies/${acme.id}/sso` })).json()).toBeNull();
  });

  test('the first save needs the client secret; once saved it is sealed and never answered', async () => {
    const { clientSecret: _omitted, ...withoutSecret } = settingsOf();
    const missing = await put(acme.admin, acme.id, withoutSecret);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details[0].field).toBe('body.clientSecret');

    const saved = await put(acme.admin, acme.id, settingsOf());
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      companyId: acme.id,
      issuer: idp.issuer,
      clientId: 'acme',
      domains: ['acme.test'],
      redirectUri: REDIRECT,
      startUrl: '/api/auth/sso/start?company=acme',
    });
    const read = await stack.as(host, { method: 'GET', url: `/api/companies/${acme.id}/sso` });
    expect(read.json()).toEqual(saved.json());
    // A later save without the secret keeps the stored one (the sign-ins below use it).
    expect((await put(acme.admin, acme.id, withoutSecret)).statusCode).toBe(200);
    for (const answer of [saved.body, read.body]) expect(answer).not.toContain(SECRET_A);
    const [row] = await stack.database.query<{ client_secret_sealed: string }>(
      'select client_secret_sealed from auth.sso_providers where company_id = $1',
      [acme.id],
    );
    expect(row!.client_secret_sealed).not.toContain(SECRET_A);
    expect(JSON.stringify(await outboxEvents(stack, 'sso.configured'))).not.toContain(SECRET_A);
  });

  test('another company cannot claim a domain, and its ADMIN gets 404 for this company; USER gets 403', async () => {
    const taken = await put(
      globex.admin,
      globex.id,
      settingsOf({ clientId: 'globex', clientSecret: SECRET_B, domains: ['globex.test', 'acme.test'] }),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json().details[0].field).toBe('body.domains');
    expect(
      (
        await put(
          globex.admin,
          globex.id,
          settingsOf({
            clientId: 'globex',
            clientSecret: SECRET_B,
            domains: ['globex.test'],
            roleClaim: undefined,
            roleMap: undefined,
          }),
        )
      ).statusCode,
    ).toBe(200);

    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await stack.as(globex.admin, {
        method,
        url: `/api/companies/${acme.id}/sso`,
        ...(method === 'PUT' ? { payload: settingsOf() } : {}),
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await stack.as(acme.user, { method: 'GET', url: `/api/companies/${acme.id}/sso` })).statusCode).toBe(403);
    // Acme's provider is untouched.
    expect((await stack.as(acme.admin, { method: 'GET', url: `/api/companies/${acme.id}/sso` })).json().clientId).toBe(
      'acme',
    );
  });

  test('discover says only whether the domain signs in through a company: unknown answers like unconfigured', async () => {
    const discover = async (email: string) =>
      (
        await stack.app.inject({ method: 'GET', url: `/api/auth/sso/discover?email=${encodeURIComponent(email)}` })
      ).json();
    expect(await discover('someone@unknown.test')).toEqual({ sso: false });
    // A company's own address offers its sign-in at once: asked by its console domain.
    const byCompany = async (domain: string) =>
      (await stack.app.inject({ method: 'GET', url: `/api/auth/sso/discover?company=${domain}` })).json();
    expect(await byCompany('acme')).toMatchObject({ sso: true, companyName: 'acme' });
    expect(await byCompany('initech')).toEqual({ sso: false });
    expect(await byCompany('nowhere')).toEqual({ sso: false });
    const both = await stack.app.inject({
      method: 'GET',
      url: '/api/auth/sso/discover?company=acme&email=a@acme.test',
    });
    expect(both.statusCode).toBe(400);
    expect(await discover('someone@initech.test')).toEqual({ sso: false });
    expect(await discover('Someone@ACME.test')).toEqual({
      sso: true,
      companyName: 'acme',
      required: false,
      startUrl: '/api/auth/sso/start?company=acme',
    });
  });
});

describe('signing in', () => {
  let newAdminId = '';

  test('a new person is created in the company with the mapped role and lands where they were going', async () => {
    const { browser, callback } = await ssoSignIn('acme', 'new-admin');
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/transcripts');
    const me = await profileOf(browser);
    expect(me).toMatchObject({
      email: 'new.admin@acme.test',
      companyId: acme.id,
      firstName: 'Nora',
      lastName: 'Admin',
    });
    expect(me.roles.role.code).toBe('ADMIN');
    newAdminId = me._id;
    const signedIn = await outboxEvents(stack, 'user.signed_in');
    expect(signedIn.at(-1)?.data).toEqual({ id: newAdminId, email: 'new.admin@acme.test', method: 'sso' });
    // No password works for someone created this way.
    expect((await login(stack, { email: 'new.admin@acme.test', password: '' + PASSWORD })).statusCode).toBe(401);
  });

  test('a second sign-in finds the same person, with the role the provider says now', async () => {
    idp.accounts.set('new-admin', { ...idp.accounts.get('new-admin'), groups: ['earshot-callers'] });
    const { browser } = await ssoSignIn('acme', 'new-admin');
    const me = await profileOf(browser);
    expect(me._id).toBe(newAdminId);
    expect(me.roles.role.code).toBe('CALLER');
    const [count] = await stack.database.query<{ n: number }>(
      "select count(*)::int as n from auth.users where email = 'new.admin@acme.test'",
    );
    expect(count!.n).toBe(1);
    const list = await stack.as(acme.admin, { method: 'GET', url: `/api/companies/${acme.id}/sso/sign-ins` });
    expect(list.json()).toEqual([
      expect.objectContaining({ userId: newAdminId, subject: 'new-admin', role: 'CALLER' }),
    ]);
  });

  test('an existing person is linked by e-mail only when the provider says it is verified', async () => {
    const existingId = await createUser(stack, { email: 'kim@acme.test', role: 'USER', companyId: acme.id });
    idp.accounts.set('kim', { email: 'kim@acme.test', email_verified: false });
    const refused = await ssoSignIn('acme', 'kim');
    expect(refused.callback.headers.location).toBe('/signin?error=sso_email_unverified');
    expect((await refused.browser.request('GET', '/api/users/profile')).statusCode).toBe(401);
    const failed = await outboxEvents(stack, 'user.sign_in_failed');
    expect(failed.at(-1)).toMatchObject({
      companyId: acme.id,
      data: { email: 'kim@acme.test', reason: 'sso_email_unverified', issuer: idp.issuer },
    });

    idp.accounts.set('kim', { email: 'kim@acme.test', email_verified: true });
    const linked = await ssoSignIn('acme', 'kim');
    expect((await profileOf(linked.browser))._id).toBe(existingId);
  });

  test("a company's user limit holds for people created at sign-in", async () => {
    const full = (
      await stack.database.query<{ id: string }>("select id from auth.companies where domain = 'initech'")
    )[0]!.id;
    expect((await put(host, full, settingsOf({ domains: ['initech.test'] }))).statusCode).toBe(200);
    idp.accounts.set('late', { email: 'late@initech.test', email_verified: true });
    const { callback } = await ssoSignIn('initech', 'late');
    expect(callback.headers.location).toBe('/signin?error=sso_user_limit');
    expect(await stack.database.query("select 1 from auth.users where email = 'late@initech.test'")).toHaveLength(0);
  });

  test('a start for a company without single sign-on sends the browser back with a reason', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/api/auth/sso/start?company=nowhere' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/signin?error=sso_not_configured');
  });

  test('returnTo must be a path of the console: another site is refused', async () => {
    for (const returnTo of ['//evil.test/x', 'https://evil.test/', '/\\evil.test']) {
      const res = await stack.app.inject({
        method: 'GET',
        url: `/api/auth/sso/start?company=acme&returnTo=${encodeURIComponent(returnTo)}`,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('refusals', () => {
  test('a tampered state is refused and audited', async () => {
    idp.accounts.set('tess', { email: 'tess@acme.test', email_verified: true });
    const browser = new Browser(stack);
    const start = await browser.request('GET', '/api/auth/sso/start?company=acme');
    const back = await signInAtProvider(start.headers.location as string, 'tess', REDIRECT);
    back.searchParams.set('state', `${back.searchParams.get('state')}x`);
    const callback = await browser.request('GET', `${back.pathname}${back.search}`);
    expect(callback.headers.location).toBe('/signin?error=sso_state');
    expect((await outboxEvents(stack, 'user.sign_in_failed')).at(-1)?.data.reason).toBe('sso_state');
    expect(await stack.database.query("select 1 from auth.users where email = 'tess@acme.test'")).toHaveLength(0);
  });

  test('a replayed code is refused', async () => {
    idp.accounts.set('rex', { email: 'rex@acme.test', email_verified: true });
    const { callback, back, flow } = await ssoSignIn('acme', 'rex');
    expect(callback.headers.location).toBe('/transcripts');
    expect(flow).toBeDefined();
    // The same callback again, with the flow cookie the browser had.
    const again = new Browser(stack);
    again.cookies = `earshot_sso=${encodeURIComponent(flow!)}`;
    const replay = await again.request('GET', `${back.pathname}${back.search}`);
    expect(replay.headers.location).toBe('/signin?error=sso_token');
    expect((await again.request('GET', '/api/users/profile')).statusCode).toBe(401);
  });

  test("another company's provider client cannot sign anyone into this company", async () => {
    idp.accounts.set('mallory', { email: 'mallory@acme.test', email_verified: true, groups: ['earshot-admins'] });
    // Acme's flow in this browser; the code comes from Globex's client at the same provider.
    const browser = new Browser(stack);
    const start = await browser.request('GET', '/api/auth/sso/start?company=acme');
    const acmeState = new URL(start.headers.location as string).searchParams.get('state')!;
    const other = await new Browser(stack).request('GET', '/api/auth/sso/start?company=globex');
    const back = await signInAtProvider(other.headers.location as string, 'mallory', REDIRECT);
    back.searchParams.set('state', acmeState);
    const callback = await browser.request('GET', `${back.pathname}${back.search}`);
    expect(callback.headers.location).toBe('/signin?error=sso_token');
    expect(await stack.database.query("select 1 from auth.users where email = 'mallory@acme.test'")).toHaveLength(0);

    // Through Globex itself the same account becomes a Globex person only.
    const { browser: globexBrowser } = await ssoSignIn('globex', 'mallory');
    const me = await profileOf(globexBrowser);
    expect(me.companyId).toBe(globex.id);
    expect(me.roles.role.code).toBe('USER');
  });

  test('a cancelled sign-in at the provider comes back with a reason', async () => {
    const browser = new Browser(stack);
    const start = await browser.request('GET', '/api/auth/sso/start?company=acme');
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const res = await browser.request('GET', `/api/auth/sso/callback?error=access_denied&state=${state}`);
    expect(res.headers.location).toBe('/signin?error=sso_cancelled');
  });
});

describe('required single sign-on', () => {
  beforeAll(async () => {
    expect((await put(acme.admin, acme.id, settingsOf({ required: true }))).statusCode).toBe(200);
  });

  test('password sign-in and reset are refused for the company’s people, saying to use its sign-in', async () => {
    const refused = await login(stack, { email: 'kim@acme.test', password: PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'SSO_REQUIRED' });
    expect(refused.json().message).toMatch(/identity provider/);
    const forgot = await stack.app.inject({
      method: 'POST',
      url: '/api/auth/password/forgot',
      payload: { email: 'kim@acme.test' },
    });
    expect(forgot.statusCode).toBe(403);
    expect(forgot.json().code).toBe('SSO_REQUIRED');
  });

  test('the platform administrator keeps password sign-in', async () => {
    expect((await login(stack, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });

  test('discover says it is required, and single sign-on still works', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/api/auth/sso/discover?email=kim@acme.test' });
    expect(res.json()).toMatchObject({ sso: true, required: true });
    const { browser } = await ssoSignIn('acme', 'kim');
    expect((await profileOf(browser)).email).toBe('kim@acme.test');
  });

  test('turning it off lets passwords in again', async () => {
    expect((await stack.as(acme.admin, { method: 'DELETE', url: `/api/companies/${acme.id}/sso` })).statusCode).toBe(
      204,
    );
    expect((await login(stack, { email: 'kim@acme.test', password: PASSWORD })).statusCode).toBe(200);
    const discover = await stack.app.inject({ method: 'GET', url: '/api/auth/sso/discover?email=kim@acme.test' });
    expect(discover.json()).toEqual({ sso: false });
  });
});
