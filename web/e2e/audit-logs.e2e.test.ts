// The audit log screen in real Chromium against the real all-in-one server: a HOST_ADMIN's change
// shows up, filters survive a reload, the drawer shows the before/after diff, and the CSV export
// downloads the filtered log. Waits for conditions, never for time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it, jest } from '@jest/globals';
import { browserSuite, apiSession, seriousViolations, signIn } from './harness';

jest.setTimeout(300_000);

const suite = browserSuite();
const SHOTS = process.env.SCREENSHOT_DIR;
const renamed = `Acme Renamed ${process.pid}`;
let acmeId = '';
let oldName = '';

beforeAll(async () => {
  // The change to find: the platform administrator renames the demo company through the API.
  const host = await apiSession(suite.server.origin, 'HOST_ADMIN');
  const companies = (await (await host('/companies/dropdown')).json()) as Array<{ _id: string; name: string }>;
  const acme = companies.find((company) => /acme/i.test(company.name));
  if (!acme) throw new Error(`No demo company in ${JSON.stringify(companies)}`);
  ({ _id: acmeId, name: oldName } = acme);
  const answer = await host(`/companies/${acmeId}`, { method: 'PUT', json: { name: renamed } });
  expect(answer.status).toBe(200);
}, 600_000);

it('filters by type (kept over a reload), shows the before/after diff and exports the filtered CSV', async () => {
  const page = await suite.open();
  await signIn(page, suite.server.origin, 'HOST_ADMIN');
  await page.goto(`${suite.server.origin}/audit-logs`);
  await page.getByTestId('data-table-row').first().waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Event type').fill('company.updated');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/type=company\.updated/);
  await page.reload();
  await expect(page.getByLabel('Event type').inputValue()).resolves.toBe('company.updated');
  const rows = page.getByTestId('data-table-row');
  await rows.first().waitFor();
  const types = await rows.locator('td:nth-child(2)').allTextContents();
  expect(types.length).toBeGreaterThan(0);
  expect(new Set(types)).toEqual(new Set(['company.updated']));

  await rows
    .first()
    .getByRole('button', { name: /View entry company\.updated/ })
    .click();
  const drawer = page.getByRole('dialog', { name: 'Audit entry: company.updated' });
  await drawer.waitFor();
  const nameRow = drawer.locator('tr[data-change="changed"]', { hasText: 'name' }).first();
  await expect(nameRow.textContent()).resolves.toContain(JSON.stringify(renamed));
  await expect(nameRow.textContent()).resolves.toContain(JSON.stringify(oldName));
  await expect(drawer.getByTestId('audit-raw').textContent()).resolves.toContain(acmeId);
  expect(await seriousViolations(page)).toEqual([]);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'audit-drawer.png') });
  // Esc closes it and focus stays usable on the page.
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-.*\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const [header, ...lines] = csv.trimEnd().split('\r\n');
  expect(header!.split(',').slice(0, 2)).toEqual(['occurredAt', 'type']);
  expect(lines.length).toBe(types.length);
  for (const line of lines) expect(line.split(',')[1]).toBe('company.updated');
  expect(csv).toContain(renamed);
});

it('fits a 375 px phone without sideways page scroll; screenshots in light, dark and at 375 px', async () => {
  for (const [name, width, theme] of [
    ['audit-375', 375, 'light'],
    ['audit-light', 1280, 'light'],
    ['audit-dark', 1280, 'dark'],
  ] as const) {
    if (width > 375 && !SHOTS) continue;
    const page = await suite.open({ width, height: 860 });
    await signIn(page, suite.server.origin, 'HOST_ADMIN');
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await page.goto(`${suite.server.origin}/audit-logs`);
    await page.getByTestId('data-table-row').first().waitFor();
    // The platform's own hash chain, verified: the seeded log holds.
    await page.getByTestId('audit-chain-verify').click();
    await expect(page.getByTestId('chain-ok').textContent()).resolves.toMatch(
      /^✓ Verified [\d,]+ entries, head [0-9a-f]{12}…$/,
    );
    // The table scrolls inside its own region; nothing in it may widen the page.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
    if (width === 375) await expect(page.getByTestId('data-table-scroll-hint').isVisible()).resolves.toBe(true);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: width < 768 });
  }
});
