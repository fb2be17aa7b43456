// Legal hold in real Chromium against the real all-in-one server: a company's ADMIN
// holds a recording with a reason, its delete is refused with the server's message, and the hold
// is lifted; the platform administrator holds a whole company from its dialog; a USER gets no
// hold control. Light, dark and 375 px screenshots. Waits for conditions, never for time.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { HOLD_MESSAGES } from '@earshot/contracts';
import { apiSession, browserSuite, seriousViolations, signIn, type DemoRole } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();
const SHOTS = process.env.SCREENSHOT_DIR;
const RECORDING = `held-call-${process.pid}.wav`;
const CODE = `HOLD${process.pid}`;
const COMPANY = `Held ${process.pid}`;
let fileId = '';

beforeAll(async () => {
  const wav = join(await mkdtemp(join(tmpdir(), 'holds-e2e-')), 'call.wav');
  execFileSync('espeak-ng', ['-s', '150', '-w', wav, 'Hello, this call is kept for a dispute.']);
  const user = await apiSession(suite.server.origin, 'USER');
  const form = new FormData();
  form.append('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), RECORDING);
  const upload = await user('/files/upload', { form });
  expect(upload.status).toBe(201);
  fileId = ((await upload.json()) as { _id: string })._id;
  const host = await apiSession(suite.server.origin, 'HOST_ADMIN');
  const company = await host('/companies', { json: { name: COMPANY, code: CODE, domain: CODE.toLowerCase() } });
  expect(company.status).toBe(201);
}, 600_000);

async function open(
  role: DemoRole,
  { width = 1280, theme = 'light' }: { width?: number; theme?: 'light' | 'dark' } = {},
): Promise<Page> {
  const page = await suite.open({ width, height: 900 });
  await signIn(page, suite.server.origin, role);
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, name), fullPage: false });
}

it('an ADMIN holds a recording with a reason, cannot delete it (the server says why), and lifts the hold', async () => {
  const page = await open('ADMIN');
  await page.goto(`${suite.server.origin}/transcripts/${fileId}`);
  await page.getByRole('button', { name: 'Place legal hold' }).click();
  const dialog = page.getByTestId('hold-dialog');
  await dialog.getByRole('button', { name: 'Place legal hold' }).click();
  await dialog.locator('textarea[aria-invalid="true"]').waitFor();
  await dialog.getByLabel('Reason').fill('Customer dispute 2026-41');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'hold-dialog-light.png');
  await dialog.getByRole('button', { name: 'Place legal hold' }).click();
  await page.getByTestId('hold-badge').waitFor();
  expect(await page.getByTestId('hold-badge').getAttribute('title')).toMatch(/Customer dispute 2026-41/);
  await shot(page, 'hold-viewer-light.png');

  await page.goto(`${suite.server.origin}/transcripts`);
  const row = page.getByTestId('file-row').filter({ hasText: RECORDING });
  await row.getByTestId('hold-badge').waitFor();
  await row.getByTestId('delete-file').click();
  await page.getByTestId('confirm-yes').click();
  await page.getByText(HOLD_MESSAGES.file).waitFor();
  await shot(page, 'hold-delete-refused-light.png');

  await page.goto(`${suite.server.origin}/transcripts/${fileId}`);
  await page.getByRole('button', { name: 'Lift legal hold' }).click();
  await page.getByTestId('hold-dialog').getByLabel('Reason').fill('Dispute settled');
  await page.getByTestId('hold-dialog').getByRole('button', { name: 'Lift legal hold' }).click();
  await page.getByRole('button', { name: 'Place legal hold' }).waitFor();
  expect(await page.getByTestId('hold-badge').count()).toBe(0);
});

it('HOST_ADMIN holds a whole company from its dialog (dark theme), and the list marks it', async () => {
  const page = await open('HOST_ADMIN', { theme: 'dark' });
  await page.goto(`${suite.server.origin}/companies?q=${CODE}`);
  await page.getByRole('button', { name: `Edit ${COMPANY}` }).click();
  const section = page.getByTestId('company-hold');
  await section.getByRole('button', { name: 'Place legal hold' }).click();
  await page.getByTestId('hold-dialog').getByLabel('Reason').fill('Regulator inquiry 4');
  await page.getByTestId('hold-dialog').getByRole('button', { name: 'Place legal hold' }).click();
  await section.getByTestId('hold-badge').waitFor();
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'hold-company-dark.png');
  await page.getByRole('button', { name: 'Close' }).first().click();
  await page.getByTestId('data-table-row').filter({ hasText: COMPANY }).getByTestId('hold-badge').waitFor();
  // The audit log names the change in words, the raw type under it.
  await page.goto(`${suite.server.origin}/audit-logs?type=company.hold_changed`);
  await page.getByTestId('audit-type-label').filter({ hasText: 'Company legal hold changed' }).first().waitFor();
});

it('a company’s ADMIN reads their data policies from the menu, with nothing to change', async () => {
  const page = await open('ADMIN', { width: 375 });
  await page.goto(`${suite.server.origin}/data-policies`);
  const list = page.getByTestId('own-policies');
  await list.waitFor();
  expect(await page.getByTestId('own-policy-redaction').textContent()).toBeTruthy();
  expect(await page.getByTestId('own-policy-recordingsDays').textContent()).toMatch(/days|Forever/);
  expect(await list.locator('input, select, button').count()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'data-policies-admin-375.png');
});

it('a USER gets no hold control, and the viewer fits 375 px', async () => {
  const page = await open('USER', { width: 375 });
  await page.goto(`${suite.server.origin}/transcripts/${fileId}`);
  await page.getByRole('heading', { name: RECORDING }).waitFor();
  await page.getByTestId('upload-date').waitFor();
  expect(await page.getByTestId('hold-toggle').count()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'hold-user-375.png');
});

it('an ADMIN’s hold control and badge fit 375 px in the dark theme', async () => {
  const admin = await apiSession(suite.server.origin, 'ADMIN');
  const placed = await admin(`/files/${fileId}/hold`, {
    method: 'PUT',
    json: { hold: true, reason: 'Kept for the 375 px check' },
  });
  expect(placed.status).toBe(200);
  const page = await open('ADMIN', { width: 375, theme: 'dark' });
  await page.goto(`${suite.server.origin}/transcripts/${fileId}`);
  await page.getByTestId('hold-badge').waitFor();
  await page.getByRole('button', { name: 'Lift legal hold' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'hold-viewer-375-dark.png');
});
