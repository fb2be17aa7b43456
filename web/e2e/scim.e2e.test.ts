// "Sign-in and provisioning" in real Chromium against the real all-in-one server: a company's
// ADMIN creates a SCIM token (shown once), an identity provider's SCIM client uses it over HTTP
// to provision and deactivate a person, and the page shows the token's last use and those changes
// in "Last provisioning changes". Waits for conditions, never for time.
import { expect, it, jest } from '@jest/globals';
import { browserSuite, seriousViolations, shootThemes, signIn, waitFor } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();
const SCIM_TYPE = 'application/scim+json';

it('an ADMIN creates a token, an IdP provisions with it, and the page shows the changes; a USER is sent away', async () => {
  const page = await suite.open();
  const { origin } = suite.server;
  await signIn(page, origin, 'ADMIN');
  await page.goto(`${origin}/identity`);
  await expect(page.getByTestId('scim-base-url').textContent()).resolves.toBe(`${origin}/api/scim/v2`);
  await page.getByTestId('scim-token-create').click();
  await page.getByTestId('scim-token-name').fill('Okta');
  await page.getByTestId('form-submit').click();
  const secretDialog = page.getByTestId('scim-token-secret');
  await secretDialog.waitFor();
  const token = (await page.getByTestId('scim-token-value').textContent())!.trim();
  expect(token).toMatch(/^scim_/);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await secretDialog.waitFor({ state: 'hidden' });
  const row = page.getByTestId('scim-tokens-table').getByTestId('data-table-row').filter({ hasText: 'Okta' });
  await expect(row.getByTestId('scim-token-last-used').textContent()).resolves.toBe('Never');
  await expect(page.content()).resolves.not.toContain(token);

  // The identity provider's SCIM client, over HTTP with the token.
  const scim = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}/api/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': SCIM_TYPE, accept: SCIM_TYPE },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as { id: string; active: boolean } };
  };
  const created = await scim('POST', '/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: 'new.hire@acme.test',
    name: { givenName: 'New', familyName: 'Hire' },
    active: true,
  });
  expect(created.status).toBe(201);
  const deactivated = await scim('PATCH', `/Users/${created.json.id}`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', path: 'active', value: false }],
  });
  expect(deactivated.json.active).toBe(false);

  // The audit log learns of it from events: reload until both changes are listed.
  const changes = page.getByTestId('provisioning-changes').getByTestId('data-table-row');
  await waitFor(async () => {
    await page.reload();
    await row.waitFor();
    return (await changes.filter({ hasText: 'new.hire@acme.test' }).count()) === 2;
  }, 'the provisioning changes on the page');
  await expect(changes.getByTestId('provisioning-change-kind').allTextContents()).resolves.toEqual(
    expect.arrayContaining(['Added', 'Deactivated']),
  );
  await expect(changes.first().textContent()).resolves.toContain('Okta');
  await expect(row.getByTestId('scim-token-last-used').textContent()).resolves.not.toBe('Never');
  expect(await seriousViolations(page)).toEqual([]);
  await shootThemes(page, 'identity-scim');

  // Revoked: the token answers 401 from its next request on.
  await row.getByTestId('scim-token-revoke').click();
  await page.getByRole('button', { name: 'Revoke' }).last().click();
  await row.waitFor({ state: 'detached' });
  expect((await scim('GET', '/Users')).status).toBe(401);

  const user = await suite.open();
  await signIn(user, origin, 'USER');
  await user.goto(`${origin}/identity`);
  await user.waitForURL((url) => !url.pathname.startsWith('/identity'));
});
