// The console in real Chromium against the real all-in-one server (`npm start`).
import { describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { browserSuite, seriousViolations, signIn, type DemoRole } from './harness';

jest.setTimeout(120_000);

const suite = browserSuite();

async function menuKeys(page: Page): Promise<string[]> {
  await page.getByTestId('sidebar').waitFor();
  return page.$$eval('[data-testid="sidebar"] [data-testid^="menu-"]', (nodes) =>
    nodes.map((n) => (n.getAttribute('data-testid') ?? '').slice(5)),
  );
}

const HOST_ONLY = [
  'companies',
  'features',
  'prompts',
  'pricing',
  'b2c-users',
  'audit-logs',
  'email-templates',
  'ai-config',
];
const EXPECTED: Record<DemoRole, { shows: string[]; hides: string[] }> = {
  HOST_ADMIN: {
    shows: [...HOST_ONLY, 'custom-gpts', 'users', 'main-chat', 'transcripts'],
    hides: ['clients', 'ai-features'],
  },
  ADMIN: { shows: ['custom-gpts', 'users', 'clients', 'ai-features', 'main-chat', 'transcripts'], hides: HOST_ONLY },
  USER: {
    shows: ['main-chat', 'transcripts'],
    hides: [...HOST_ONLY, 'custom-gpts', 'users', 'clients', 'ai-features'],
  },
  CALLER: {
    shows: ['main-chat', 'transcripts', 'clients'],
    hides: [...HOST_ONLY, 'custom-gpts', 'users', 'ai-features'],
  },
};

describe('web console in Chromium', () => {
  it.each(Object.keys(EXPECTED) as DemoRole[])('signs in as %s and shows that role’s menu', async (role) => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, role);
    await page.waitForURL((url) => url.pathname === '/');
    const keys = await menuKeys(page);
    for (const key of EXPECTED[role].shows) expect([role, key, keys.includes(key)]).toEqual([role, key, true]);
    for (const key of EXPECTED[role].hides) expect([role, key, keys.includes(key)]).toEqual([role, key, false]);
    // The stored user is kept; no token is readable by scripts.
    const stored = await page.evaluate(() => ({
      user: localStorage.getItem('user'),
      token: localStorage.getItem('token'),
      cookies: document.cookie,
    }));
    expect(JSON.parse(stored.user ?? '{}').roles.role.code).toBe(role);
    expect(stored.token).toBeNull();
    expect(stored.cookies).not.toMatch(/eyJ/); // no JWT in a script-readable cookie
    expect(await page.title()).toBe('Earshot | Main Chat');
  });

  it('sends a USER who opens /companies to /chat and says why', async () => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, 'USER');
    await page.goto(`${suite.server.origin}/companies`);
    await page.waitForURL((url) => url.pathname === '/chat');
    await page.getByRole('heading', { name: "What's on the agenda today?" }).waitFor();
    expect(await page.getByTestId('forbidden-notice').textContent()).toContain(
      '“/companies” is only for Platform administrator',
    );
  });

  it('returns to the page asked for after signing in, then signs out', async () => {
    const page = await suite.open();
    await page.goto(`${suite.server.origin}/transcripts`);
    await page.waitForURL((url) => url.pathname === '/signin');
    await signIn(page, suite.server.origin, 'CALLER');
    // signIn() loads /signin itself; the return URL was stored by the guard before that.
    await page.waitForURL((url) => url.pathname === '/transcripts');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL((url) => url.pathname === '/signin');
    expect(await page.evaluate(() => [localStorage.getItem('user'), localStorage.getItem('returnUrl')])).toEqual([
      null,
      null,
    ]);
  });

  it("shows the server's message when sign-in fails; sign-up sends people to an administrator", async () => {
    const page = await suite.open();
    await page.goto(`${suite.server.origin}/signin`);
    await page.getByLabel('Email').fill('user@acme.test');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('signin-error').filter({ hasText: 'Invalid email or password' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByTestId('signup-contact-admin').filter({ hasText: 'administrator' }).waitFor();
  });

  it('shows the 404 page for an unknown path', async () => {
    const page = await suite.open();
    await page.goto(`${suite.server.origin}/no-such-page/at-all`);
    await page.getByTestId('not-found-page').waitFor();
    expect(await page.title()).toBe('Earshot | Page not found');
  });

  it('switches to Eesti and back to English, and remembers the choice', async () => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, 'ADMIN');
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-et').click();
    await page.getByTestId('menu-main-chat').getByText('Põhivestlus').waitFor();
    expect(
      await page.evaluate(() => [localStorage.getItem('preferredLanguage'), document.documentElement.lang]),
    ).toEqual(['et', 'et']);
    await page.reload();
    await page.getByTestId('menu-main-chat').getByText('Põhivestlus').waitFor();
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-en').click();
    await page.getByTestId('menu-main-chat').getByText('Main Chat').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('preferredLanguage'))).toBe('en');
  });

  it('keeps dark mode after a reload', async () => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, 'USER');
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await isDark()).toBe(false);
    await page.getByTestId('theme-toggle').click();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await page.getByTestId('user-menu').waitFor();
    expect(await isDark()).toBe(true);
  });

  it("shows acme's name on acme.localhost", async () => {
    const page = await suite.open();
    await page.goto(`http://acme.localhost:${suite.server.port}/signin`);
    await page.getByTestId('brand-name').filter({ hasText: 'Acme' }).waitFor();
    const name = await page.getByTestId('brand-name').textContent();
    expect(name).toMatch(/Acme/);
    await page.waitForFunction(() => document.title.startsWith('Acme'));
    expect(await page.title()).toBe(`${name} | Sign in`);
  });

  it('has no serious or critical accessibility violations on sign-in and in the signed-in layout', async () => {
    const page = await suite.open();
    await page.goto(`${suite.server.origin}/signin`);
    await page.getByLabel('Email').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await signIn(page, suite.server.origin, 'HOST_ADMIN');
    await page.getByTestId('chat-greeting').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('theme-toggle').click();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a page that fails to render as a notice with Try again, and reports it to the server', async () => {
    const page = await suite.open();
    await signIn(page, suite.server.origin, 'ADMIN');
    await page.getByTestId('sidebar').waitFor();
    // An answer the page does not expect (a tag whose name is an object) makes React throw while
    // rendering the table: the rest of the console stays, the page says what failed.
    await page.route(
      (url) => url.pathname === '/api/tags',
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: '[{"name":{"unexpected":true},"count":1}]',
        }),
    );
    const reported = page.waitForResponse(
      (response) => response.url().endsWith('/api/users/client-errors') && response.request().method() === 'POST',
    );
    await page.goto(`${suite.server.origin}/tags`);
    const notice = page.getByTestId('crash-notice');
    await notice.waitFor();
    expect(await notice.getByRole('heading').textContent()).toBe('This part of the page failed');
    expect(await page.getByTestId('sidebar').isVisible()).toBe(true);
    const report = await reported;
    expect(report.status()).toBe(204);
    expect(report.request().postDataJSON()).toMatchObject({ path: '/tags' });
    // Once the server answers as expected again, Try again asks for it again and renders the page.
    await page.unroute((url) => url.pathname === '/api/tags');
    await notice.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('crash-notice').waitFor({ state: 'detached' });
    await page.getByRole('table').waitFor();
  });

  it('opens the menu as a drawer on a phone-sized screen', async () => {
    const page = await suite.open({ width: 390, height: 800 });
    await signIn(page, suite.server.origin, 'CALLER');
    expect(await page.getByTestId('sidebar').getAttribute('inert')).not.toBeNull();
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('drawer-backdrop').waitFor();
    expect(await page.getByTestId('sidebar').getAttribute('role')).toBe('dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('drawer-backdrop').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'sidebar-toggle');
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('menu-clients').click();
    await page.waitForURL((url) => url.pathname === '/clients');
    await page.getByTestId('drawer-backdrop').waitFor({ state: 'detached' });
  });
});
