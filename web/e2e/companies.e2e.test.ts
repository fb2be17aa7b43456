// Administration of companies in real Chromium against the real all-in-one server: the platform
// administrator creates and brands a company and sees the brand on its subdomain, switches its
// chat off (its members' menu loses Main Chat), and suspends it (its administrator's open page is
// sent to sign-in with the suspension message). Waits for conditions, never for time.
import { join } from 'node:path';
import { beforeAll, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { browserSuite, apiSession, DEMO_PASSWORD, seriousViolations, signIn, type Account } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();
const SHOTS = process.env.SCREENSHOT_DIR;
const DOMAIN = `brand${process.pid}`;
const PRIMARY = '#7c3aed';
// A second company, made through the API, for the switch and suspension tests (so they do not
// depend on the first test).
const STAFFED = `staff${process.pid}`;
const admin: Account = { email: `boss@${STAFFED}.test`, password: DEMO_PASSWORD };
let companyId = '';

/** A 64×64 PNG of one colour, drawn by the browser (no file in the repository). */
async function png(page: Page, colour: string): Promise<Buffer> {
  const dataUrl = await page.evaluate((fill) => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 64;
    const context = canvas.getContext('2d')!;
    context.fillStyle = fill;
    context.fillRect(0, 0, 64, 64);
    return canvas.toDataURL('image/png');
  }, colour);
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

beforeAll(async () => {
  const host = await apiSession(suite.server.origin, 'HOST_ADMIN');
  const company = await host('/companies', {
    json: { name: `Staffed ${process.pid}`, code: STAFFED, domain: STAFFED },
  });
  expect(company.status).toBe(201);
  companyId = ((await company.json()) as { _id: string })._id;
  const created = await host('/users/register', {
    json: {
      firstName: 'Boss',
      lastName: 'Staffed',
      email: admin.email,
      password: admin.password,
      role: 'ADMIN',
      companyId,
    },
  });
  expect(created.status).toBe(201);
}, 600_000);

async function hostPage(width = 1280, theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await suite.open({ width, height: 900 });
  await signIn(page, suite.server.origin, 'HOST_ADMIN');
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
  return page;
}

it('creates a company with colours and a logo, and its subdomain shows the brand', async () => {
  const page = await hostPage();
  await page.goto(`${suite.server.origin}/companies`);
  await page.getByTestId('data-table-row').first().waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByTestId('company-add').click();
  const form = page.getByTestId('company-form');
  await form.getByLabel('Name').fill(`Brand ${process.pid}`);
  await form.getByLabel('Code').fill(DOMAIN);
  await form.getByLabel('Domain').fill(DOMAIN);
  await form.getByLabel('Maximum storage').fill('2');
  await form.getByLabel('Primary', { exact: true }).fill(PRIMARY);
  await form.getByLabel('Accent', { exact: true }).fill('#f59e0b');
  await form.getByRole('button', { name: 'Create company' }).click();
  await page.getByTestId('api-key-value').waitFor();
  expect(await page.getByTestId('api-key-value').inputValue()).toMatch(/^esk_/);
  await expect(
    page.getByTestId('shade-light-500').evaluate((node) => getComputedStyle(node).backgroundColor),
  ).resolves.toBe('rgb(124, 58, 237)');

  await page
    .getByTestId('brand-image-logo')
    .locator('input[type=file]')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await png(page, PRIMARY) });
  await page.getByTestId('brand-image-logo').getByRole('img', { name: 'Logo' }).waitFor();
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'company-form.png') });
  expect(await page.getByTestId('company-site-link').getAttribute('href')).toBe(
    `http://${DOMAIN}.localhost:${suite.server.port}/`,
  );

  const host = await apiSession(suite.server.origin, 'HOST_ADMIN');
  const list = (await (await host(`/companies?q=${DOMAIN}`)).json()) as {
    items: Array<{ maxStorage: number; logo: string | null }>;
  };
  expect(list.items).toHaveLength(1);
  expect(list.items[0]!.maxStorage).toBe(2 * 1024 ** 3);
  expect(list.items[0]!.logo).toBeTruthy();

  const site = await suite.open();
  await site.goto(`http://${DOMAIN}.localhost:${suite.server.port}/signin`);
  // With a logo, the brand shows as that image, named after the company.
  await site
    .getByRole('img', { name: `Brand ${process.pid}` })
    .first()
    .waitFor();
  await expect(site.evaluate(() => document.documentElement.style.getPropertyValue('--color-brand-500'))).resolves.toBe(
    PRIMARY,
  );
  await expect(site.locator('meta[name="theme-color"]').getAttribute('content')).resolves.toBe(PRIMARY);
  await site.waitForFunction(() =>
    document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href.startsWith('blob:'),
  );
  // What Chromium itself read as the app's manifest (the page may not fetch blob: URLs: connect-src).
  const app = await (await site.context().newCDPSession(site)).send('Page.getAppManifest');
  expect(app.errors).toEqual([]);
  expect(JSON.parse(app.data!)).toMatchObject({
    name: `Brand ${process.pid}`,
    theme_color: PRIMARY,
    display: 'standalone',
  });
  if (SHOTS) await site.screenshot({ path: join(SHOTS, 'company-subdomain.png') });
});

it('at an IP address (127.0.0.1) creating and editing a company never replaces the page with an error', async () => {
  const origin = suite.server.origin.replace('localhost', '127.0.0.1');
  const page = await suite.open({ width: 1280, height: 900 });
  const crashes: string[] = [];
  page.on('pageerror', (error) => crashes.push(error.message));
  await signIn(page, origin, 'HOST_ADMIN');
  await page.goto(`${origin}/companies`);
  await page.getByTestId('company-add').click();
  const form = page.getByTestId('company-form');
  const domain = `ip${process.pid}`;
  await form.getByLabel('Name').fill(`By address ${process.pid}`);
  await form.getByLabel('Code').fill(domain);
  await form.getByLabel('Domain').fill(domain);
  await form.getByRole('button', { name: 'Create company' }).click();
  await page.getByTestId('api-key-value').waitFor();
  // Loopback addresses have no subdomains; browsers resolve *.localhost to the same machine.
  expect(await page.getByTestId('company-site-link').getAttribute('href')).toBe(
    `http://${domain}.localhost:${suite.server.port}/`,
  );
  await form.getByLabel('Name').fill(`By address ${process.pid} renamed`);
  await form.getByRole('button', { name: 'Save' }).click();
  // The creation's own toast may still be up (a busy machine): wait for the save's.
  await page.getByTestId('toast-success').filter({ hasText: 'Company saved' }).waitFor();
  expect(await page.getByTestId('crash-notice').count()).toBe(0);
  expect(crashes).toEqual([]);
});

it("switching chat off for the company hides Main Chat from its members' menu", async () => {
  const page = await hostPage();
  await page.goto(`${suite.server.origin}/features?company=${companyId}`);
  const list = page.getByTestId('company-features-list');
  await list.getByRole('switch', { name: 'Main chat' }).click();
  await page.getByTestId('company-features-save').click();
  await page.getByText('Features saved').waitFor();

  const member = await suite.open();
  // The layout asks for the company's switches once; the menu is drawn again with the answer.
  const switches = member.waitForResponse((response) => response.url().endsWith('/api/features/enabled'));
  await signIn(member, suite.server.origin, admin);
  expect((await switches).status()).toBe(200);
  const nav = member.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Transcripts' }).waitFor();
  await expect(nav.getByRole('link', { name: 'Main Chat' }).count()).resolves.toBe(0);
});

it("suspending the company sends its administrator's open page to sign-in with the reason", async () => {
  const member = await suite.open();
  await signIn(member, suite.server.origin, admin);
  await member.goto(`${suite.server.origin}/transcripts`);

  const page = await hostPage();
  await page.goto(`${suite.server.origin}/companies?q=${STAFFED}`);
  await page.getByRole('button', { name: `Edit Staffed ${process.pid}` }).click();
  await page.getByTestId('company-form').getByLabel('Status').selectOption('suspended');
  await page.getByTestId('company-form').getByRole('button', { name: 'Save' }).click();
  await page.getByText('Company saved').waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('companies-table').getByText('Suspended').waitFor();

  // The member's next request finds the session ended.
  await member.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Transcripts' }).click();
  await member.reload();
  await member.waitForURL(/\/signin/);
  await member
    .getByText('Your company’s access is suspended: contact your administrator')
    .or(member.getByText("Your company's access is suspended: contact your administrator"))
    .waitFor();
});

it('fits a 375 px phone; screenshots in light, dark and at 375 px', async () => {
  for (const [name, width, theme] of [
    ['companies-375', 375, 'light'],
    ['companies-light', 1280, 'light'],
    ['companies-dark', 1280, 'dark'],
  ] as const) {
    if (width > 375 && !SHOTS) continue;
    const page = await hostPage(width, theme);
    await page.goto(`${suite.server.origin}/companies`);
    await page.getByTestId('data-table-row').first().waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: width < 768 });
    if (theme === 'dark' && SHOTS) {
      await page.goto(`${suite.server.origin}/features?company=${companyId}`);
      await page.getByTestId('company-features-list').waitFor();
      await page.screenshot({ path: join(SHOTS, 'features-dark.png') });
      await page.goto(`${suite.server.origin}/b2c-users`);
      await page.getByTestId('b2c-table').waitFor();
      await page.screenshot({ path: join(SHOTS, 'b2c-users-dark.png') });
    }
  }
});
