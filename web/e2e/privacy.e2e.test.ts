// A person's data in real Chromium against the real all-in-one server: a USER downloads
// their own data from /profile (the ZIP arrives); a company's ADMIN exports a client contact from
// its profile, and erases a user from the users page keeping their recordings under the company,
// reading each service's report. Waits for conditions, never for time. SCREENSHOT_DIR=… saves the
// screens light, dark and at 375 px.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  apiSession,
  browserSuite,
  createUser,
  seriousViolations,
  signIn,
  type Account,
  type DemoRole,
} from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();
const SHOTS = process.env.SCREENSHOT_DIR;
/** Every service answers through events: a job takes seconds, this is only a safety net. */
const JOB_DONE = { timeout: 120_000 };

async function open(
  who: DemoRole | Account,
  { width = 1280, theme = 'light' }: { width?: number; theme?: 'light' | 'dark' } = {},
): Promise<Page> {
  const page = await suite.open({ width, height: 900 });
  await signIn(page, suite.server.origin, who);
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, name), fullPage: false });
}

/** "Erase…" from the person's row of the users list (narrowed to them: the list is paged). */
async function openErase(page: Page, account: Account) {
  await page.goto(`${suite.server.origin}/users`);
  const search = page.getByLabel('Search by name or e-mail');
  await search.fill(account.email);
  await search.press('Enter');
  const row = page.getByTestId('data-table-row').filter({ hasText: account.email });
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: 'Erase…' }).click();
  return { row, dialog: page.getByTestId('privacy-dialog') };
}

const fits375 = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

it('a USER downloads their own data from /profile: the ZIP arrives', async () => {
  const account = await createUser(suite.server.origin, 'USER');
  const page = await open(account);
  await page.goto(`${suite.server.origin}/profile`);
  const section = page.getByTestId('profile-data');
  await section.getByRole('button', { name: 'Download my data' }).click();
  const link = section.getByRole('link', { name: 'Download the ZIP' });
  await link.waitFor(JOB_DONE);
  // Every service answered for the account: the profile and its session are in the ZIP.
  expect(await section.getByTestId('privacy-pending').count()).toBe(0);
  expect(await section.locator('[data-testid="privacy-part"][data-service="auth"]').textContent()).toMatch(
    /Profile: 1/,
  );
  expect(await seriousViolations(page)).toEqual([]);
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'privacy-profile-light.png');

  // Chromium's download itself cannot be watched (neither routes nor response events see a
  // download), so its answer is read by asking for the same link with the browser's cookies.
  const href = (await link.getAttribute('href'))!;
  const answer = await page.request.get(`${suite.server.origin}${href}`);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/zip');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.url()).toBe(`${suite.server.origin}${href}`);
  expect(download.suggestedFilename()).toMatch(/^earshot-user-[0-9a-f-]+\.zip$/);
  const zipPath = (await download.path())!;
  expect((await readFile(zipPath)).subarray(0, 2).toString('latin1')).toBe('PK');
  // Their account is in it (Info-ZIP's unzip reads it, as a person would).
  const profile = JSON.parse(execFileSync('unzip', ['-p', zipPath, 'auth.json'], { encoding: 'utf8' })) as {
    profile: { email: string };
  };
  expect(profile.profile.email).toBe(account.email);
});

it('the account page’s data section fits 375 px in the dark theme', async () => {
  const page = await open('USER', { width: 375, theme: 'dark' });
  await page.goto(`${suite.server.origin}/profile`);
  const section = page.getByTestId('profile-data');
  await section.getByRole('button', { name: 'Download my data' }).click();
  await section.getByRole('link', { name: 'Download the ZIP' }).waitFor(JOB_DONE);
  await section.scrollIntoViewIfNeeded();
  expect(await fits375(page)).toBe(true);
  await shot(page, 'privacy-profile-375-dark.png');
});

it('an ADMIN exports a client contact from its profile (dark theme)', async () => {
  const admin = await apiSession(suite.server.origin, 'ADMIN');
  const made = await admin('/clients', {
    json: { name: `Export Client ${process.pid}`, email: `export-${process.pid}@client.test` },
  });
  expect(made.status).toBe(201);
  const clientId = ((await made.json()) as { _id: string })._id;

  const page = await open('ADMIN', { theme: 'dark' });
  await page.goto(`${suite.server.origin}/client/${clientId}`);
  await page.getByRole('button', { name: 'Export data' }).click();
  const dialog = page.getByTestId('privacy-dialog');
  await dialog.getByRole('heading', { name: `Export the data of Export Client ${process.pid}` }).waitFor();
  await dialog.getByRole('button', { name: 'Prepare the ZIP' }).click();
  const link = dialog.getByRole('link', { name: 'Download the ZIP' });
  await link.waitFor(JOB_DONE);
  expect(await dialog.locator('[data-testid="privacy-part"][data-service="tenant"]').textContent()).toMatch(
    /Client records: 1/,
  );
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'privacy-client-export-dark.png');

  // The same link the browser follows, with the browser's cookies.
  const answer = await page.request.get(`${suite.server.origin}${await link.getAttribute('href')}`);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/zip');
});

it('an ADMIN erases a user from the users page, keeping their recordings under the company, and reads the report', async () => {
  const account = await createUser(suite.server.origin, 'USER');
  // A recording of theirs, which the company keeps.
  const wav = join(await mkdtemp(join(tmpdir(), 'privacy-e2e-')), 'call.wav');
  execFileSync('espeak-ng', ['-s', '150', '-w', wav, 'Hello, this call stays with the company.']);
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), `kept-${process.pid}.wav`);
  const upload = await (await apiSession(suite.server.origin, account))('/files/upload', { form });
  expect(upload.status).toBe(201);
  const fileId = ((await upload.json()) as { _id: string })._id;

  const page = await open('ADMIN');
  const { row, dialog } = await openErase(page, account);
  await dialog.getByRole('heading', { name: /^Erase Test Person/ }).waitFor();
  await dialog.getByRole('radio', { name: /Keep them under the company/ }).check();
  await dialog.getByLabel(/^To confirm, type/).fill(account.email);
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'privacy-erase-light.png');

  await dialog.getByRole('button', { name: 'Erase for good' }).click();
  await dialog.getByText(/was erased\.$/).waitFor(JOB_DONE);
  expect(await dialog.getByTestId('privacy-pending').count()).toBe(0);
  expect(await dialog.getByTestId('privacy-part').count()).toBeGreaterThanOrEqual(7);
  expect(await dialog.locator('[data-testid="privacy-part"][data-service="file"]').textContent()).toMatch(
    /Recordings kept without the person: 1/,
  );
  expect(await dialog.getByRole('heading', { name: 'What each service removed' }).count()).toBe(1);
  await shot(page, 'privacy-erase-report-light.png');

  await dialog.getByRole('button', { name: 'Close' }).click();
  await row.waitFor({ state: 'detached' });
  // The account is gone: it no longer signs in.
  const login = await fetch(`${suite.server.origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify(account),
  });
  expect(login.status).toBe(401);
  // Their recording stays with the company.
  const admin = await apiSession(suite.server.origin, 'ADMIN');
  expect((await admin(`/files/${fileId}`)).status).toBe(200);
});

it('the erase dialog fits 375 px in the dark theme', async () => {
  const account = await createUser(suite.server.origin, 'USER');
  const page = await open('ADMIN', { width: 375, theme: 'dark' });
  const { dialog } = await openErase(page, account);
  await dialog.getByRole('radio', { name: /Delete them/ }).check();
  await dialog.getByLabel(/^To confirm, type/).fill('Test');
  expect(await dialog.getByRole('button', { name: 'Erase for good' }).isDisabled()).toBe(true);
  expect(await fits375(page)).toBe(true);
  await shot(page, 'privacy-erase-375-dark.png');
});
