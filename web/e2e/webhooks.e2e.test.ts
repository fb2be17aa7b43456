// The Webhooks page in real Chromium against the real all-in-one server: a company's ADMIN adds an
// endpoint, copies the secret shown once, sends a test event that a receiver on loopback verifies
// with that secret (the Standard Webhooks library), reads the delivery log and resends. Waits for
// conditions, never for time.
import { join } from 'node:path';
import { afterAll, expect, it, jest } from '@jest/globals';
import { Receiver, verify } from '../../services/webhooks/test/receiver';
import { browserSuite, seriousViolations, signIn } from './harness';

jest.setTimeout(300_000);

let receiver: Receiver | undefined;
const suite = browserSuite({
  env: async () => {
    receiver = await Receiver.start();
    // The receiver is on loopback, which the operator's switch allows.
    return { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_POLL_MS: '100' };
  },
});
afterAll(async () => receiver?.close());
const SHOTS = process.env.SCREENSHOT_DIR;

it('an ADMIN adds an endpoint, keeps its secret, sends a test event, reads the log and resends', async () => {
  const page = await suite.open();
  await signIn(page, suite.server.origin, 'ADMIN');
  await page.goto(`${suite.server.origin}/webhooks`);
  await page.getByTestId('webhook-add').click();
  const form = page.getByTestId('webhook-form');
  await form.getByLabel('URL').fill(`${receiver!.url}/crm`);
  await form.getByLabel('Description').fill('Our CRM');
  await form.getByRole('checkbox', { name: /transcript\.completed/ }).check();
  await form.getByRole('checkbox', { name: /file\.uploaded/ }).check();
  expect(await seriousViolations(page)).toEqual([]);
  await form.getByTestId('form-save').click();

  const secretDialog = page.getByTestId('webhook-secret');
  await secretDialog.waitFor();
  const secret = (await page.getByTestId('webhook-secret-value').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'webhooks-secret.png') });
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await secretDialog.waitFor({ state: 'hidden' });

  const row = page.getByTestId('data-table-row').filter({ hasText: `${receiver!.url}/crm` });
  await expect(row.getByTestId('webhook-state').textContent()).resolves.toBe('Active');
  // The secret is not on the page any more, and no answer carries it again.
  await expect(page.content()).resolves.not.toContain(secret);

  await row.getByTestId('webhook-actions').click();
  await page.getByRole('menuitem', { name: 'Send test' }).click();
  const [test] = await receiver!.waitFor('/crm', 1);
  expect(verify(secret, test!)).toMatchObject({ type: 'webhook.test' });

  await row.getByTestId('webhook-actions').click();
  await page.getByRole('menuitem', { name: 'Deliveries' }).click();
  const log = page.getByTestId('webhook-deliveries');
  const entry = log.getByTestId('data-table-row').first();
  await entry.locator('[data-status="succeeded"]').waitFor();
  await expect(entry.textContent()).resolves.toContain('webhook.test');
  expect(await seriousViolations(page)).toEqual([]);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'webhooks-log.png') });
  await entry.getByRole('button', { name: 'Resend' }).click();
  const [, again] = await receiver!.waitFor('/crm', 2);
  expect(again!.headers['webhook-id']).toBe(test!.headers['webhook-id']);
  expect(verify(secret, again!)).toMatchObject({ type: 'webhook.test' });
});

it('is only for administrators: a USER is sent away; it fits a 375 px phone; screenshots in light, dark and at 375 px', async () => {
  const user = await suite.open();
  await signIn(user, suite.server.origin, 'USER');
  await user.goto(`${suite.server.origin}/webhooks`);
  await user.waitForURL((url) => !url.pathname.startsWith('/webhooks'));

  for (const [name, width, theme] of [
    ['webhooks-375', 375, 'light'],
    ['webhooks-light', 1280, 'light'],
    ['webhooks-dark', 1280, 'dark'],
  ] as const) {
    if (width > 375 && !SHOTS) continue;
    const page = await suite.open({ width, height: 860 });
    await signIn(page, suite.server.origin, 'ADMIN');
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await page.goto(`${suite.server.origin}/webhooks`);
    await page.getByTestId('data-table-row').first().waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: width < 768 });
  }
});
