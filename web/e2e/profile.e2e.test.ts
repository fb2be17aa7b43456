// One's own account in real Chromium against the real all-in-one server: two-step
// sign-in turned on with the QR code's secret (the code computed here, as an authenticator app
// would), then required at sign-in; a recovery code signs a second browser in once; that session,
// signed out from the first browser, is refused. Waits for conditions, never for time.
// SCREENSHOT_DIR=… also saves the account page light, dark and at 375 px.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { generateSync } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  createUser,
  launchBrowser,
  newPage,
  seriousViolations,
  signIn,
  startServer,
  type Account,
  type RunningServer,
} from './harness';

jest.setTimeout(300_000);

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const SHOTS = process.env.SCREENSHOT_DIR;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 60_000);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

async function open(): Promise<Page> {
  const opened = await newPage(browser);
  contexts.push(opened.context);
  return opened.page;
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** What an authenticator app shows for the secret (`ahead` time steps later). */
const codeFor = (secret: string, ahead = 0) =>
  generateSync({ strategy: 'totp', secret, epoch: Math.floor(Date.now() / 1000) + ahead * 30 });

/** Email and password, then `code` on the two-step page (the session, or the page's complaint). */
async function signInWithCode(page: Page, account: Account, code: string): Promise<void> {
  await page.goto(`${server.origin}/signin`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

async function menu(page: Page, item: string): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Nothing sticks out sideways at 375 px; with SCREENSHOT_DIR, the page light, dark and at 375 px. */
async function checkAndShoot(page: Page, name: string, focus?: string): Promise<void> {
  const scrollTo = () => (focus ? page.getByTestId(focus).scrollIntoViewIfNeeded() : Promise.resolve());
  await page.setViewportSize({ width: 375, height: 800 });
  // The layout settles to the phone size (the side menu leaves); nothing may stay wider than the screen.
  await page.waitForFunction(() => document.documentElement.scrollWidth <= 375, undefined, { timeout: 10_000 });
  await scrollTo();
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-375.png`) });
  await page.setViewportSize({ width: 1280, height: 860 });
  if (!SHOTS) return;
  await scrollTo();
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await page.screenshot({ path: join(SHOTS, `${name}-dark.png`) });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

describe('own account', () => {
  it('two-step on with the QR code’s secret → sign out → sign in with a code; a signed-out session is refused', async () => {
    const account = await createUser(server.origin, 'USER');
    const page = await open();
    await signIn(page, server.origin, account);

    // The user menu's "Account settings" opens the account page.
    await menu(page, 'Account settings');
    await page.waitForURL(/\/profile$/);
    await page.getByTestId('two-step-start').click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('two-step-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel(/Code from the app/).fill(codeFor(secret));
    await page.getByTestId('two-step-confirm').click();
    await page.getByTestId('recovery-codes').waitFor();
    const recoveryCodes = await page.getByTestId('recovery-code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await checkAndShoot(page, 'profile-recovery-codes', 'recovery-codes');
    await page.getByTestId('recovery-done').click();
    await page.getByText('Two-step sign-in is on.').waitFor();

    await menu(page, 'Sign out');
    await page.waitForURL(/\/signin/);
    // The code of the step used to turn it on was spent: the app's next one is fresh.
    await signInWithCode(page, account, codeFor(secret, 1));
    await page.getByTestId('user-menu').waitFor();

    // A second browser: without the phone, with a recovery code.
    const other = await open();
    await signInWithCode(other, account, recoveryCodes[0]!);
    await other.getByTestId('user-menu').waitFor();

    await page.goto(`${server.origin}/profile`);
    const rows = page.getByTestId('session-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.filter({ hasText: 'This device' }).count()).toBe(1);
    await checkAndShoot(page, 'profile', 'profile-sessions');
    expect(await seriousViolations(page)).toEqual([]);
    await rows.filter({ hasNotText: 'This device' }).getByTestId('session-sign-out').click();
    await page.getByText('Signed out', { exact: true }).waitFor();
    await rows.nth(1).waitFor({ state: 'detached' });

    // The other browser's session is refused on its next request: back to sign-in.
    await other.goto(`${server.origin}/profile`);
    await other.waitForURL(/\/signin/);

    // The used recovery code does not work again.
    await signInWithCode(other, account, recoveryCodes[0]!);
    await other.getByText('Invalid verification code').waitFor();
  });

  it('a picture chosen on the account page replaces the initials in the header; an SVG is refused in the server’s words', async () => {
    const account = await createUser(server.origin, 'USER');
    const page = await open();
    await signIn(page, server.origin, account);
    await menu(page, 'Account settings');
    await page.waitForURL(/\/profile$/);

    await page.getByTestId('avatar-input').setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await page.getByRole('alert').filter({ hasText: 'SVG images are not accepted' }).waitFor();
    expect(await page.getByTestId('user-menu').locator('img').count()).toBe(0);

    await page.getByTestId('avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    const header = page.getByTestId('user-menu').locator('img');
    await header.waitFor();
    expect(await header.getAttribute('src')).toMatch(/^\/api\/users\/avatars\/[0-9a-f-]{36}\?v=\d+$/);
    // Drawn: the browser fetched it through the gateway with the session cookie and decoded it.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="user-menu"] img');
      return Boolean(img?.complete && img.naturalWidth === 1);
    });
    await checkAndShoot(page, 'profile-picture', 'avatar-field');
  });

  it('"Support" shows the company’s administrators to write to', async () => {
    const account = await createUser(server.origin, 'CALLER');
    const page = await open();
    await signIn(page, server.origin, account);
    await menu(page, 'Support');
    await page.waitForURL(/\/support$/);
    const contacts = page.getByTestId('support-contacts');
    await contacts.getByRole('link').first().waitFor();
    expect(await contacts.getByRole('link').first().getAttribute('href')).toMatch(/^mailto:.+@/);
    await checkAndShoot(page, 'support');
  });
});
