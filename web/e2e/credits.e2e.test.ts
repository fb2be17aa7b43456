// Credits in real Chromium against the real all-in-one server (`npm start`) and the kit's fake
// OpenAI-compatible provider: a HOST_ADMIN prices the chat model and grants credits, a USER chats,
// the charge shows on the usage chart and in the statement, and a monthly cap stops the USER with
// its message. Waits for conditions, never for time. SCREENSHOT_DIR saves the pages in light, dark
// and at 375 px.
import { join } from 'node:path';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { connectFakeChatModel, fakeProviderSuite } from './fake-provider';
import { apiSession, seriousViolations, signIn, waitFor, type DemoRole } from './harness';

jest.setTimeout(300_000);

const SHOTS = process.env.SCREENSHOT_DIR;
const suite = fakeProviderSuite();

let companyId = '';

async function signedIn(who: DemoRole, size: { width?: number } = {}): Promise<Page> {
  const page = await suite.open(size);
  await signIn(page, suite.server.origin, who);
  return page;
}

async function ask(page: Page, question: string): Promise<void> {
  await page.getByPlaceholder('Ask Anything...').fill(question);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** How many pixels of a canvas have the bars' colour: the chart drew the charge. */
function barPixels(page: Page, testId: string): Promise<number> {
  return page
    .getByTestId(testId)
    .locator('canvas')
    .evaluate((canvas: HTMLCanvasElement) => {
      const hex = getComputedStyle(canvas).getPropertyValue('--color-brand-500').trim();
      const probe = document.createElement('canvas').getContext('2d')!;
      probe.fillStyle = hex;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4)
        if (
          Math.abs(data[i]! - r!) < 8 &&
          Math.abs(data[i + 1]! - g!) < 8 &&
          Math.abs(data[i + 2]! - b!) < 8 &&
          data[i + 3]! > 200
        )
          count += 1;
      return count;
    });
}

async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

beforeAll(async () => {
  const admin = await apiSession(suite.server.origin, 'HOST_ADMIN');
  await connectFakeChatModel(admin, suite.fake, { provider: 'Fixture fake', label: 'Fixture GPT' });
  const companies = (await (await admin('/companies/dropdown')).json()) as Array<{ _id: string; name: string }>;
  companyId = companies.find((company) => company.name === 'Acme Corporation')!._id;
});

describe('credits from price to statement', () => {
  it('a HOST_ADMIN prices the chat model on /pricing and grants the company credits', async () => {
    const page = await signedIn('HOST_ADMIN');
    // Before a price the AI configuration says the model cannot be used.
    await page.goto(`${suite.server.origin}/ai-config`);
    await page.getByTestId('model-row').filter({ hasText: 'fake-model' }).getByTestId('model-no-price').waitFor();

    await page.getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.getByRole('heading', { name: 'Pricing Management' }).waitFor();
    const row = page.getByTestId('data-table-row').filter({ hasText: 'Fixture GPT' });
    for (const [unit, credits] of [
      ['input_1k', '1'],
      ['output_1k', '4'],
    ] as const) {
      await row.getByRole('button', { name: 'Set price for Fixture GPT' }).click();
      const form = page.getByTestId('price-form');
      await form.getByLabel('Unit').selectOption(unit);
      await form.getByLabel('Credits').fill(credits);
      await form.getByRole('button', { name: 'Save price' }).click();
      await form.waitFor({ state: 'detached' });
    }
    await row
      .filter({ hasText: 'Input: 1 per 1,000 input tokens' })
      .filter({ hasText: 'Output: 4 per 1,000 output tokens' })
      .waitFor();
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await shoot(page, 'pricing');

    await page.goto(`${suite.server.origin}/companies`);
    await page.getByRole('button', { name: 'Credits of Acme Corporation' }).click();
    const dialog = page.getByTestId('credits-dialog');
    const grant = dialog.getByTestId('credit-grant-form');
    await grant.getByLabel('Amount').fill('100');
    await grant.getByLabel('Reason').fill('Welcome credits');
    await grant.getByRole('button', { name: 'Record' }).click();
    await dialog.getByTestId('data-table-row').filter({ hasText: 'Welcome credits' }).waitFor();
    const balance = Number((await dialog.getByTestId('credits-balance').textContent())!.replace(/,/g, ''));
    expect(balance).toBeGreaterThanOrEqual(100);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await shoot(page, 'company-credits');
  });

  it('a USER chats, the charge shows on their usage chart and in the company statement', async () => {
    const user = await apiSession(suite.server.origin, 'USER');
    const before = (await (await user('/credits/me/usage')).json()) as { total: number };
    const page = await signedIn('USER');
    await page.goto(`${suite.server.origin}/chat`);
    // 1,000 tokens in at 1 and 500 out at 4 per 1,000: 3 credits.
    suite.fake.queueReply({
      pieces: ['Three', ' items.'],
      usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
    });
    await ask(page, 'What is on the agenda?');
    await page.getByTestId('assistant-message').last().and(page.locator('[data-phase="complete"]')).waitFor();
    // Charging follows the reply's event: wait until the ledger has it.
    await waitFor(
      async () => ((await (await user('/credits/me/usage')).json()) as { total: number }).total >= before.total + 3,
      'the reply to be charged',
    );

    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByTestId('usage-total').waitFor();
    expect(await page.getByTestId('usage-total').textContent()).toBe(`${before.total + 3} credits`);
    await page
      .getByTestId('usage-by-model-row')
      .filter({ hasText: /fake-model|Fixture GPT/ })
      .filter({ hasText: '1,000 in / 500 out' })
      .waitFor();
    await page.getByTestId('usage-by-feature-row').filter({ hasText: 'Chat' }).waitFor();
    await waitFor(async () => (await barPixels(page, 'usage-by-day')) > 20, 'the day’s bar on the chart');
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await shoot(page, 'usage', true);

    const admin = await signedIn('ADMIN');
    await admin.getByRole('link', { name: 'Invoice', exact: true }).click();
    const statement = admin.getByTestId('statement');
    await statement.getByRole('heading', { name: /^Statement / }).waitFor();
    await statement
      .getByTestId('statement-charge')
      .filter({ hasText: /^Chat(fake-model|Fixture GPT)/ })
      .first()
      .waitFor();
    // The reply's two charges read as its two units, each quantity × unit price: 1 × 1 and 0.5 × 4.
    await statement
      .getByTestId('statement-charge')
      .filter({ hasText: /^Chat(fake-model|Fixture GPT)1k input tokens/ })
      .waitFor();
    await statement
      .getByTestId('statement-charge')
      .filter({ hasText: /^Chat(fake-model|Fixture GPT)1k output tokens/ })
      .waitFor();
    expect(await statement.getByTestId('statement-grants').textContent()).toMatch(/^Grants and top-ups[\d,.]+/);
    const pdf = await admin.request.get(
      await admin
        .getByTestId('statement-pdf')
        .getAttribute('href')
        .then((href) => `${suite.server.origin}${href}`),
    );
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    await expect(seriousViolations(admin)).resolves.toEqual([]);
    await shoot(admin, 'invoice', true);
  });

  it('an ADMIN caps the USER at what they have spent: the header shows nothing left and chat refuses with the message', async () => {
    const admin = await signedIn('ADMIN');
    const user = await apiSession(suite.server.origin, 'USER');
    const spent = ((await (await user('/credits/me')).json()) as { spentThisMonth: number }).spentThisMonth;
    expect(spent).toBeGreaterThan(0);
    await admin.goto(`${suite.server.origin}/users`);
    const row = admin.getByTestId('data-table-row').filter({ hasText: 'user@acme.test' });
    await row.getByTestId('user-actions').click();
    await admin.getByRole('menuitem', { name: 'Set monthly cap' }).click();
    await admin.getByTestId('cap-form').getByLabel('Credits per month').fill(String(spent));
    await admin.getByRole('button', { name: 'Save cap' }).click();
    await row
      .getByTestId('user-cap')
      .filter({ hasText: String(spent) })
      .waitFor();

    const page = await signedIn('USER');
    await page.goto(`${suite.server.origin}/chat`);
    await page.getByTestId('cap-left').filter({ hasText: '0 credits left' }).waitFor();
    const calls = suite.fake.requests.length;
    await ask(page, 'One more question');
    const error = page.getByTestId('reply-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('You have used your monthly credits: ask your administrator');
    // Refused before the provider was asked.
    expect(suite.fake.requests.length).toBe(calls);
    await shoot(page, 'chat-cap-reached');
  });
});

describe('the credit pages fit a phone and both themes', () => {
  const pages: Array<[name: string, who: DemoRole, path: () => string, ready: string]> = [
    ['pricing', 'HOST_ADMIN', () => '/pricing', 'data-table-row'],
    ['usage', 'ADMIN', () => '/usage', 'usage-total'],
    ['invoice', 'HOST_ADMIN', () => `/invoice?companyId=${companyId}`, 'statement'],
  ];
  it.each(pages)(
    '%s: no sideways page scroll at 375 px; light, dark and phone screenshots',
    async (name, who, path, ready) => {
      for (const [suffix, width, theme] of [
        ['375', 375, 'light'],
        ['light', 1280, 'light'],
        ['dark', 1280, 'dark'],
      ] as const) {
        if (width > 375 && !SHOTS) continue;
        const page = await signedIn(who, { width });
        await page.evaluate((value) => localStorage.setItem('theme', value), theme);
        await page.goto(`${suite.server.origin}${path()}`);
        await page.getByTestId(ready).first().waitFor();
        await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
        await shoot(page, `${name}-${suffix}`, width < 768);
      }
    },
  );
});
