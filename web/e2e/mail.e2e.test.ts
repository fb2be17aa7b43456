// E-mail in real Chromium against the real all-in-one server, with no mail server: a person asks
// for a reset link on the sign-in page, the platform administrator opens the message on the
// Outgoing mail page (the embedded default writes it to DATA_DIR/mail), the person follows its
// link, sets a password, lands on /success and signs in with it; an invited person follows the
// invitation's link the same way and is signed in at once. Waits for conditions, never for time.
import { expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { EMAIL_TEMPLATE_TYPES } from '@earshot/contracts';
import { browserSuite, createUser, seriousViolations, signIn } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();
const SHOTS = process.env.SCREENSHOT_DIR;
const open = (width?: number): Promise<Page> => suite.open({ width });

/** Reloads the Outgoing mail page until the message to `email` is sent (the sender runs in the background). */
async function sentMessageRow(page: Page, email: string) {
  for (;;) {
    await page.goto(`${suite.server.origin}/email-templates?tab=outbox`);
    const row = page.getByTestId('data-table-row').filter({ hasText: email });
    await page.getByTestId('outbox-table').waitFor();
    if ((await row.count()) > 0 && (await row.first().getByText('Sent', { exact: true }).count()) > 0)
      return row.first();
    await page
      .waitForResponse((response) => response.url().includes('/api/email/outbox'), { timeout: 5_000 })
      .catch(() => undefined);
  }
}

it('forgot password → the mail on Outgoing mail → its link → new password → /success → signed in', async () => {
  const person = await createUser(suite.server.origin, 'USER');

  const visitor = await open();
  await visitor.goto(`${suite.server.origin}/signin`);
  await visitor.getByRole('link', { name: 'Forgot password?' }).click();
  // The page is loaded lazily: until its heading shows, 'Email' is still the sign-in form's field.
  await visitor.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
  await visitor.getByLabel('Email').fill(person.email);
  await visitor.getByRole('button', { name: 'Send reset link' }).click();
  await visitor.getByTestId('reset-sent').waitFor();

  const host = await open();
  await signIn(host, suite.server.origin, 'HOST_ADMIN');
  const row = await sentMessageRow(host, person.email);
  expect(await row.textContent()).toContain('Password reset');
  await row.getByRole('button', { name: `Open the message to ${person.email}` }).click();
  const drawer = host.getByTestId('mail-drawer');
  const link = await drawer.getByTestId('mail-link').first().getAttribute('href');
  expect(link).toMatch(/^http:\/\/acme\.localhost:\d+\/reset-password\?token=/);
  expect(await seriousViolations(host)).toEqual([]);
  if (SHOTS) await host.screenshot({ path: `${SHOTS}/mail-outbox-message.png` });

  // The test server listens on a port the kernel picked (PORT=0), which the link cannot know; a
  // real deployment sets PUBLIC_URL or a fixed PORT. Follow the link's path on the server.
  const { pathname, search } = new URL(link!);
  await visitor.goto(`${suite.server.origin}${pathname}${search}`);
  await visitor.getByLabel('New password', { exact: true }).fill('A brand new password 1');
  await visitor.getByLabel('Confirm new password').fill('A brand new password 1');
  await visitor.getByRole('button', { name: 'Set password' }).click();
  await visitor.getByRole('heading', { name: 'Success!' }).waitFor();
  expect(new URL(visitor.url()).pathname).toBe('/success');
  await visitor.getByRole('link', { name: 'Back to sign in' }).click();
  await signIn(visitor, suite.server.origin, { email: person.email, password: 'A brand new password 1' });
});

it('ADMIN invites a user → the invitation on Outgoing mail → its link → first password → signed in', async () => {
  const email = `invited-${Date.now()}@example.com`;
  const admin = await open();
  await signIn(admin, suite.server.origin, 'ADMIN');
  await admin.goto(`${suite.server.origin}/users`);
  await admin.getByTestId('add-user').click();
  const form = admin.getByTestId('create-user-form');
  await form.getByLabel('First name').fill('Ivy');
  await form.getByLabel('Last name').fill('Invited');
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel(/Send an invitation/).check();
  await form.getByRole('button', { name: 'Add user' }).click();
  await admin.getByText(`Invitation sent to ${email}`).waitFor();
  const invitedRow = admin.getByTestId('data-table-row').filter({ hasText: email });
  await invitedRow.getByTestId('user-status').filter({ hasText: 'Invited' }).waitFor();
  expect(await invitedRow.getByTestId('user-status').textContent()).toContain('Link valid until');

  const host = await open();
  await signIn(host, suite.server.origin, 'HOST_ADMIN');
  const row = await sentMessageRow(host, email);
  expect(await row.textContent()).toContain('Invitation');
  await row.getByRole('button', { name: `Open the message to ${email}` }).click();
  const link = await host.getByTestId('mail-drawer').getByTestId('mail-link').first().getAttribute('href');
  expect(link).toMatch(/^http:\/\/acme\.localhost:\d+\/reset-password\?token=[\w%-]+&invite=1$/);

  // As for the reset link: follow the link's path on the test server (its port was picked at start).
  const { pathname, search } = new URL(link!);
  const visitor = await open();
  // Before accepting, signing in is refused with a reason, not a bare "invalid password".
  await visitor.goto(`${suite.server.origin}/signin`);
  await visitor.getByLabel('Email').fill(email);
  await visitor.getByLabel('Password', { exact: true }).fill('a guessed password');
  await visitor.getByRole('button', { name: 'Sign in', exact: true }).click();
  await visitor.getByText(/Your account is waiting for you to accept your invitation/).waitFor();
  await visitor.goto(`${suite.server.origin}${pathname}${search}`);
  await visitor.getByRole('heading', { name: /^Welcome to / }).waitFor();
  expect(await seriousViolations(visitor)).toEqual([]);
  if (SHOTS) await visitor.screenshot({ path: `${SHOTS}/mail-invitation-page.png` });
  await visitor.getByLabel('New password', { exact: true }).fill('Ivy chose this one 1');
  await visitor.getByLabel('Confirm new password').fill('Ivy chose this one 1');
  await visitor.getByRole('button', { name: 'Set your password' }).click();
  await visitor.getByTestId('user-menu').waitFor();
  expect(new URL(visitor.url()).pathname).not.toMatch(/^\/(signin|success|reset-password)/);

  // The administrator now sees an active user, and the link is spent.
  await admin.reload();
  await admin
    .getByTestId('data-table-row')
    .filter({ hasText: email })
    .getByTestId('user-status')
    .filter({ hasText: 'Active' })
    .waitFor();
  const spent = await open();
  await spent.goto(`${suite.server.origin}${pathname}${search}`);
  await spent.getByLabel('New password', { exact: true }).fill('Another password 22');
  await spent.getByLabel('Confirm new password').fill('Another password 22');
  await spent.getByRole('button', { name: 'Set your password' }).click();
  await spent.getByText('This reset link is invalid or has expired').waitFor();
});

it('the templates page edits a template with a live preview, in both themes and on a phone', async () => {
  const host = await open();
  await signIn(host, suite.server.origin, 'HOST_ADMIN');
  await host.goto(`${suite.server.origin}/email-templates`);
  await host.getByTestId('data-table-row').first().waitFor();
  await host.getByRole('heading', { name: 'Email templates' }).waitFor();
  // Every template type in each of the four languages.
  expect(await host.getByTestId('data-table-row').count()).toBe(EMAIL_TEMPLATE_TYPES.length * 4);
  await host
    .getByTestId('data-table-row')
    .filter({ hasText: 'Invitation' })
    .filter({ hasText: 'FR' })
    .getByRole('button', { name: 'Edit' })
    .click();
  const editor = host.getByTestId('template-editor');
  await editor.getByTestId('preview-frame').waitFor();
  const subject = editor.getByLabel('Subject');
  await subject.fill('Bienvenue chez {{company.name}}, {{user.firstName}}');
  await editor.getByTestId('preview-subject').filter({ hasText: 'Bienvenue chez Earshot, Ada' }).waitFor();
  expect(await seriousViolations(host)).toEqual([]);
  if (SHOTS) await host.screenshot({ path: `${SHOTS}/mail-template-editor-light.png` });

  await editor.getByLabel('Plain text').fill('{{link}} {{recording.name}}');
  await editor.getByRole('button', { name: 'Save' }).click();
  await editor
    .getByText(/Unknown variable \{\{recording\.name\}\}/)
    .first()
    .waitFor();
  await editor.getByRole('button', { name: 'Close' }).click();

  // A phone: the table scrolls inside its own region and the page never widens (dark, for the look).
  const phone = await open(375);
  await signIn(phone, suite.server.origin, 'HOST_ADMIN');
  await phone.evaluate(() => localStorage.setItem('theme', 'dark'));
  await phone.goto(`${suite.server.origin}/email-templates`);
  await phone.getByTestId('data-table-row').first().waitFor();
  await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(375);
  if (SHOTS) await phone.screenshot({ path: `${SHOTS}/mail-templates-375-dark.png`, fullPage: true });
});
