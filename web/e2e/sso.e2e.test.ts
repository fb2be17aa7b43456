// Single sign-on in real Chromium against the real all-in-one server and a real OpenID provider
// (oidc-provider) on loopback: the demo company's ADMIN connects the provider, and a new person
// types their e-mail, continues with the company, signs in on the provider's own pages and lands
// in the console in that company with the role the provider's groups map to. Waits for
// conditions, never for time.
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { startIdentityProvider, type IdentityProvider } from '../../tests/system/auth/identity-provider';
import { apiSession, browserSuite, seriousViolations, shootThemes, signIn } from './harness';

jest.setTimeout(300_000);

// The provider is on loopback and speaks http, which the operator's switch allows.
const suite = browserSuite({ env: async () => ({ SSO_ALLOW_INSECURE_ISSUERS: 'true' }) });
let idp: IdentityProvider | undefined;
let companyId = '';
const CLIENT = { clientId: 'earshot-e2e', clientSecret: 'e2e-client-secret-9d2c' };

beforeAll(async () => {
  // The redirect URI is the server's own address, known once it has started.
  idp = await startIdentityProvider({
    clients: [CLIENT],
    redirectUris: [`${suite.server.origin}/api/auth/sso/callback`],
  });
  idp.accounts.set('newhire', {
    email: 'newhire@acme-sso.test',
    email_verified: true,
    given_name: 'Nina',
    family_name: 'Newhire',
    groups: ['earshot-callers'],
  });
  const admin = await apiSession(suite.server.origin, 'ADMIN');
  companyId = ((await (await admin('/users/profile')).json()) as { companyId: string }).companyId;
  const saved = await admin(`/companies/${companyId}/sso`, {
    method: 'PUT',
    json: {
      issuer: idp.issuer,
      ...CLIENT,
      domains: ['acme-sso.test'],
      required: false,
      defaultRole: 'USER',
      roleClaim: 'groups',
      roleMap: { 'earshot-callers': 'CALLER' },
    },
  });
  if (saved.status !== 200) throw new Error(`saving SSO failed: ${saved.status} ${await saved.text()}`);
}, 120_000);
afterAll(async () => idp?.close());

it('a new person continues with their company, signs in at its provider and lands in that company as CALLER', async () => {
  const page = await suite.open();
  await page.goto(`${suite.server.origin}/signin`);
  await page.getByLabel('Email').fill('newhire@acme-sso.test');
  const offer = page.getByTestId('sso-continue');
  await offer.waitFor();
  await expect(offer.textContent()).resolves.toMatch(/^Continue with /);
  expect(await seriousViolations(page)).toEqual([]);
  await offer.click();

  // The provider's own login and consent pages.
  await page.waitForURL((url) => url.origin === idp!.issuer);
  await page.locator('input[name="login"]').fill('newhire');
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByTestId('user-menu').waitFor();
  expect(new URL(page.url()).origin).toBe(suite.server.origin);
  const me = await page.evaluate(async () => (await fetch('/api/users/profile')).json());
  expect(me).toMatchObject({
    email: 'newhire@acme-sso.test',
    firstName: 'Nina',
    lastName: 'Newhire',
    companyId,
    role: 'CALLER',
  });
});

it('the ADMIN sees the provider, the redirect URI and the last sign-ins; screenshots in both themes and at 375 px', async () => {
  const page = await suite.open();
  await signIn(page, suite.server.origin, 'ADMIN');
  await page.goto(`${suite.server.origin}/identity`);
  await expect(page.getByTestId('sso-state').textContent()).resolves.toBe('Single sign-on is on.');
  await expect(page.getByTestId('sso-redirect-uri').textContent()).resolves.toBe(
    `${suite.server.origin}/api/auth/sso/callback`,
  );
  await expect(page.getByLabel('Issuer URL').inputValue()).resolves.toBe(idp!.issuer);
  // The secret is never sent back to the page.
  await expect(page.getByLabel('Client secret').inputValue()).resolves.toBe('');
  await expect(page.content()).resolves.not.toContain(CLIENT.clientSecret);
  await page.getByTestId('sso-sign-ins').getByText('newhire@acme-sso.test').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await shootThemes(page, 'identity', 1400);
});
