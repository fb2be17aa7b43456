// Company administration in real Chromium against the real all-in-one server (`npm start`): an
// ADMIN staffs the company and adds a client, sees nothing of other companies or platform
// administrators; a CALLER uploads a real espeak-ng recording from the client's profile.
// Waits for conditions, never for time. SCREENSHOT_DIR=… also saves the pages in both themes.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  apiSession,
  createUser,
  launchBrowser,
  newPage,
  seriousViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';

jest.setTimeout(300_000);

let server: RunningServer;
let browser: Browser;
let workDir: string;
let context: BrowserContext | undefined;
const SHOTS = process.env.SCREENSHOT_DIR;
const CLIENT = { name: 'Northwind Traders', organisation: 'Northwind Ltd', externalId: `crm-${process.pid}` };

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'earshot-admin-e2e-'));
  server = await startServer();
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 60_000);

afterEach(async () => {
  await context?.close();
  context = undefined;
});

async function open(width = 1280, height = 860): Promise<Page> {
  const opened = await newPage(browser, { width, height });
  context = opened.context;
  return opened.page;
}

/** The page at each width (1280 and 375 px) and the window's height, light and dark, when screenshots are asked for. */
async function shoot(page: Page, name: string, widths = [1280, 375]): Promise<void> {
  if (!SHOTS) return;
  const size = page.viewportSize() ?? { width: 1280, height: 860 };
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => document.documentElement.classList.toggle('dark', value === 'dark'), theme);
    for (const width of widths) {
      await page.setViewportSize({ width, height: size.height });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${theme}.png`) });
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize(size);
}

type Box = { x: number; y: number; width: number; height: number };
const within = (inner: Box, outer: Box): boolean =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('Not rendered');
  return box;
}

/** Whether the page shows the element itself across its middle, both ends too (nothing sticky painted over it). */
function onTop(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return [rect.left + 2, rect.left + rect.width / 2, rect.right - 2].every((x) => {
      const hit = document.elementFromPoint(x, rect.top + rect.height / 2);
      return hit !== null && element.contains(hit);
    });
  });
}

describe('users and clients for a company administrator', () => {
  it('an ADMIN sees no platform administrator and no other company', async () => {
    const page = await open();
    await signIn(page, server.origin, 'ADMIN');
    await page.goto(`${server.origin}/users`);
    await page.getByTestId('data-table-row').first().waitFor();
    const roles = await page.getByTestId('user-role').allTextContents();
    expect(roles).toEqual(expect.arrayContaining(['Company administrator', 'User', 'Caller']));
    expect(roles).not.toContain('Platform administrator');
    await expect(page.getByRole('columnheader', { name: /company/i }).count()).resolves.toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'users');

    // Another company's screens are refused: the guard sends an ADMIN to the chat, the API says 403.
    await page.goto(`${server.origin}/companies`);
    await page.waitForURL(/\/chat$/);
    const api = await apiSession(server.origin, 'ADMIN');
    expect((await api('/companies')).status).toBe(403);
  });

  it('on a phone the users table scrolls in its own region, the role column whole and the header kept at the top', async () => {
    // Enough people for the rows to outgrow the table's region in an iPhone SE's window.
    for (let made = 0; made < 6; made += 1) await createUser(server.origin, 'USER');
    const page = await open(375, 667);
    await signIn(page, server.origin, 'ADMIN');
    await page.goto(`${server.origin}/users`);
    await page.getByTestId('data-table-row').nth(8).waitFor();
    const region = page.getByRole('region', { name: 'Users' });
    // The page scrolls as far as it can towards the region's top just under the app's 64 px header.
    const pageToRegion = () =>
      region.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 80));
    await pageToRegion();
    await expect(
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).resolves.toBeLessThanOrEqual(0);

    // The role shows whole beside the name before any scrolling, with nothing painted over it.
    const roleHeader = region.getByRole('columnheader', { name: /role/i });
    const roleCell = region
      .getByRole('cell')
      .filter({ has: page.getByTestId('user-role') })
      .first();
    expect(within(await boxOf(roleHeader), await boxOf(region))).toBe(true);
    expect(within(await boxOf(roleCell), await boxOf(region))).toBe(true);
    await expect(onTop(roleCell)).resolves.toBe(true);
    await expect(onTop(roleHeader)).resolves.toBe(true);

    // The rows scroll under the header, which stays at the region's top and covers them.
    const top = (await boxOf(region)).y;
    expect(await region.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    await region.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await expect(region.evaluate((element) => element.scrollTop)).resolves.toBeGreaterThan(0);
    expect(Math.abs((await boxOf(roleHeader)).y - top)).toBeLessThanOrEqual(1);
    expect((await boxOf(region.getByTestId('data-table-row').first())).y).toBeLessThan(top);
    await expect(onTop(roleHeader)).resolves.toBe(true);

    // Sideways too: the last column's header is at the top, the last row's menu in the region.
    await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect(region.evaluate((element) => element.scrollLeft)).resolves.toBeGreaterThan(0);
    const lastSignIn = region.getByRole('columnheader', { name: /last sign-in/i });
    expect(Math.abs((await boxOf(lastSignIn)).y - top)).toBeLessThanOrEqual(1);
    expect(within(await boxOf(lastSignIn), await boxOf(region))).toBe(true);
    expect(within(await boxOf(region.getByTestId('user-actions').last()), await boxOf(region))).toBe(true);
    await expect(onTop(lastSignIn)).resolves.toBe(true);

    // The last row's menu opens on the window, whole, instead of being cut off by the region.
    await region.getByTestId('user-actions').last().click();
    const menu = page.getByRole('menu');
    expect(within(await boxOf(menu), { x: 0, y: 0, width: 375, height: 667 })).toBe(true);
    for (const item of await menu.getByRole('menuitem').all()) await expect(onTop(item)).resolves.toBe(true);
    await page.getByRole('heading', { name: 'Users' }).click();
    await menu.waitFor({ state: 'detached' });

    // Half-way down and at the start for the pictures: rows passing under the header.
    await pageToRegion();
    await region.evaluate((element) => element.scrollTo({ left: 0, top: element.scrollHeight / 3 }));
    await shoot(page, 'users-table', [375]);
  });

  it('an ADMIN adds a USER with a temporary password shown once', async () => {
    const page = await open();
    await signIn(page, server.origin, 'ADMIN');
    await page.goto(`${server.origin}/users`);
    await page.getByTestId('data-table-row').first().waitFor();
    const email = `e2e-new-user-${process.pid}@acme.test`;
    await page.getByTestId('add-user').click();
    const form = page.getByTestId('create-user-form');
    await form.getByLabel('First name').fill('Nina');
    await form.getByLabel('Last name').fill('Newcomer');
    await form.getByLabel('E-mail').fill(email);
    expect(await form.getByLabel('Role').locator('option').allTextContents()).not.toContain('Platform administrator');
    await form.getByLabel('Role').selectOption('USER');
    await form.getByRole('button', { name: 'Add user' }).click();
    const secret = page.getByTestId('temporary-password');
    await secret.waitFor();
    expect((await secret.textContent())?.length).toBeGreaterThanOrEqual(8);
    await shoot(page, 'users-temporary-password');
    await page.getByRole('button', { name: 'I have noted it' }).click();
    await expect(secret.count()).resolves.toBe(0);
    await page.getByRole('row', { name: new RegExp(email) }).waitFor();
  });

  it('an ADMIN adds a client, with the schema’s field errors on the field', async () => {
    const page = await open();
    await signIn(page, server.origin, 'ADMIN');
    await page.goto(`${server.origin}/clients`);
    await page.getByTestId('add-client').click();
    const clientForm = page.getByTestId('client-form');
    await clientForm.getByLabel('Name').fill(CLIENT.name);
    await clientForm.getByLabel('Organisation').fill(CLIENT.organisation);
    await clientForm.getByLabel('External id').fill(CLIENT.externalId);
    await clientForm.getByLabel('E-mail').fill('not an e-mail');
    await clientForm.getByRole('button', { name: 'Add client' }).click();
    // The contracts' schema answers on the field, before anything is sent.
    await expect(clientForm.getByLabel('E-mail').getAttribute('aria-invalid')).resolves.toBe('true');
    await clientForm.getByLabel('E-mail').fill('orders@northwind.test');
    await clientForm.getByRole('button', { name: 'Add client' }).click();
    await page.getByRole('link', { name: CLIENT.name }).waitFor();
    await shoot(page, 'clients');
  });

  it('a CALLER uploads a recording from the client profile and sees it listed there', async () => {
    const caller = await apiSession(server.origin, 'CALLER');
    const made = await caller('/clients', { json: { name: 'Contoso Calls', organisation: 'Contoso' } });
    expect(made.status).toBe(201);
    const clientId = ((await made.json()) as { _id: string })._id;

    const name = 'espeak-client-call.wav';
    const wav = join(workDir, name);
    execFileSync('espeak-ng', [
      '-s',
      '140',
      '-w',
      wav,
      'Hello, this is Northwind. We would like to order more tea. Goodbye.',
    ]);

    const page = await open();
    await signIn(page, server.origin, 'CALLER');
    await page.goto(`${server.origin}/client/${clientId}`);
    await page.getByRole('heading', { name: 'Contoso Calls' }).waitFor();
    await page.getByTestId('upload-input').setInputFiles(wav);
    // The profile learns of the recording from the file service's event, and polls until it has.
    await page.getByTestId('recording-name').filter({ hasText: name }).waitFor({ timeout: 120_000 });
    await page.getByTestId('client-timeline').locator('[data-kind="call"]').filter({ hasText: name }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'client-profile');

    await page.getByRole('link', { name: `View ${name}` }).click();
    await page.waitForURL(/\/transcripts\/[0-9a-f-]+$/);
  });
});
